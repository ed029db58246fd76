#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""`relaydesk policy scan --format sarif` against the SARIF 2.1.0 JSON schema
(tests/data/sarif, OASIS), with Debian's python3-jsonschema.

Usage: sarif_schema_check.py RELAYDESK SCHEMA TEMPLATES_DIR

Scans the real templates and a folder of hand-written fixtures that make every
rule of docs/policies.md ("Findings") fire once, validates each report and
checks that every rule has a result. Exits 1 with the schema's errors.
"""
import json
import pathlib
import subprocess
import sys
import tempfile

import jsonschema

FIXTURES = {
    # rule id => a template that makes it fire
    "invalid-policy": '{"healthyRetryPolicy": {"numRetries": 200}}',
    "dlq-target-missing": ('{"Resources": {"Q": {"Type": "AWS::SQS::Queue", "Properties": {"RedrivePolicy": '
                           '{"deadLetterTargetArn": "arn:aws:sqs:eu-west-1:1:elsewhere", "maxReceiveCount": 5}}}}}'),
    "max-receive-count-1": ("Resources:\n  Q:\n    Type: AWS::SQS::Queue\n    Properties:\n      RedrivePolicy:\n"
                            "        deadLetterTargetArn: !GetAtt D.Arn\n        maxReceiveCount: 1\n"
                            "  D:\n    Type: AWS::SQS::Queue\n"),
    "retry-span-short": '{"healthyRetryPolicy": {"numRetries": 3, "minDelayTarget": 20, "maxDelayTarget": 20}}',
    "ttl-shorter-than-lock": ('{"contentVersion": "1.0.0.0", "resources": [{"type": "Microsoft.ServiceBus/namespaces/queues",'
                              ' "name": "ns/q", "properties": {"lockDuration": "PT5M", "defaultMessageTimeToLive": "PT1M"}}]}'),
    "unresolved-intrinsic": "Resources:\n  T:\n    Type: AWS::SNS::Topic\n    Properties:\n      DeliveryPolicy: !Sub '${P}'\n",
}


def scan(relaydesk, paths):
    run = subprocess.run([relaydesk, "policy", "scan", "--format", "sarif", *map(str, paths)],
                         capture_output=True, text=True, timeout=120)
    if run.returncode not in (0, 1):
        sys.exit(f"policy scan exited {run.returncode}: {run.stderr}")
    return json.loads(run.stdout)


def main():
    relaydesk, schema_path, templates = sys.argv[1:4]
    schema = json.loads(pathlib.Path(schema_path).read_text())
    validator = jsonschema.Draft4Validator(schema)
    failures = 0
    with tempfile.TemporaryDirectory() as folder:
        for rule, text in FIXTURES.items():
            pathlib.Path(folder, rule + (".yaml" if text.startswith("Resources:") else ".json")).write_text(text)
        reports = {"real templates": scan(relaydesk, [templates]), "fixtures": scan(relaydesk, [folder]),
                   "nothing found": scan(relaydesk, [pathlib.Path(templates, "cloudformation", "SNSTopic.yaml")])}
    for name, report in reports.items():
        errors = sorted(validator.iter_errors(report), key=lambda error: list(error.absolute_path))
        for error in errors:
            print(f"{name}: {'/'.join(map(str, error.absolute_path))}: {error.message}")
        failures += len(errors)
        print(f"{name}: {len(report['runs'][0]['results'])} results, {len(errors)} schema errors")
    # The check bites: a report with a wrong version and a result without its message is refused.
    broken = json.loads(json.dumps(reports["fixtures"]))
    broken["version"] = "2.0.0"
    del broken["runs"][0]["results"][0]["message"]
    if len(list(validator.iter_errors(broken))) < 2:
        print("the schema accepted a broken report")
        failures += 1
    fired = {result["ruleId"] for result in reports["fixtures"]["runs"][0]["results"]}
    for rule in sorted(set(FIXTURES) - fired):
        print(f"fixtures: no result for rule {rule}")
        failures += 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
