# SPDX-License-Identifier: MIT
"""SNS end to end with boto3 against `relaydesk serve` (virtual clock):
topics, fan-out to SQS (raw and envelope) with a filter policy, delivery
policies and their errors. SNS is the query protocol in every boto3."""
import json
import unittest
import urllib.request

from botocore.exceptions import ClientError

from delivery_scenarios import verify_signature
from relaydesk_harness import RelaydeskServer, binary_from_environment

BINARY = binary_from_environment()


class SnsScenarios(unittest.TestCase):
    def setUp(self):
        self.server = RelaydeskServer(BINARY).__enter__()
        self.sns = self.server.client("sns")
        self.sqs = self.server.client("sqs")

    def tearDown(self):
        self.server.__exit__(None, None, None)

    def queue(self, name):
        url = self.sqs.create_queue(QueueName=name)["QueueUrl"]
        arn = self.sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
        return url, arn

    def bodies(self, url):
        reply = self.sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10, MessageAttributeNames=["All"])
        return reply.get("Messages", [])

    def test_fanOut_rawAndEnvelope_withFilterPolicy(self):
        topic = self.sns.create_topic(Name="orders")["TopicArn"]
        raw_url, raw_arn = self.queue("raw")
        wrapped_url, wrapped_arn = self.queue("wrapped")
        self.sns.subscribe(TopicArn=topic, Protocol="sqs", Endpoint=raw_arn,
                           Attributes={"RawMessageDelivery": "true",
                                       "FilterPolicy": json.dumps({"kind": ["paid"]})})
        self.sns.subscribe(TopicArn=topic, Protocol="sqs", Endpoint=wrapped_arn)
        self.sns.publish(TopicArn=topic, Message="first", Subject="s",
                         MessageAttributes={"kind": {"DataType": "String", "StringValue": "paid"}})
        self.sns.publish(TopicArn=topic, Message="second",
                         MessageAttributes={"kind": {"DataType": "String", "StringValue": "refunded"}})
        raw = self.bodies(raw_url)
        self.assertEqual([m["Body"] for m in raw], ["first"])
        self.assertEqual(raw[0]["MessageAttributes"]["kind"]["StringValue"], "paid")
        envelopes = [json.loads(m["Body"]) for m in self.bodies(wrapped_url)]
        self.assertEqual(sorted(e["Message"] for e in envelopes), ["first", "second"])
        first = next(e for e in envelopes if e["Message"] == "first")
        self.assertEqual((first["Type"], first["TopicArn"], first["Subject"]), ("Notification", topic, "s"))
        self.assertEqual(first["MessageAttributes"]["kind"], {"Type": "String", "Value": "paid"})
        # Signed as AWS signs them: consumers that verify SNS signatures on SQS messages pass.
        certificate = urllib.request.urlopen(first["SigningCertURL"], timeout=60).read()
        for envelope in envelopes:
            verify_signature(envelope, certificate)
        with self.assertRaises(Exception):
            verify_signature(dict(first, Message="refunded"), certificate)

    def test_subscriptionAttributes_effectiveDeliveryPolicy(self):
        topic = self.sns.create_topic(Name="hooks")["TopicArn"]
        arn = self.sns.subscribe(TopicArn=topic, Protocol="http", Endpoint="http://127.0.0.1:9/hook",
                                 ReturnSubscriptionArn=True)["SubscriptionArn"]
        policy = {"healthyRetryPolicy": {"numRetries": 5, "minDelayTarget": 2, "maxDelayTarget": 30,
                                         "backoffFunction": "linear"}}
        self.sns.set_subscription_attributes(SubscriptionArn=arn, AttributeName="DeliveryPolicy",
                                             AttributeValue=json.dumps(policy))
        attributes = self.sns.get_subscription_attributes(SubscriptionArn=arn)["Attributes"]
        self.assertEqual(json.loads(attributes["DeliveryPolicy"]), policy)
        # In the shape AWS returns it: the topic form, for the subscription's protocol.
        effective = json.loads(attributes["EffectiveDeliveryPolicy"])["http"]["defaultHealthyRetryPolicy"]
        self.assertEqual((effective["numRetries"], effective["minDelayTarget"], effective["maxDelayTarget"]), (5, 2, 30))
        self.assertEqual(effective["backoffFunction"], "linear")
        self.assertEqual(attributes["PendingConfirmation"], "true")

    def test_subscribe_refusesMetadataLinkLocalAndOwnApi(self):
        """No HTTP subscriber at link-local or metadata addresses, "this
        network" or the broker's own API; loopback, private ranges, the own
        mock endpoints and user info (AWS's basic authentication) stay."""
        topic = self.sns.create_topic(Name="guarded")["TopicArn"]
        own = self.server.endpoint
        for endpoint in ("http://169.254.169.254/latest/meta-data/", "http://metadata.google.internal/",
                         "http://[fe80::1]/", "http://0/", "http://0xa9.254.169.254/", own + "/api/v1/queues",
                         own + "/?Action=Publish"):
            with self.assertRaises(ClientError) as caught:
                self.sns.subscribe(TopicArn=topic, Protocol=endpoint.split(":")[0], Endpoint=endpoint)
            error = caught.exception.response["Error"]
            self.assertEqual(error["Code"], "InvalidParameter", endpoint)
            self.assertTrue(error["Message"].startswith("Invalid parameter: Endpoint Reason: "), error["Message"])
        self.assertEqual(self.sns.list_subscriptions_by_topic(TopicArn=topic)["Subscriptions"], [])
        for endpoint in ("http://127.0.0.1:9/hook", "http://10.0.0.7/hook", own + "/_mock/hook",
                         "https://user:secret@192.168.1.9/hook"):
            self.sns.subscribe(TopicArn=topic, Protocol=endpoint.split(":")[0], Endpoint=endpoint)
        self.assertEqual(len(self.sns.list_subscriptions_by_topic(TopicArn=topic)["Subscriptions"]), 4)

    def test_invalidDeliveryPolicy_refusedNamingTheField(self):
        topic = self.sns.create_topic(Name="strict")["TopicArn"]
        bad = {"http": {"defaultHealthyRetryPolicy": {"numRetries": 101, "minDelayTarget": 1, "maxDelayTarget": 2}}}
        with self.assertRaises(ClientError) as caught:
            self.sns.set_topic_attributes(TopicArn=topic, AttributeName="DeliveryPolicy",
                                          AttributeValue=json.dumps(bad))
        error = caught.exception.response["Error"]
        self.assertEqual(error["Code"], "InvalidParameter")
        self.assertTrue(error["Message"].startswith("Invalid parameter: Attributes Reason: DeliveryPolicy: "),
                        error["Message"])
        self.assertIn("numRetries", error["Message"])
        attributes = self.sns.get_topic_attributes(TopicArn=topic)["Attributes"]
        self.assertNotIn("DeliveryPolicy", attributes)

    def test_topics_listTagsDeleteAndNotFound(self):
        arns = [self.sns.create_topic(Name="t%d" % i, Tags=[{"Key": "n", "Value": str(i)}])["TopicArn"]
                for i in range(3)]
        listed = [t["TopicArn"] for t in self.sns.list_topics()["Topics"]]
        self.assertEqual(sorted(listed), sorted(arns))
        self.assertEqual(self.sns.list_tags_for_resource(ResourceArn=arns[1])["Tags"], [{"Key": "n", "Value": "1"}])
        self.sns.delete_topic(TopicArn=arns[0])
        with self.assertRaises(ClientError) as caught:
            self.sns.get_topic_attributes(TopicArn=arns[0])
        self.assertEqual(caught.exception.response["Error"]["Code"], "NotFound")

    def test_publishBatch_andFifoTopicToFifoQueue(self):
        topic = self.sns.create_topic(Name="events.fifo", Attributes={
            "FifoTopic": "true", "ContentBasedDeduplication": "true"})["TopicArn"]
        url = self.sqs.create_queue(QueueName="events.fifo", Attributes={"FifoQueue": "true"})["QueueUrl"]
        arn = self.sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
        self.sns.subscribe(TopicArn=topic, Protocol="sqs", Endpoint=arn, Attributes={"RawMessageDelivery": "true"})
        reply = self.sns.publish_batch(TopicArn=topic, PublishBatchRequestEntries=[
            {"Id": "a", "Message": "one", "MessageGroupId": "g"},
            {"Id": "b", "Message": "two", "MessageGroupId": "g"},
            {"Id": "c", "Message": "three"}])
        self.assertEqual(sorted(e["Id"] for e in reply["Successful"]), ["a", "b"])
        self.assertEqual([e["Id"] for e in reply["Failed"]], ["c"])
        self.assertEqual([m["Body"] for m in self.bodies(url)], ["one", "two"])


if __name__ == "__main__":
    unittest.main(verbosity=2)
