# SPDX-License-Identifier: MIT
"""The engine's metrics end to end: boto3 sends, receives and
deletes, publishes to topics whose HTTP subscriptions are mock endpoints
scripted to fail, under `relaydesk serve --clock virtual` advanced through the
native clock API; then GET /metrics is parsed with Debian's
python3-prometheus-client (a parser this project did not write) and every
counter and gauge must be what the test did; GET /api/v1/metrics gives the
same counts and its 5-minute window drops them once the clock moved on 7
minutes."""
import json
import unittest
import urllib.error
import urllib.request

from prometheus_client.parser import text_string_to_metric_families

from relaydesk_harness import RelaydeskServer, binary_from_environment

BINARY = binary_from_environment()


def immediate_retries(count):
    """A delivery policy of `count` retries without delay (all at one clock time)."""
    return {"healthyRetryPolicy": {"numRetries": count, "numNoDelayRetries": count,
                                   "minDelayTarget": 1, "maxDelayTarget": 1}}


def samples(text):
    """{(sample name, ((label, value), …)): value} of Prometheus text, as its own parser reads it."""
    found = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            found[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return found


class MetricsScenarios(unittest.TestCase):
    def setUp(self):
        self.server = RelaydeskServer(BINARY, "--jitter", "0", "--auto-confirm").__enter__()
        self.addCleanup(self.server.__exit__, None, None, None)
        self.sqs = self.server.client("sqs")
        self.sns = self.server.client("sns")

    def get(self, path, method="GET"):
        request = urllib.request.Request(self.server.endpoint + path, method=method)
        try:
            with urllib.request.urlopen(request, timeout=60) as reply:
                return reply.status, reply.headers, reply.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.headers, error.read().decode()

    def topic_with_mock(self, topic, script, retries, extra=None):
        status, mock = self.server.api("PUT", "/mocks/" + topic, {"script": script})
        self.assertEqual(status, 200, mock)
        arn = self.sns.create_topic(Name=topic)["TopicArn"]
        subscription = self.sns.subscribe(TopicArn=arn, Protocol="http", Endpoint=mock["url"],
                                          ReturnSubscriptionArn=True)["SubscriptionArn"]
        attributes = {"DeliveryPolicy": json.dumps(immediate_retries(retries)), **(extra or {})}
        for name, value in attributes.items():
            self.sns.set_subscription_attributes(SubscriptionArn=subscription, AttributeName=name,
                                                 AttributeValue=value)
        return arn

    def test_prometheusParserReadsWhatWasDone_jsonWindowsFollowTheClock(self):
        # Queues: 5 sent (3 single, a batch of 2), 3 received and kept locked, 2 deleted.
        work = self.sqs.create_queue(QueueName="work")["QueueUrl"]
        for i in range(3):
            self.sqs.send_message(QueueUrl=work, MessageBody="job %d" % i)
        self.sqs.send_message_batch(QueueUrl=work, Entries=[{"Id": "a", "MessageBody": "a"},
                                                            {"Id": "b", "MessageBody": "b"}])
        received = self.sqs.receive_message(QueueUrl=work, MaxNumberOfMessages=3, VisibilityTimeout=3600)["Messages"]
        self.assertEqual(len(received), 3)
        for message in received[:2]:
            self.sqs.delete_message(QueueUrl=work, ReceiptHandle=message["ReceiptHandle"])

        # Topics: "alerts" fans out to a queue and reaches a mock failing 3 times;
        # "doomed" always fails into a dead-letter queue; "rejects" refuses (400)
        # two messages; "severed" drops the connection.
        dead = self.sqs.create_queue(QueueName="dead")["QueueUrl"]
        dead_arn = self.sqs.get_queue_attributes(QueueUrl=dead, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
        fanned = self.sqs.create_queue(QueueName="fanned")["QueueUrl"]
        fanned_arn = self.sqs.get_queue_attributes(QueueUrl=fanned, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
        # A queue's own redrive: received once, the next receive moves it to "dead".
        retry = self.sqs.create_queue(QueueName="retry", Attributes={"RedrivePolicy": json.dumps(
            {"deadLetterTargetArn": dead_arn, "maxReceiveCount": 1})})["QueueUrl"]
        self.sqs.send_message(QueueUrl=retry, MessageBody="poison")
        self.assertEqual(len(self.sqs.receive_message(QueueUrl=retry, VisibilityTimeout=0)["Messages"]), 1)
        self.assertNotIn("Messages", self.sqs.receive_message(QueueUrl=retry))
        alerts = self.topic_with_mock("alerts", "503 x 3, then 200", 4)
        self.sns.subscribe(TopicArn=alerts, Protocol="sqs", Endpoint=fanned_arn)
        doomed = self.topic_with_mock("doomed", "503 always", 2,
                                      {"RedrivePolicy": json.dumps({"deadLetterTargetArn": dead_arn})})
        rejects = self.topic_with_mock("rejects", "400 always", 3)
        severed = self.topic_with_mock("severed", "close always", 1)
        self.sns.publish(TopicArn=alerts, Message="disk full")
        self.sns.publish(TopicArn=doomed, Message="lost")
        for i in range(2):
            self.sns.publish(TopicArn=rejects, Message="bad %d" % i)
        self.sns.publish(TopicArn=severed, Message="cut")
        self.server.advance(0)
        self.server.advance(60)

        status, headers, text = self.get("/metrics")
        self.assertEqual(status, 200)
        self.assertTrue(headers["Content-Type"].startswith("text/plain; version=0.0.4"), headers["Content-Type"])
        got = samples(text)

        def value(name, **labels):
            return got.get((name, tuple(sorted(labels.items()))))

        expected_queues = {
            # queue: (sent, received, deleted, available, in flight, delayed, dead-lettered)
            "work": (5, 3, 2, 2, 1, 0, 0),
            "fanned": (1, 0, 0, 1, 0, 0, 0),
            "retry": (1, 1, 0, 0, 0, 0, 0),
            # both dead letters count: the queue's (max receives) and the SNS
            # subscription's (the envelope of "lost", its retries exhausted)
            "dead": (0, 0, 0, 2, 0, 0, 2),
        }
        for queue, (sent, received_count, deleted, available, in_flight, delayed, dead_lettered) in expected_queues.items():
            with self.subTest(queue=queue):
                self.assertEqual(value("relaydesk_queue_messages_sent_total", queue=queue), sent)
                self.assertEqual(value("relaydesk_queue_messages_received_total", queue=queue), received_count)
                self.assertEqual(value("relaydesk_queue_messages_deleted_total", queue=queue), deleted)
                self.assertEqual(value("relaydesk_queue_messages_available", queue=queue), available)
                self.assertEqual(value("relaydesk_queue_messages_in_flight", queue=queue), in_flight)
                self.assertEqual(value("relaydesk_queue_messages_delayed", queue=queue), delayed)
                self.assertEqual(value("relaydesk_queue_messages_dead_lettered", queue=queue), dead_lettered)

        expected_topics = {
            # topic: (published, {attempt outcome: count}, {final: count})
            "alerts": (1, {"retryable": 3, "delivered": 1}, {"delivered": 1}),
            "doomed": (1, {"retryable": 3}, {"deadLettered": 1}),
            "rejects": (2, {"permanent": 2}, {"discarded": 2}),
            "severed": (1, {"connectionError": 2}, {"discarded": 1}),
        }
        outcomes = ["delivered", "retryable", "permanent", "timeout", "connectionError", "throttled-wait"]
        for topic, (published, attempts, ends) in expected_topics.items():
            with self.subTest(topic=topic):
                self.assertEqual(value("relaydesk_topic_messages_published_total", topic=topic), published)
                for outcome in outcomes:
                    self.assertEqual(value("relaydesk_topic_delivery_attempts_total", topic=topic, outcome=outcome),
                                     attempts.get(outcome, 0), outcome)
                for final in ["delivered", "deadLettered", "discarded"]:
                    self.assertEqual(value("relaydesk_topic_deliveries_ended_total", topic=topic, final=final),
                                     ends.get(final, 0), final)

        # The JSON form: the same counts, and the rate windows of clock time.
        status, metrics = self.server.api("GET", "/metrics")
        self.assertEqual(status, 200, metrics)
        self.assertEqual(metrics["windowsMinutes"], [5, 15, 60])
        self.assertEqual(metrics["totals"]["sent"], {"total": 7, "last5m": 7, "last15m": 7, "last60m": 7})
        self.assertEqual(metrics["totals"]["retryable"]["total"], 6)
        self.assertEqual(metrics["totals"]["discarded"]["total"], 3)
        self.assertEqual(metrics["depths"], {"available": 5, "inFlight": 1, "delayed": 0, "scheduled": 0,
                                             "deadLettered": 2})   # both of queue "dead"
        self.assertEqual([q["name"] for q in metrics["queues"]], ["dead", "fanned", "retry", "work"])
        self.assertEqual([t["name"] for t in metrics["topics"]], ["alerts", "doomed", "rejects", "severed"])
        self.server.advance(7 * 60)
        status, later = self.server.api("GET", "/metrics?queue=work")
        self.assertEqual(later["totals"]["sent"], {"total": 7, "last5m": 0, "last15m": 7, "last60m": 7})
        self.assertEqual([q["name"] for q in later["queues"]], ["work"])
        self.assertEqual(later["queues"][0]["counters"]["received"], {"total": 3, "last5m": 0, "last15m": 3,
                                                                     "last60m": 3})
        self.assertEqual(later["topics"], [])

        # A deleted queue's series goes; the totals keep its counts.
        self.sqs.delete_queue(QueueUrl=fanned)
        status, headers, text = self.get("/metrics")
        self.assertNotIn('queue="fanned"', text)
        self.assertEqual(self.server.api("GET", "/metrics")[1]["totals"]["sent"]["total"], 7)

    def test_methods(self):
        status, headers, body = self.get("/metrics", "HEAD")
        self.assertEqual((status, body), (200, ""))
        self.assertTrue(headers["Content-Type"].startswith("text/plain; version=0.0.4"))
        status, headers, body = self.get("/metrics", "POST")
        self.assertEqual(status, 405)
        self.assertEqual(json.loads(body)["error"], "MethodNotAllowed")
        status, reply = self.server.api("DELETE", "/metrics")
        self.assertEqual((status, reply["error"]), (405, "MethodNotAllowed"))
        status, metrics = self.server.api("GET", "/metrics")
        self.assertEqual((metrics["queues"], metrics["topics"]), ([], []))


if __name__ == "__main__":
    unittest.main(verbosity=2)
