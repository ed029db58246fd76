# SPDX-License-Identifier: MIT
"""An example test with RelaydeskContainer and boto3 (tests/image/check_testcontainers.sh runs it):

    DOCKER_HOST=unix:///run/podman/podman.sock TESTCONTAINERS_RYUK_DISABLED=true \
        python -m unittest -v test_example

One container for the class, with the virtual clock: a visibility timeout that passes on
advance(), SNS fan-out to SQS, Zaqar v2 and the Service Bus port answering AMQP.
"""
import json
import socket
import unittest
import urllib.request
import uuid

import boto3
from botocore.config import Config

from relaydesk_testcontainer import RelaydeskContainer


class RelaydeskExample(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.relaydesk = RelaydeskContainer(clock="virtual").start()
        cls.addClassCleanup(cls.relaydesk.stop)

    def client(self, service, endpoint):
        return boto3.client(service, endpoint_url=endpoint, region_name="us-east-1", aws_access_key_id="test",
                            aws_secret_access_key="test", config=Config(retries={"max_attempts": 1}))

    def test_a_visibility_timeout_passes_when_the_clock_is_advanced(self):
        sqs = self.client("sqs", self.relaydesk.sqs_endpoint())
        url = sqs.create_queue(QueueName="orders", Attributes={"VisibilityTimeout": "30"})["QueueUrl"]
        sqs.send_message(QueueUrl=url, MessageBody="order 1")
        first = sqs.receive_message(QueueUrl=url)["Messages"]
        self.assertEqual([m["Body"] for m in first], ["order 1"])
        self.assertNotIn("Messages", sqs.receive_message(QueueUrl=url))    # in flight for 30 s
        self.relaydesk.advance(29)
        self.assertNotIn("Messages", sqs.receive_message(QueueUrl=url))
        self.relaydesk.advance(1)
        again = sqs.receive_message(QueueUrl=url, AttributeNames=["ApproximateReceiveCount"])["Messages"]
        self.assertEqual([(m["Body"], m["Attributes"]["ApproximateReceiveCount"]) for m in again], [("order 1", "2")])

    def test_sns_fans_out_to_an_sqs_queue(self):
        sns, sqs = self.client("sns", self.relaydesk.sns_endpoint()), self.client("sqs", self.relaydesk.sqs_endpoint())
        url = sqs.create_queue(QueueName="audit")["QueueUrl"]
        arn = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
        topic = sns.create_topic(Name="events")["TopicArn"]
        sns.subscribe(TopicArn=topic, Protocol="sqs", Endpoint=arn, Attributes={"RawMessageDelivery": "true"})
        sns.publish(TopicArn=topic, Message="event 1")
        self.assertEqual([m["Body"] for m in sqs.receive_message(QueueUrl=url)["Messages"]], ["event 1"])

    def test_zaqar_posts_and_lists(self):
        headers = {"Content-Type": "application/json", "Client-ID": str(uuid.uuid4())}

        def call(method, path, body=None):
            request = urllib.request.Request(self.relaydesk.zaqar_endpoint() + path, method=method, headers=headers,
                                             data=None if body is None else json.dumps(body).encode())
            with urllib.request.urlopen(request, timeout=30) as reply:
                text = reply.read()
                return reply.status, json.loads(text) if text else None

        call("PUT", "/v2/queues/jobs", {})
        self.assertEqual(call("POST", "/v2/queues/jobs/messages", {"messages": [{"body": {"job": 1}}]})[0], 201)
        status, listed = call("GET", "/v2/queues/jobs/messages?echo=true")
        self.assertEqual((status, [m["body"] for m in listed["messages"]]), (200, [{"job": 1}]))

    def test_the_servicebus_connection_string_names_an_amqp_port(self):
        parts = dict(part.split("=", 1) for part in self.relaydesk.servicebus_connection_string().split(";"))
        self.assertEqual(parts["UseDevelopmentEmulator"], "true")
        host, port = parts["Endpoint"].removeprefix("sb://").split(":")
        with socket.create_connection((host, int(port)), timeout=30) as amqp:
            amqp.sendall(b"AMQP\x03\x01\x00\x00")      # the SASL layer's protocol header
            self.assertEqual(amqp.recv(8), b"AMQP\x03\x01\x00\x00")

    def test_advance_needs_the_virtual_clock(self):
        with self.assertRaisesRegex(ValueError, "clock=\"virtual\""):
            RelaydeskContainer(clock="real").advance(1)


if __name__ == "__main__":
    unittest.main()
