# SPDX-License-Identifier: MIT
"""`relaydesk serve --config FILE` end to end (docs/behaviour.md §8.3): the declared
queues, topics and subscriptions are there for boto3; a second start on the
same database with the same file changes nothing (GET /api/v1/config is
equal); a bad file is refused before the ready line, naming entity and
field, and leaves the database as it was; POST /api/v1/config applies a
document or answers 400 naming entity and field."""
import json
import os
import subprocess
import tempfile
import unittest

from relaydesk_harness import RelaydeskServer, binary_from_environment

BINARY = binary_from_environment()

CONFIG = {
    "version": 1,
    "queues": [
        {"name": "orders", "attributes": {
            "VisibilityTimeout": "45",
            "RedrivePolicy": {"deadLetterTargetArn": "arn:aws:sqs:us-east-1:000000000000:orders-dlq",
                              "maxReceiveCount": 5}},
         "tags": {"team": "shop"}},
        {"name": "orders-dlq"},
    ],
    "topics": [
        {"name": "events",
         "attributes": {"DeliveryPolicy": {"http": {"defaultHealthyRetryPolicy": {
             "minDelayTarget": 1, "maxDelayTarget": 60, "numRetries": 10, "numNoDelayRetries": 0,
             "numMinDelayRetries": 0, "numMaxDelayRetries": 0, "backoffFunction": "exponential"}}}},
         "subscriptions": [
             {"protocol": "sqs", "endpoint": "queue:orders",
              "attributes": {"RawMessageDelivery": "true", "FilterPolicy": {"kind": ["order"]}}}]},
    ],
}


class ConfigScenarios(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.db = os.path.join(self.dir.name, "broker.db")
        self.config = os.path.join(self.dir.name, "relaydesk.json")
        with open(self.config, "w") as file:
            json.dump(CONFIG, file)

    def tearDown(self):
        self.dir.cleanup()

    def start(self, config=None):
        return RelaydeskServer(BINARY, "--config", config or self.config, database=self.db)

    def test_serveConfig_declaresEntities_secondStartChangesNothing(self):
        with self.start() as server:
            sqs, sns = server.client("sqs"), server.client("sns")
            url = sqs.get_queue_url(QueueName="orders")["QueueUrl"]
            attributes = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["All"])["Attributes"]
            self.assertEqual(attributes["VisibilityTimeout"], "45")
            self.assertIn("orders-dlq", json.loads(attributes["RedrivePolicy"])["deadLetterTargetArn"])
            self.assertEqual(sqs.list_queue_tags(QueueUrl=url)["Tags"], {"team": "shop"})
            topic = "arn:aws:sns:us-east-1:000000000000:events"
            policy = json.loads(sns.get_topic_attributes(TopicArn=topic)["Attributes"]["DeliveryPolicy"])
            self.assertEqual(policy["http"]["defaultHealthyRetryPolicy"]["numRetries"], 10)
            subscriptions = sns.list_subscriptions_by_topic(TopicArn=topic)["Subscriptions"]
            self.assertEqual(len(subscriptions), 1)
            sub = sns.get_subscription_attributes(SubscriptionArn=subscriptions[0]["SubscriptionArn"])["Attributes"]
            self.assertEqual(json.loads(sub["FilterPolicy"]), {"kind": ["order"]})
            # Fan-out with the filter policy works on the declared entities.
            sns.publish(TopicArn=topic, Message="paid", MessageAttributes={
                "kind": {"DataType": "String", "StringValue": "order"}})
            self.assertEqual([m["Body"] for m in sqs.receive_message(QueueUrl=url)["Messages"]], ["paid"])
            status, first = server.api("GET", "/config")
            self.assertEqual(status, 200, first)
        with self.start() as server:
            status, second = server.api("GET", "/config")
            self.assertEqual(status, 200, second)
        self.assertEqual(second, first)
        self.assertEqual(first["topics"][0]["subscriptions"][0]["endpoint"], "queue:orders")

    def test_badConfig_refusedNamingEntityAndField_databaseUnchanged(self):
        with self.start() as server:
            _, before = server.api("GET", "/config")
        bad = os.path.join(self.dir.name, "bad.json")
        with open(bad, "w") as file:
            json.dump({"queues": [{"name": "new-one"}, {"name": "orders", "attributes": {"VisibilityTimeout": "50000"}}]},
                      file)
        run = subprocess.run([BINARY, "serve", "--port", "0", "--db", self.db, "--config", bad],
                             capture_output=True, text=True, timeout=60)
        self.assertEqual(run.returncode, 1, run.stderr)
        self.assertEqual(run.stdout, "")
        self.assertIn("queues[1] (orders): attributes.VisibilityTimeout:", run.stderr)
        with self.start() as server:
            _, after = server.api("GET", "/config")
        self.assertEqual(after, before)

    def test_postConfig_appliesOrAnswers400(self):
        with self.start() as server:
            status, answer = server.api("POST", "/config", CONFIG)
            self.assertEqual((status, answer), (200, {"created": 0, "changed": 0, "deleted": 0}))
            status, answer = server.api("POST", "/config", {"queues": [{"name": "extra"}],
                                                           "topics": [{"name": "t", "colour": "red"}]})
            self.assertEqual(status, 400, answer)
            self.assertEqual(answer["message"], "topics[0] (t): colour: unknown key")
            status, answer = server.api("POST", "/config", {"queues": [{"name": "extra"}],
                                                           "delete": {"topics": ["events"]}})
            self.assertEqual((status, answer), (200, {"created": 1, "changed": 0, "deleted": 1}))
            status, state = server.api("GET", "/config")
            self.assertEqual([q["name"] for q in state["queues"]], ["extra", "orders", "orders-dlq"])
            self.assertEqual(state["topics"], [])


if __name__ == "__main__":
    unittest.main()
