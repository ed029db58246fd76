# SPDX-License-Identifier: MIT
"""Region, account and URLs as clients meet them, with boto3 against
`relaydesk serve` (virtual clock): a client in eu-west-1 against
`--region eu-west-1 --account …` gets ARNs it can build itself, and when it
connects as `localhost`, queue URLs under `localhost`; `--bind 0.0.0.0`
hands out no 0.0.0.0 URL; `--advertised-url` is the base of every URL (queue
URLs, SubscribeURL, SigningCertURL, UnsubscribeURL); GET /health; errors that
say what to do; the attempt log's kinds, its `confirmed` end and its queries by
topic and across subscriptions."""
import json
import unittest
import urllib.parse
import urllib.request

import boto3
from botocore.config import Config
from botocore.exceptions import ClientError

from relaydesk_harness import RelaydeskServer, binary_from_environment

BINARY = binary_from_environment()
ACCOUNT = "123456789012"


def client(service, endpoint, region="us-east-1"):
    return boto3.client(service, endpoint_url=endpoint, region_name=region,
                        aws_access_key_id="test", aws_secret_access_key="test",
                        config=Config(retries={"max_attempts": 1}))


def port_of(endpoint):
    return urllib.parse.urlsplit(endpoint).port


def get_json(url):
    try:
        with urllib.request.urlopen(url, timeout=60) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


class IdentityScenarios(unittest.TestCase):
    def start(self, *args):
        server = RelaydeskServer(BINARY, "--jitter", "0", *args).__enter__()
        self.addCleanup(server.__exit__, None, None, None)
        return server

    def mock_requests(self, server, name):
        status, received = server.api("GET", "/mocks/%s/requests" % name)
        self.assertEqual(status, 200, received)
        return [json.loads(request["body"]) for request in received["requests"]]

    def test_regionAndAccount_clientBuiltArnsFound(self):
        server = self.start("--region", "eu-west-1", "--account", ACCOUNT)
        sns = client("sns", server.endpoint, "eu-west-1")
        sqs = client("sqs", server.endpoint, "eu-west-1")
        topic_arn = sns.create_topic(Name="events")["TopicArn"]
        self.assertEqual(topic_arn, "arn:aws:sns:eu-west-1:%s:events" % ACCOUNT)
        url = sqs.create_queue(QueueName="orders")["QueueUrl"]
        self.assertTrue(url.endswith("/%s/orders" % ACCOUNT), url)
        queue_arn = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
        self.assertEqual(queue_arn, "arn:aws:sqs:eu-west-1:%s:orders" % ACCOUNT)
        # ARNs the client builds from its own region and account.
        built_topic = "arn:aws:sns:%s:%s:events" % (sns.meta.region_name, ACCOUNT)
        built_queue = "arn:aws:sqs:%s:%s:orders" % (sqs.meta.region_name, ACCOUNT)
        self.assertEqual(sns.get_topic_attributes(TopicArn=built_topic)["Attributes"]["TopicArn"], built_topic)
        subscription = sns.subscribe(TopicArn=built_topic, Protocol="sqs", Endpoint=built_queue,
                                     ReturnSubscriptionArn=True)["SubscriptionArn"]
        self.assertTrue(subscription.startswith(built_topic + ":"), subscription)
        sns.publish(TopicArn=built_topic, Message="hello")
        received = sqs.receive_message(QueueUrl=url, WaitTimeSeconds=0)["Messages"]
        self.assertEqual(json.loads(received[0]["Body"])["TopicArn"], built_topic)
        # The signed region does not select another one: an ARN of us-east-1 is not here, and says so.
        with self.assertRaises(ClientError) as other:
            sns.get_topic_attributes(TopicArn="arn:aws:sns:us-east-1:%s:events" % ACCOUNT)
        self.assertEqual(other.exception.response["Error"]["Code"], "NotFound")
        self.assertIn("this broker is region eu-west-1", other.exception.response["Error"]["Message"])
        status, health = get_json(server.endpoint + "/health")
        self.assertEqual(status, 200, health)
        self.assertEqual((health["status"], health["region"], health["account"]), ("ready", "eu-west-1", ACCOUNT))
        self.assertEqual(health["clock"]["mode"], "virtual")
        self.assertEqual(health["database"], ":memory:")

    def test_clientInEuWest1ThroughLocalhost_getsUrlsAndArnsItCanUse(self):
        # The case whole: a client configured for eu-west-1 that reaches the broker
        # by another name than the one it listens on.
        server = self.start("--region", "eu-west-1", "--account", ACCOUNT)
        port = port_of(server.endpoint)
        through_name = client("sqs", "http://localhost:%d" % port, "eu-west-1")
        sns_through_name = client("sns", "http://localhost:%d" % port, "eu-west-1")
        through_address = client("sqs", "http://127.0.0.1:%d" % port, "eu-west-1")
        url = through_name.create_queue(QueueName="jobs")["QueueUrl"]
        self.assertEqual(url, "http://localhost:%d/%s/jobs" % (port, ACCOUNT))
        self.assertEqual(through_name.get_queue_url(QueueName="jobs")["QueueUrl"], url)
        self.assertEqual(through_name.list_queues()["QueueUrls"], [url])
        self.assertEqual(through_address.get_queue_url(QueueName="jobs")["QueueUrl"],
                         "http://127.0.0.1:%d/%s/jobs" % (port, ACCOUNT))
        through_name.send_message(QueueUrl=url, MessageBody="reachable")   # the URL works as given
        self.assertEqual(through_name.receive_message(QueueUrl=url)["Messages"][0]["Body"], "reachable")
        # The ARNs it builds from its own region and account are the broker's.
        queue_arn = "arn:aws:sqs:eu-west-1:%s:jobs" % ACCOUNT
        self.assertEqual(through_name.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])
                         ["Attributes"]["QueueArn"], queue_arn)
        topic_arn = sns_through_name.create_topic(Name="events")["TopicArn"]
        self.assertEqual(topic_arn, "arn:aws:sns:eu-west-1:%s:events" % ACCOUNT)
        sns_through_name.subscribe(TopicArn=topic_arn, Protocol="sqs", Endpoint=queue_arn,
                                   Attributes={"RawMessageDelivery": "true"})
        sns_through_name.publish(TopicArn=topic_arn, Message="fanned out")
        bodies = [m["Body"] for m in through_name.receive_message(QueueUrl=url, MaxNumberOfMessages=10)["Messages"]]
        self.assertEqual(bodies, ["fanned out"])

    def test_bindAnyAddress_handsOutNoWildcardUrl(self):
        server = self.start("--bind", "0.0.0.0")
        self.assertNotIn("0.0.0.0", server.endpoint)
        port = port_of(server.endpoint)
        sqs = client("sqs", server.endpoint)
        sns = client("sns", server.endpoint)
        self.assertNotIn("0.0.0.0", sqs.create_queue(QueueName="jobs")["QueueUrl"])
        status, mock = server.api("PUT", "/mocks/hook", {"script": "200"})
        self.assertEqual(status, 200, mock)
        topic = sns.create_topic(Name="events")["TopicArn"]
        sns.subscribe(TopicArn=topic, Protocol="http", Endpoint=mock["url"])
        server.advance(0)
        [confirmation] = self.mock_requests(server, "hook")
        for key in ("SubscribeURL", "SigningCertURL"):
            self.assertTrue(confirmation[key].startswith("http://127.0.0.1:%d/" % port), confirmation[key])
        urllib.request.urlopen(confirmation["SubscribeURL"], timeout=60).read()   # usable as given
        urllib.request.urlopen(confirmation["SigningCertURL"], timeout=60).read()

    def test_advertisedUrl_baseOfEveryUrl(self):
        advertised = "http://broker.example:4566"
        server = self.start("--advertised-url", advertised + "/")
        port = port_of(server.endpoint)   # the ready line: where it listens
        local = "http://127.0.0.1:%d" % port
        sqs = client("sqs", local)
        sns = client("sns", local)
        url = sqs.create_queue(QueueName="jobs")["QueueUrl"]
        self.assertEqual(url, advertised + "/000000000000/jobs")
        sqs.send_message(QueueUrl=url, MessageBody="still mine")   # any host is accepted in a QueueUrl
        self.assertEqual(sqs.receive_message(QueueUrl=url)["Messages"][0]["Body"], "still mine")
        status, mock = get_json_put(local + "/api/v1/mocks/hook", {"script": "200"})
        self.assertEqual(status, 200, mock)
        topic = sns.create_topic(Name="events")["TopicArn"]
        sns.subscribe(TopicArn=topic, Protocol="http", Endpoint=local + "/_mock/hook",
                      Attributes={"RawMessageDelivery": "false"})
        urllib.request.urlopen(urllib.request.Request(local + "/api/v1/clock/advance", data=b'{"seconds": 0}',
                                                      method="POST", headers={"Content-Type": "application/json"}),
                               timeout=60).read()
        status, received = get_json(local + "/api/v1/mocks/hook/requests")
        confirmation = json.loads(received["requests"][0]["body"])
        self.assertTrue(confirmation["SubscribeURL"].startswith(advertised + "/?Action=ConfirmSubscription"))
        self.assertEqual(confirmation["SigningCertURL"], advertised + "/SimpleNotificationService.pem")
        status, health = get_json(local + "/health")
        self.assertEqual((status, health["endpoint"]), (200, advertised))

    def test_errors_sayWhatToDo(self):
        server = self.start()
        sqs = client("sqs", server.endpoint)
        sns = client("sns", server.endpoint)
        url = sqs.create_queue(QueueName="orders")["QueueUrl"]
        topic = sns.create_topic(Name="events")["TopicArn"]
        cases = [
            (lambda: sqs.create_queue(QueueName="jobs.fifo"), "InvalidParameterValue", "FifoQueue=true"),
            (lambda: sns.subscribe(TopicArn=topic, Protocol="sqs", Endpoint=url), "InvalidParameter",
             "use arn:aws:sqs:us-east-1:000000000000:orders"),
            (lambda: sns.subscribe(TopicArn=topic, Protocol="smtp", Endpoint="a@example.com"), "InvalidParameter",
             "http, https and sqs"),
            (lambda: sns.publish(TopicArn=topic + "-gone", Message="x"), "NotFound", "events-gone"),
            (lambda: sqs.get_queue_url(QueueName="absent"), None, "absent"),
        ]
        for call, code, text in cases:
            with self.subTest(text=text):
                with self.assertRaises(ClientError) as refused:
                    call()
                error = refused.exception.response["Error"]
                if code:
                    self.assertEqual(error["Code"], code)
                self.assertIn(text, error["Message"])
        self.assertEqual(sqs.list_queues()["QueueUrls"], [url])   # nothing created

    def test_attemptLog_kindsConfirmedTopicAndEverySubscription(self):
        server = self.start()
        sns = client("sns", server.endpoint)
        # Confirmations consume mock script steps: the confirmation gets the 500, the notification the 200.
        status, mock = server.api("PUT", "/mocks/hook", {"script": "500, then 200"})
        self.assertEqual(status, 200, mock)
        topic = sns.create_topic(Name="events")["TopicArn"]
        other = sns.create_topic(Name="events-eu")["TopicArn"]
        arn = sns.subscribe(TopicArn=topic, Protocol="http", Endpoint=mock["url"],
                            ReturnSubscriptionArn=True)["SubscriptionArn"]
        server.advance(0)
        [confirmation] = self.mock_requests(server, "hook")
        sns.confirm_subscription(TopicArn=topic, Token=confirmation["Token"])
        server.advance(60)   # the retry due at 20 s is not sent: the subscription is confirmed
        self.assertEqual(len(self.mock_requests(server, "hook")), 1)
        sns.publish(TopicArn=topic, Message="hello")
        server.advance(0)

        def attempts(**query):
            status, reply = server.api("GET", "/attempts?" + urllib.parse.urlencode(query))
            self.assertEqual(status, 200, reply)
            return [(entry["kind"], entry["httpStatus"], entry["final"]) for entry in reply["attempts"]]

        log = [("subscriptionConfirmation", 500, "confirmed"), ("notification", 200, "delivered")]
        self.assertEqual(attempts(subscriptionArn=arn), log)
        self.assertEqual(attempts(topicArn=topic), log)
        self.assertEqual(attempts(), log)
        self.assertEqual(attempts(kind="notification"), log[1:])
        self.assertEqual(attempts(topicArn=topic, kind="subscriptionConfirmation"), log[:1])
        self.assertEqual(attempts(topicArn=other), [])   # a topic of this broker without attempts
        sns.unsubscribe(SubscriptionArn=arn)
        server.advance(0)
        self.assertEqual(attempts(subscriptionArn=arn, kind="unsubscribeConfirmation")[0][0:2],
                         ("unsubscribeConfirmation", 200))
        self.assertEqual(attempts(subscriptionArn=arn)[:2], log)   # the log outlives the subscription
        status, reply = server.api("GET", "/attempts?" + urllib.parse.urlencode(
            {"subscriptionArn": topic + ":6f1b2c3d-0000-4000-8000-000000000000"}))
        self.assertEqual((status, reply["error"]), (404, "NotFound"))
        self.assertIn(topic, reply["message"])


def get_json_put(url, body):
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="PUT",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as reply:
        return reply.status, json.loads(reply.read())


if __name__ == "__main__":
    unittest.main()
