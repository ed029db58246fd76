#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""How long `relaydesk policy scan` takes over a folder of templates
(docs/figures.md "Policies and charts").

    policy_scan_bench.py RELAYDESK [TEMPLATES [RUNS [FOLDER]]]

Writes TEMPLATES files (default 1 000) into FOLDER (default a temporary
folder, removed afterwards), in turn CloudFormation YAML, CloudFormation
JSON, a Terraform plan, an ARM template and a Heat template, each with a few
policies (valid, invalid, unresolved, with and without findings; the shapes
of tests/data/templates), under 10 sub-folders. Then runs
`RELAYDESK policy scan FOLDER --format json` RUNS times (default 5, after one
warm-up) and prints, for each run, the wall seconds and the peak resident
size of the process, and the median of the runs; the policy count of the
report shows that every file was read. A benchmark: never run by CTest.
"""
import json
import pathlib
import resource
import statistics
import subprocess
import sys
import tempfile
import time


def cloudformation_yaml(i):
    return (f"AWSTemplateFormatVersion: '2010-09-09'\nResources:\n"
            f"  Orders{i}:\n    Type: AWS::SQS::Queue\n    Properties:\n      RedrivePolicy:\n"
            f"        deadLetterTargetArn: !GetAtt Dlq{i}.Arn\n        maxReceiveCount: {1 + i % 5}\n"
            f"  Dlq{i}:\n    Type: AWS::SQS::Queue\n"
            f"  Events{i}:\n    Type: AWS::SNS::Topic\n    Properties:\n      DeliveryPolicy:\n        http:\n"
            f"          defaultHealthyRetryPolicy:\n            numRetries: {3 + i % 60}\n"
            f"            minDelayTarget: 20\n            maxDelayTarget: 60\n")


def cloudformation_json(i):
    return json.dumps({"AWSTemplateFormatVersion": "2010-09-09", "Resources": {
        f"Sub{i}": {"Type": "AWS::SNS::Subscription", "Properties": {
            "DeliveryPolicy": {"healthyRetryPolicy": {"numRetries": i % 120, "minDelayTarget": 1, "maxDelayTarget": 30}},
            "RedrivePolicy": {"deadLetterTargetArn": {"Fn::Sub": "arn:aws:sqs:${AWS::Region}:1:dlq"}}}}}}, indent=2)


def terraform_plan(i):
    delivery = json.dumps({"http": {"defaultHealthyRetryPolicy": {"numRetries": 3 + i % 40, "minDelayTarget": 20,
                                                                  "maxDelayTarget": 20}}})
    resources = [{"address": f"aws_sns_topic.t{i}", "type": "aws_sns_topic", "name": f"t{i}",
                  "values": {"name": f"t{i}", "delivery_policy": delivery}},
                 {"address": f"aws_sqs_queue.q{i}", "type": "aws_sqs_queue", "name": f"q{i}",
                  "values": {"name": f"q{i}", "redrive_policy": json.dumps(
                      {"deadLetterTargetArn": f"arn:aws:sqs:eu-west-1:1:q{i}-dlq", "maxReceiveCount": 4})}}]
    return json.dumps({"format_version": "1.2", "planned_values": {"root_module": {"resources": resources}},
                       "resource_changes": []}, indent=2)


def arm(i):
    return json.dumps({
        "$schema": "https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#",
        "contentVersion": "1.0.0.0",
        "parameters": {"queue": {"type": "string", "defaultValue": f"orders{i}"}},
        "resources": [{"type": "Microsoft.ServiceBus/namespaces", "name": "ns", "resources": [
            {"type": "queues", "name": "[parameters('queue')]",
             "properties": {"lockDuration": "PT1M", "maxDeliveryCount": 1 + i % 10,
                            "defaultMessageTimeToLive": "PT30S" if i % 3 == 0 else "P1D"}},
            {"type": "topics", "name": "events", "resources": [
                {"type": "Subscriptions", "name": f"audit{i}",
                 "properties": {"lockDuration": "PT5M", "forwardDeadLetteredMessagesTo": "graveyard"}}]}]}]},
        indent=2)


def heat(i):
    return (f"heat_template_version: 2018-08-31\nresources:\n  jobs{i}:\n    type: OS::Zaqar::Queue\n"
            f"    properties:\n      metadata:\n        _max_claim_count: {1 + i % 4}\n"
            f"        _dead_letter_queue: jobs-dlq\n"
            f"        _retry_policy: {{retries_with_no_delay: 1, minimum_delay: 5, maximum_delay: 60}}\n")


WRITERS = [(".yaml", cloudformation_yaml), (".json", cloudformation_json), (".json", terraform_plan),
           (".json", arm), (".yaml", heat)]


def write_templates(folder, count):
    for i in range(count):
        suffix, writer = WRITERS[i % len(WRITERS)]
        path = pathlib.Path(folder, f"team{i % 10}", f"stack{i}{suffix}")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(writer(i))


def run_scan(binary, folder):
    """(wall seconds, peak resident KiB, policies in the report)."""
    started = time.monotonic()
    process = subprocess.Popen([binary, "policy", "scan", folder, "--format", "json"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = process.communicate()
    seconds = time.monotonic() - started
    if process.returncode not in (0, 1):
        sys.exit(f"policy scan exited {process.returncode}: {err.decode()}")
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return seconds, peak, len(json.loads(out)["policies"])


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    binary = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    with tempfile.TemporaryDirectory() as scratch:
        folder = sys.argv[4] if len(sys.argv) > 4 else scratch
        write_templates(folder, count)
        run_scan(binary, folder)   # warm-up: the files in the page cache
        times = []
        for n in range(runs):
            seconds, peak, policies = run_scan(binary, folder)
            times.append(seconds)
            print(f"run {n + 1}: {seconds:.3f} s, {policies} policies in {count} files, "
                  f"peak resident of the largest child so far {peak // 1024} MiB")
        print(f"median {statistics.median(times):.3f} s over {runs} runs "
              f"(min {min(times):.3f}, max {max(times):.3f})")


if __name__ == "__main__":
    main()
