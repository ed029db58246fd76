import json
# Written by hand to the documented `terraform show -json` plan format for
# terraform-aws-sqs examples/complete: modules fifo_sqs, sse_encrypted_sqs, sse_encrypted_dlq_sqs.
def res(mod, typ, name, values, unknown):
    addr = f"module.{mod}.{typ}.{name}[0]"
    planned = {"address": addr, "mode": "managed", "type": typ, "name": name, "index": 0,
               "provider_name": "registry.terraform.io/hashicorp/aws", "schema_version": 0,
               "values": values, "sensitive_values": {}}
    change = {"address": addr, "module_address": f"module.{mod}", "mode": "managed", "type": typ, "name": name,
              "index": 0, "provider_name": "registry.terraform.io/hashicorp/aws",
              "change": {"actions": ["create"], "before": None, "after": values,
                         "after_unknown": unknown, "before_sensitive": False, "after_sensitive": {}}}
    return planned, change
tags = {"Example": "ex-complete", "Name": "ex-complete", "Repository": "https://github.com/terraform-aws-modules/terraform-aws-sqs"}
def queue(name, fifo, sse):
    return {"content_based_deduplication": False, "delay_seconds": 0, "fifo_queue": fifo,
            "kms_master_key_id": None, "max_message_size": 262144, "message_retention_seconds": 345600,
            "name": name, "receive_wait_time_seconds": 0, "region": "eu-west-1",
            "sqs_managed_sse_enabled": sse, "tags": tags, "tags_all": tags, "visibility_timeout_seconds": 30}
unknownQueue = {"arn": True, "id": True, "policy": True, "redrive_allow_policy": True, "redrive_policy": True,
                "url": True, "deduplication_scope": True, "fifo_throughput_limit": True,
                "kms_data_key_reuse_period_seconds": True, "name_prefix": True, "tags": {}, "tags_all": {}}
mods = []
changes = []
def module(mod, items):
    rs = []
    for typ, name, values, unknown in items:
        p, c = res(mod, typ, name, values, unknown)
        rs.append(p); changes.append(c)
    mods.append({"address": f"module.{mod}", "resources": rs})
module("fifo_sqs", [
    ("aws_sqs_queue", "this", queue("ex-complete.fifo", True, True), unknownQueue),
    ("aws_sqs_queue", "dlq", queue("ex-complete-dlq.fifo", True, True), unknownQueue),
    ("aws_sqs_queue_redrive_policy", "dlq", {"region": "eu-west-1"}, {"id": True, "queue_url": True, "redrive_policy": True}),
])
module("sse_encrypted_sqs", [
    ("aws_sqs_queue", "this", queue("ex-complete-sse", False, True), unknownQueue),
    ("aws_sqs_queue_redrive_policy", "this", {"region": "eu-west-1"}, {"id": True, "queue_url": True, "redrive_policy": True}),
])
module("sse_encrypted_dlq_sqs", [
    ("aws_sqs_queue", "this", queue("ex-complete-sse-dlq", False, True), unknownQueue),
])
# The configuration section: what each resource of the module sets (main.tf of
# terraform-aws-sqs); aws_sqs_queue sets no redrive_policy, the
# aws_sqs_queue_redrive_policy resources do.
QUEUE_ARGS = ["region", "content_based_deduplication", "deduplication_scope", "delay_seconds", "fifo_queue",
              "fifo_throughput_limit", "kms_data_key_reuse_period_seconds", "kms_master_key_id", "max_message_size",
              "message_retention_seconds", "name", "name_prefix", "receive_wait_time_seconds",
              "sqs_managed_sse_enabled", "visibility_timeout_seconds", "tags"]
def configured(address, arguments):
    typ, name = address.split(".")
    return {"address": address, "mode": "managed", "type": typ, "name": name,
            "provider_config_key": "aws", "schema_version": 0, "count_expression": {"references": ["var.create"]},
            "expressions": {argument: {"references": [f"var.{argument}"]} for argument in arguments}}
module_resources = [configured("aws_sqs_queue.this", QUEUE_ARGS), configured("aws_sqs_queue.dlq", QUEUE_ARGS),
                    configured("aws_sqs_queue_redrive_policy.this", ["region", "queue_url", "redrive_policy"]),
                    configured("aws_sqs_queue_redrive_policy.dlq", ["region", "queue_url", "redrive_policy"])]
calls = {name: {"source": "../../", "module": {"resources": module_resources}}
         for name in ("fifo_sqs", "sse_encrypted_sqs", "sse_encrypted_dlq_sqs")}
plan = {"format_version": "1.2", "terraform_version": "1.5.7",
        "planned_values": {"root_module": {"child_modules": mods}},
        "resource_changes": changes,
        "configuration": {"provider_config": {"aws": {"name": "aws", "full_name": "registry.terraform.io/hashicorp/aws"}},
                          "root_module": {"module_calls": calls}}}
print(json.dumps(plan, indent=2))
