#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""The checks check_image.sh runs against a started relaydesk image (a container or
its root filesystem under chroot), from outside it, with Debian's clients:

    image_checks.py HTTP_ENDPOINT

/health answers 200 with the image's database; SQS send and receive (boto3); SNS
publish to an SQS subscription (boto3); Zaqar v2 post and list (plain HTTP). Each
check prints one line; any failure ends with status 1.
"""
import json
import sys
import urllib.request
import uuid

import boto3
from botocore.config import Config


def call(endpoint, method, path, body=None, headers=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(endpoint + path, data=data, method=method,
                                     headers={"Content-Type": "application/json", **(headers or {})})
    with urllib.request.urlopen(request, timeout=30) as reply:
        text = reply.read().decode()
        return reply.status, json.loads(text) if text else None


def client(endpoint, service):
    return boto3.client(service, endpoint_url=endpoint, region_name="us-east-1", aws_access_key_id="test",
                        aws_secret_access_key="test", config=Config(retries={"max_attempts": 1}))


def check_health(endpoint):
    status, health = call(endpoint, "GET", "/health")
    assert status == 200 and health["status"] == "ready", health
    assert health["database"] == "/var/lib/relaydesk/relaydesk.db", health
    return "ready, database " + health["database"]


def check_sqs(endpoint):
    sqs = client(endpoint, "sqs")
    url = sqs.create_queue(QueueName="image-check")["QueueUrl"]
    sqs.send_message(QueueUrl=url, MessageBody="from boto3")
    got = sqs.receive_message(QueueUrl=url, WaitTimeSeconds=0).get("Messages", [])
    assert [m["Body"] for m in got] == ["from boto3"], got
    sqs.delete_message(QueueUrl=url, ReceiptHandle=got[0]["ReceiptHandle"])
    return "sent and received on " + url


def check_sns(endpoint):
    sns, sqs = client(endpoint, "sns"), client(endpoint, "sqs")
    url = sqs.create_queue(QueueName="image-check-fanout")["QueueUrl"]
    queue_arn = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
    topic = sns.create_topic(Name="image-check")["TopicArn"]
    sns.subscribe(TopicArn=topic, Protocol="sqs", Endpoint=queue_arn, Attributes={"RawMessageDelivery": "true"})
    sns.publish(TopicArn=topic, Message="from SNS")
    got = sqs.receive_message(QueueUrl=url, WaitTimeSeconds=0).get("Messages", [])
    assert [m["Body"] for m in got] == ["from SNS"], got
    return "published to " + topic + ", delivered to " + queue_arn


def check_zaqar(endpoint):
    client_id = {"Client-ID": str(uuid.uuid4())}
    status, _ = call(endpoint, "PUT", "/v2/queues/image-check", {}, client_id)
    assert status in (201, 204), status
    status, posted = call(endpoint, "POST", "/v2/queues/image-check/messages",
                          {"messages": [{"body": {"from": "zaqar"}, "ttl": 300}]}, client_id)
    assert status == 201, (status, posted)
    status, listed = call(endpoint, "GET", "/v2/queues/image-check/messages?echo=true", None, client_id)
    assert status == 200 and [m["body"] for m in listed["messages"]] == [{"from": "zaqar"}], listed
    return "posted and listed " + posted["resources"][0]


def main():
    endpoint = sys.argv[1].rstrip("/")
    failed = False
    for check in (check_health, check_sqs, check_sns, check_zaqar):
        try:
            print(f"image_checks: {check.__name__[6:]}: ok: {check(endpoint)}")
        except Exception as error:   # every check runs; each failure in words
            print(f"image_checks: {check.__name__[6:]}: FAILED: {error!r}")
            failed = True
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
