import json
# Written by hand to the documented `terraform show -json` plan format for
# terraform-aws-sns examples/complete, module complete_sns (topic and its sqs subscription).
delivery = json.dumps({"http": {"defaultHealthyRetryPolicy": {"backoffFunction": "linear", "maxDelayTarget": 20,
    "minDelayTarget": 20, "numMaxDelayRetries": 0, "numMinDelayRetries": 0, "numNoDelayRetries": 0, "numRetries": 3},
    "defaultThrottlePolicy": {"maxReceivesPerSecond": 1}, "disableSubscriptionOverrides": False}}, separators=(",", ":"))
tags = {"Example": "ex-complete", "Name": "ex-complete", "Repository": "https://github.com/terraform-aws-modules/terraform-aws-sns"}
topic = {"content_based_deduplication": True, "delivery_policy": delivery, "display_name": "complete",
         "fifo_throughput_scope": "MessageGroup", "fifo_topic": True, "name_prefix": "ex-complete", "region": "eu-west-1",
         "tags": tags, "tags_all": tags, "tracing_config": "Active"}
topicUnknown = {"arn": True, "id": True, "kms_master_key_id": True, "name": True, "owner": True, "policy": True,
                "signature_version": True, "tags": {}, "tags_all": {}}
sub = {"confirmation_timeout_in_minutes": 1, "endpoint_auto_confirms": False, "protocol": "sqs", "raw_message_delivery": False,
       "region": "eu-west-1"}
subUnknown = {"arn": True, "endpoint": True, "id": True, "topic_arn": True, "owner_id": True, "pending_confirmation": True,
              "confirmation_was_authenticated": True}
provider = "registry.terraform.io/hashicorp/aws"
def entry(typ, name, index, values, unknown):
    addr = f'module.complete_sns.{typ}.{name}[{json.dumps(index)}]'
    planned = {"address": addr, "mode": "managed", "type": typ, "name": name, "index": index, "provider_name": provider,
               "schema_version": 0, "values": values, "sensitive_values": {}}
    change = {"address": addr, "module_address": "module.complete_sns", "mode": "managed", "type": typ, "name": name,
              "index": index, "provider_name": provider,
              "change": {"actions": ["create"], "before": None, "after": values, "after_unknown": unknown,
                         "before_sensitive": False, "after_sensitive": {}}}
    return planned, change
t = entry("aws_sns_topic", "this", 0, topic, topicUnknown)
s = entry("aws_sns_topic_subscription", "this", "sqs", sub, subUnknown)
plan = {"format_version": "1.2", "terraform_version": "1.5.7",
        "planned_values": {"root_module": {"child_modules": [{"address": "module.complete_sns", "resources": [t[0], s[0]]}]}},
        "resource_changes": [t[1], s[1]]}
print(json.dumps(plan, indent=2))
