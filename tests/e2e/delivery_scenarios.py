# SPDX-License-Identifier: MIT
"""SNS → HTTP delivery end to end with boto3 against `relaydesk serve`
(virtual clock, --jitter 0): confirmation through the SubscribeURL (and
--auto-confirm), an https endpoint with a self-signed certificate trusted
through --ca-file, retries by the subscription's DeliveryPolicy observed in
GET /api/v1/attempts while the test advances the clock, real signatures
checked with the certificate at SigningCertURL, mock endpoints (docs/behaviour.md §4.7),
the dead-letter queue of an always-failing endpoint, and the error answers
of the native /attempts and /mocks resources."""
import base64
import csv
import datetime
import io
import json
import os
import ssl
import subprocess
import tempfile
import threading
import unittest
import urllib.parse
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from cryptography import x509
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding

from relaydesk_harness import RelaydeskServer, binary_from_environment

BINARY = binary_from_environment()
WAIT = 30  # seconds (wall) to wait for something the broker does on its own

# numRetries 4: initial, 1 immediate, 1 preBackoff (10 s), backoff 10 s then 40 s.
POLICY = {"healthyRetryPolicy": {"numRetries": 4, "numNoDelayRetries": 1, "minDelayTarget": 10,
                                 "maxDelayTarget": 40, "numMinDelayRetries": 1, "numMaxDelayRetries": 0,
                                 "backoffFunction": "linear"}}
PLAN = [(0, "initial"), (0, "immediate"), (10, "preBackoff"), (20, "backoff"), (60, "backoff")]


def self_signed_localhost(folder):
    """A self-signed certificate for localhost and its key, as PEM files."""
    certificate, key = os.path.join(folder, "localhost.pem"), os.path.join(folder, "localhost.key")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost",
                    "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", "-days", "1",
                    "-keyout", key, "-out", certificate], check=True, capture_output=True)
    return certificate, key


def iso_seconds(text):
    return datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").timestamp()


def verify_signature(envelope, certificate_pem):
    """Checks an SNS envelope's signature the way a subscriber does."""
    if envelope["Type"] == "Notification":
        keys = ["Message", "MessageId"] + (["Subject"] if "Subject" in envelope else []) + \
               ["Timestamp", "TopicArn", "Type"]
    else:
        keys = ["Message", "MessageId", "SubscribeURL", "Timestamp", "Token", "TopicArn", "Type"]
    canonical = "".join("%s\n%s\n" % (key, envelope[key]) for key in keys).encode()
    digest = hashes.SHA1() if envelope["SignatureVersion"] == "1" else hashes.SHA256()
    key = x509.load_pem_x509_certificate(certificate_pem).public_key()
    key.verify(base64.b64decode(envelope["Signature"]), canonical, padding.PKCS1v15(), digest)


class Endpoint:
    """A subscriber on a thread: answers 503 to the first `failures`
    notifications, then 200; confirms a SubscriptionConfirmation by GETting
    its SubscribeURL after answering it."""

    def __init__(self, failures, confirm=True, tls=None):
        """tls: (certificate file, key file) to answer https on localhost."""
        self.failures = failures
        self.confirm = confirm
        self.received = []          # (headers dict, parsed body)
        self.confirmed = threading.Event()
        self.unsubscribed = threading.Event()
        self.lock = threading.Lock()
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
                kind = self.headers.get("x-amz-sns-message-type")
                with endpoint.lock:
                    endpoint.received.append((dict(self.headers), body))
                    notifications = sum(1 for h, _ in endpoint.received
                                        if h.get("x-amz-sns-message-type") == "Notification")
                status = 503 if kind == "Notification" and notifications <= endpoint.failures else 200
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()
                self.wfile.flush()
                if kind == "SubscriptionConfirmation" and endpoint.confirm:
                    urllib.request.urlopen(body["SubscribeURL"], timeout=WAIT).read()
                    endpoint.confirmed.set()
                if kind == "UnsubscribeConfirmation":
                    endpoint.unsubscribed.set()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = "http://127.0.0.1:%d/hook" % self.server.server_port
        if tls:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(*tls)
            self.server.socket = context.wrap_socket(self.server.socket, server_side=True)
            self.url = "https://localhost:%d/hook" % self.server.server_port
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def of_type(self, kind):
        with self.lock:
            return [(h, b) for h, b in self.received if h.get("x-amz-sns-message-type") == kind]

    def close(self):
        self.server.shutdown()
        self.server.server_close()


class DeliveryScenarios(unittest.TestCase):
    def start(self, *args):
        self.server = RelaydeskServer(BINARY, "--jitter", "0", *args).__enter__()
        self.addCleanup(self.server.__exit__, None, None, None)
        self.sns = self.server.client("sns")
        self.sqs = self.server.client("sqs")

    def attempts(self, arn, **extra):
        query = urllib.parse.urlencode({"subscriptionArn": arn, **extra})
        status, reply = self.server.api("GET", "/attempts?" + query)
        self.assertEqual(status, 200, reply)
        return reply["attempts"]

    def notification_attempts(self, arn, message_id):
        return self.attempts(arn, messageId=message_id)

    def subscribe_with_policy(self, topic, endpoint, attributes=None):
        protocol = endpoint.split(":")[0]
        arn = self.sns.subscribe(TopicArn=topic, Protocol=protocol, Endpoint=endpoint,
                                 ReturnSubscriptionArn=True)["SubscriptionArn"]
        self.sns.set_subscription_attributes(SubscriptionArn=arn, AttributeName="DeliveryPolicy",
                                             AttributeValue=json.dumps(POLICY))
        for name, value in (attributes or {}).items():
            self.sns.set_subscription_attributes(SubscriptionArn=arn, AttributeName=name, AttributeValue=value)
        return arn

    def confirmed_subscription(self, failures):
        """A topic "orders" and a confirmed subscription (POLICY) of an Endpoint(failures)."""
        endpoint = Endpoint(failures=failures)
        self.addCleanup(endpoint.close)
        topic = self.sns.create_topic(Name="orders")["TopicArn"]
        arn = self.subscribe_with_policy(topic, endpoint.url)
        self.server.advance(0)
        self.assertTrue(endpoint.confirmed.wait(WAIT), "no SubscriptionConfirmation came")
        return endpoint, topic, arn

    def check_retries(self, arn, message_id, failures):
        """Advances the clock through PLAN, checking each attempt when it is due."""
        self.server.advance(0)
        expected = 0
        now = 0
        for offset, _ in PLAN[:failures + 1]:
            if offset > now:
                self.server.advance(offset - now - 1)
                self.assertEqual(len(self.notification_attempts(arn, message_id)), expected,
                                 "an attempt before its planned time")
                self.server.advance(1)
                now = offset
            expected += 1
            self.assertGreaterEqual(len(self.notification_attempts(arn, message_id)), expected)
        attempts = self.notification_attempts(arn, message_id)
        self.assertEqual(len(attempts), failures + 1)
        start = iso_seconds(attempts[0]["plannedAt"])
        for number, (entry, (offset, phase)) in enumerate(zip(attempts, PLAN)):
            self.assertEqual(entry["attempt"], number)
            self.assertEqual(entry["phase"], phase)
            self.assertEqual(entry["subscriptionArn"], arn)
            self.assertAlmostEqual(iso_seconds(entry["plannedAt"]) - start, offset, places=2)
            self.assertEqual(entry["startedAt"], entry["plannedAt"])
            last = number == failures
            self.assertEqual(entry["httpStatus"], 200 if last else 503)
            self.assertEqual(entry["outcome"], "delivered" if last else "retryable")
            self.assertEqual(entry["final"], "delivered" if last else None)
        return attempts

    def test_subscribeUrlConfirmation_retriesByPolicy_deliveredAndSigned(self):
        self.start()
        endpoint, topic, arn = self.confirmed_subscription(failures=4)
        confirmation = endpoint.of_type("SubscriptionConfirmation")[0][1]
        self.assertEqual(confirmation["TopicArn"], topic)
        attributes = self.sns.get_subscription_attributes(SubscriptionArn=arn)["Attributes"]
        self.assertEqual(attributes["PendingConfirmation"], "false")
        effective = json.loads(attributes["EffectiveDeliveryPolicy"])
        self.assertEqual(effective["http"]["defaultHealthyRetryPolicy"]["numRetries"], 4)

        message_id = self.sns.publish(TopicArn=topic, Message="paid", Subject="order 7")["MessageId"]
        self.check_retries(arn, message_id, failures=4)

        notifications = endpoint.of_type("Notification")
        self.assertEqual(len(notifications), 5)
        self.assertEqual({h["x-amz-sns-message-id"] for h, _ in notifications}, {message_id})
        headers, envelope = notifications[-1]
        self.assertEqual(headers["x-amz-sns-subscription-arn"], arn)
        self.assertEqual((envelope["Message"], envelope["Subject"], envelope["MessageId"]),
                         ("paid", "order 7", message_id))
        certificate = urllib.request.urlopen(envelope["SigningCertURL"], timeout=WAIT).read()
        self.assertTrue(certificate.startswith(b"-----BEGIN CERTIFICATE-----"))
        verify_signature(envelope, certificate)
        verify_signature(confirmation, certificate)
        tampered = dict(envelope, Message="refunded")
        with self.assertRaises(Exception):
            verify_signature(tampered, certificate)

        urllib.request.urlopen(envelope["UnsubscribeURL"], timeout=WAIT).read()
        self.assertTrue(endpoint.unsubscribed.wait(WAIT), "no UnsubscribeConfirmation came")
        topics_subscriptions = self.sns.list_subscriptions_by_topic(TopicArn=topic)["Subscriptions"]
        self.assertEqual(topics_subscriptions, [])

    def test_mockEndpoint_autoConfirm_retriesThenDelivered(self):
        self.start("--auto-confirm")
        status, mock = self.server.api("PUT", "/mocks/hook", {"script": "503 x 2, then 200"})
        self.assertEqual(status, 200, mock)
        self.assertEqual(mock["url"], self.server.endpoint + "/_mock/hook")
        topic = self.sns.create_topic(Name="mocked")["TopicArn"]
        arn = self.subscribe_with_policy(topic, mock["url"])
        attributes = self.sns.get_subscription_attributes(SubscriptionArn=arn)["Attributes"]
        self.assertEqual(attributes["PendingConfirmation"], "false")
        self.assertEqual(json.loads(attributes["EffectiveDeliveryPolicy"])["http"]["defaultHealthyRetryPolicy"]["minDelayTarget"], 10)

        message_id = self.sns.publish(TopicArn=topic, Message="hello")["MessageId"]
        self.check_retries(arn, message_id, failures=2)
        status, received = self.server.api("GET", "/mocks/hook/requests")
        self.assertEqual(status, 200, received)
        requests = received["requests"]
        self.assertEqual([r["answer"]["status"] for r in requests], [503, 503, 200])
        headers = {h["name"].lower(): h["value"] for h in requests[0]["headers"]}
        self.assertEqual(headers["x-amz-sns-message-type"], "Notification")
        self.assertEqual(json.loads(requests[-1]["body"])["MessageId"], message_id)
        status, listed = self.server.api("GET", "/mocks")
        self.assertEqual(listed["mocks"][0]["requestCount"], 3)
        self.assertEqual(self.server.api("DELETE", "/mocks/hook")[0], 200)
        self.assertEqual(self.server.api("GET", "/mocks")[1], {"mocks": []})

    def always_failing_with_dead_letter_queue(self, attributes=None):
        """A topic "doomed" whose subscription (POLICY, auto-confirmed) is the
        mock "down" answering 503 always, with the dead-letter queue
        "hook-dlq"; the subscription's other `attributes` as given.
        Returns (topic ARN, subscription ARN, DLQ URL)."""
        self.start("--auto-confirm")
        self.server.api("PUT", "/mocks/down", {"script": "503 always"})
        dlq_url = self.sqs.create_queue(QueueName="hook-dlq")["QueueUrl"]
        dlq_arn = self.sqs.get_queue_attributes(QueueUrl=dlq_url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
        topic = self.sns.create_topic(Name="doomed")["TopicArn"]
        arn = self.subscribe_with_policy(topic, self.server.endpoint + "/_mock/down",
                                         {"RedrivePolicy": json.dumps({"deadLetterTargetArn": dlq_arn}),
                                          **(attributes or {})})
        return topic, arn, dlq_url

    def test_alwaysFailing_withRedrivePolicy_deadLetterQueueHoldsEnvelope(self):
        topic, arn, dlq_url = self.always_failing_with_dead_letter_queue()
        message_id = self.sns.publish(TopicArn=topic, Message="lost?")["MessageId"]
        self.server.advance(0)
        self.server.advance(60)
        attempts = self.notification_attempts(arn, message_id)
        self.assertEqual([a["httpStatus"] for a in attempts], [503] * 5)
        self.assertEqual([a["final"] for a in attempts], [None] * 4 + ["deadLettered"])
        messages = self.sqs.receive_message(QueueUrl=dlq_url, MaxNumberOfMessages=10).get("Messages", [])
        self.assertEqual(len(messages), 1)
        envelope = json.loads(messages[0]["Body"])
        self.assertEqual((envelope["Type"], envelope["MessageId"], envelope["Message"]),
                         ("Notification", message_id, "lost?"))

    def test_rawDelivery_retriesRunOut_deadLetterIsTheBareMessageWithItsAttributes(self):
        # docs/behaviour.md §4.2: raw: the bare message, with the original attributes as queue message attributes.
        topic, arn, dlq_url = self.always_failing_with_dead_letter_queue({"RawMessageDelivery": "true"})
        attributes = {"colour": {"DataType": "String", "StringValue": "blue"},
                      "count": {"DataType": "Number", "StringValue": "42"},
                      "blob": {"DataType": "Binary", "BinaryValue": b"\x00\x01\xfe"}}
        message_id = self.sns.publish(TopicArn=topic, Message="bare body", MessageAttributes=attributes)["MessageId"]
        self.server.advance(0)
        self.server.advance(60)
        attempts = self.notification_attempts(arn, message_id)
        self.assertEqual([a["httpStatus"] for a in attempts], [503] * 5)   # every attempt of POLICY: retries ran out
        self.assertEqual(attempts[-1]["final"], "deadLettered")
        messages = self.sqs.receive_message(QueueUrl=dlq_url, MaxNumberOfMessages=10, MessageAttributeNames=["All"],
                                            AttributeNames=["All"]).get("Messages", [])
        self.assertEqual(len(messages), 1)
        self.assertEqual(messages[0]["Body"], "bare body")
        self.assertEqual(messages[0]["MessageAttributes"], {
            "colour": {"DataType": "String", "StringValue": "blue"},
            "count": {"DataType": "Number", "StringValue": "42"},
            "blob": {"DataType": "Binary", "BinaryValue": b"\x00\x01\xfe"}})
        status, browsed = self.server.api("GET", "/queues/hook-dlq/messages")
        self.assertEqual(status, 200, browsed)
        self.assertEqual(browsed["messages"][0]["deadLetterReason"], "DeliveryRetriesExhausted")

    def test_statusBeyond599_retriedUnderZaqar_permanentUnderSns(self):
        # docs/behaviour.md §4.2: a status outside 200–599 is retryable in the Zaqar dialect, permanent in SNS's.
        self.start("--auto-confirm")
        topic = self.sns.create_topic(Name="odd-status")["TopicArn"]
        policies = {
            "zaqar": {"_retry_policy": {"retries_with_no_delay": 2, "minimum_delay_retries": 0, "minimum_delay": 5,
                                        "maximum_delay": 10, "maximum_delay_retries": 0}},
            "sns": POLICY,
        }
        arns = {}
        for dialect, policy in policies.items():
            status, mock = self.server.api("PUT", "/mocks/" + dialect, {"script": "600 x 2, then 200"})
            self.assertEqual(status, 200, mock)
            arns[dialect] = self.sns.subscribe(TopicArn=topic, Protocol="http", Endpoint=mock["url"],
                                               ReturnSubscriptionArn=True)["SubscriptionArn"]
            self.sns.set_subscription_attributes(SubscriptionArn=arns[dialect], AttributeName="DeliveryPolicy",
                                                 AttributeValue=json.dumps(policy))
        message_id = self.sns.publish(TopicArn=topic, Message="odd")["MessageId"]
        self.server.advance(0)   # the first attempt and the immediate retries
        zaqar = self.notification_attempts(arns["zaqar"], message_id)
        self.assertEqual([(a["httpStatus"], a["outcome"], a["final"]) for a in zaqar],
                         [(600, "retryable", None), (600, "retryable", None), (200, "delivered", "delivered")])
        sns = self.notification_attempts(arns["sns"], message_id)
        self.assertEqual([(a["httpStatus"], a["outcome"], a["final"]) for a in sns], [(600, "permanent", "discarded")])
        status, received = self.server.api("GET", "/mocks/zaqar/requests")
        self.assertEqual([r["answer"]["status"] for r in received["requests"]], [600, 600, 200])

    def test_httpsEndpoint_selfSigned_trustedOnlyThroughCaFile(self):
        folder = tempfile.mkdtemp()
        self.addCleanup(subprocess.run, ["rm", "-rf", folder])
        tls = self_signed_localhost(folder)
        endpoint = Endpoint(failures=0, tls=tls)
        self.addCleanup(endpoint.close)

        self.start("--auto-confirm")   # no --ca-file: the certificate is not trusted
        topic = self.sns.create_topic(Name="secure")["TopicArn"]
        arn = self.subscribe_with_policy(topic, endpoint.url)
        message_id = self.sns.publish(TopicArn=topic, Message="untrusted")["MessageId"]
        self.server.advance(0)
        first = self.notification_attempts(arn, message_id)[0]
        self.assertEqual((first["outcome"], first["httpStatus"], first["errorKind"]),
                         ("connectionError", None, "connectionError"))
        self.assertEqual(endpoint.of_type("Notification"), [])

        self.start("--auto-confirm", "--ca-file", tls[0])   # a second broker, trusting it
        topic = self.sns.create_topic(Name="secure")["TopicArn"]
        arn = self.subscribe_with_policy(topic, endpoint.url)
        message_id = self.sns.publish(TopicArn=topic, Message="trusted")["MessageId"]
        self.server.advance(0)
        attempts = self.notification_attempts(arn, message_id)
        self.assertEqual([(a["outcome"], a["httpStatus"], a["final"]) for a in attempts],
                         [("delivered", 200, "delivered")])
        headers, envelope = endpoint.of_type("Notification")[0]
        self.assertEqual((envelope["MessageId"], envelope["Message"]), (message_id, "trusted"))

    def test_attemptFilters_csvExport_andRedeliver(self):
        self.start()
        endpoint, topic, arn = self.confirmed_subscription(failures=4)
        message_id = self.sns.publish(TopicArn=topic, Message="paid, \"twice\"\nreally")["MessageId"]
        self.check_retries(arn, message_id, failures=4)

        for query, count in [({"statusClass": "5xx"}, 4), ({"statusClass": "2xx"}, 1), ({"outcome": "delivered"}, 1),
                             ({"phase": "backoff"}, 2), ({"kind": "notification"}, 5),
                             ({"order": "newest", "limit": "2"}, 2)]:
            with self.subTest(query=query):
                self.assertEqual(len(self.attempts(arn, messageId=message_id, **query)), count)
        newest = self.attempts(arn, messageId=message_id, order="newest", limit="1")[0]
        self.assertEqual((newest["attempt"], newest["final"]), (4, "delivered"))
        older = self.attempts(arn, messageId=message_id, order="newest", beforeId=str(newest["id"]))
        self.assertEqual([entry["attempt"] for entry in older], [3, 2, 1, 0])

        # The CSV export, read back by Python's csv module, is the JSON's rows.
        url = self.server.endpoint + "/api/v1/attempts?" + urllib.parse.urlencode(
            {"subscriptionArn": arn, "format": "csv"})
        with urllib.request.urlopen(url, timeout=WAIT) as reply:
            self.assertTrue(reply.headers["Content-Type"].startswith("text/csv"))
            rows = list(csv.DictReader(io.StringIO(reply.read().decode(), newline="")))
        entries = self.attempts(arn)
        self.assertEqual(len(rows), len(entries))
        for row, entry in zip(rows, entries):
            for key, value in row.items():
                expected = entry[key]
                self.assertEqual(value, "" if expected is None else str(expected), key)

        # The timeline: the attempts against the policy's plan (no jitter here), delivered.
        timeline_path = "/attempts/timeline?" + urllib.parse.urlencode({"subscriptionArn": arn, "messageId": message_id})
        status, timeline = self.server.api("GET", timeline_path)
        self.assertEqual(status, 200, timeline)
        self.assertEqual((timeline["messageId"], timeline["redeliverable"]), (message_id, True))
        [delivery] = timeline["deliveries"]
        self.assertEqual((delivery["redelivery"], delivery["end"], delivery["nextAttemptAt"]), (0, "delivered", None))
        self.assertEqual([(p["attempt"], p["phase"]) for p in delivery["schedule"]],
                         [(number, phase) for number, (_, phase) in enumerate(PLAN)])
        start = iso_seconds(delivery["schedule"][0]["at"])
        for planned, (offset, _) in zip(delivery["schedule"], PLAN):
            self.assertAlmostEqual(iso_seconds(planned["at"]) - start, offset, places=2)
        logged = self.notification_attempts(arn, message_id)
        self.assertEqual([(a["attempt"], a["scheduledAt"], a["jitterMs"], a["throttleWaitMs"])
                          for a in delivery["attempts"]],
                         [(a["attempt"], a["startedAt"], 0, 0) for a in logged])

        status, started = self.server.api("POST", "/attempts/redeliver", {"subscriptionArn": arn,
                                                                          "messageId": message_id})
        self.assertEqual(status, 200, started)
        self.assertEqual((started["messageId"], started["redelivery"]), (message_id, 1))
        # (The refusal while it is pending is engine_attempt_log_service_test's: here the
        # redelivery, due now, may already be done.)
        self.server.advance(0)
        again = self.attempts(arn, messageId=message_id, afterId=str(newest["id"]))
        self.assertEqual([(e["attempt"], e["redelivery"], e["final"]) for e in again], [(0, 1, "delivered")])
        headers, envelope = endpoint.of_type("Notification")[-1]
        self.assertEqual((envelope["MessageId"], envelope["Message"]), (message_id, "paid, \"twice\"\nreally"))
        status, timeline = self.server.api("GET", timeline_path)
        self.assertEqual([(d["redelivery"], d["end"], len(d["attempts"])) for d in timeline["deliveries"]],
                         [(0, "delivered", 5), (1, "delivered", 1)])

    def test_nativeErrors_answeredInTheNativeShape(self):
        self.start()
        cases = [
            ("GET", "/attempts?kind=bogus", None, 400, "InvalidParameterValue"),
            ("GET", "/attempts?subscriptionArn=x", None, 400, "InvalidParameterValue"),
            ("GET", "/attempts?topicArn=arn:aws:sns:us-east-1:000000000000:a&subscriptionArn=x", None, 400,
             "InvalidParameterValue"),
            ("GET", "/attempts?subscriptionArn=arn:aws:sns:us-east-1:000000000000:none:"
                    "6f1b2c3d-0000-4000-8000-000000000000", None, 404, "NotFound"),
            ("GET", "/attempts?topicArn=arn:aws:sns:us-east-1:000000000000:none", None, 404, "NotFound"),
            ("GET", "/attempts?subscriptionArn=x&limit=0", None, 400, "InvalidParameterValue"),
            ("GET", "/attempts?subscriptionArn=x&limit=many", None, 400, "InvalidParameterValue"),
            ("GET", "/attempts?limit=%205", None, 400, "InvalidParameterValue"),
            ("GET", "/attempts?limit=%2B5", None, 400, "InvalidParameterValue"),
            ("GET", "/attempts?afterId=%207", None, 400, "InvalidParameterValue"),
            ("GET", "/attempts?subscriptionArn=x&since=yesterday", None, 400, "InvalidParameterValue"),
            ("GET", "/attempts?subscriptionArn=x&until=tomorrow", None, 400, "InvalidParameterValue"),
            ("POST", "/attempts?subscriptionArn=x", {}, 405, "MethodNotAllowed"),
            ("GET", "/attempts?outcome=fine", None, 400, "InvalidParameterValue"),
            ("GET", "/attempts?phase=later", None, 400, "InvalidParameterValue"),
            ("GET", "/attempts?statusClass=6xx", None, 400, "InvalidParameterValue"),
            ("GET", "/attempts?afterId=-1", None, 400, "InvalidParameterValue"),
            ("GET", "/attempts?beforeId=x", None, 400, "InvalidParameterValue"),
            ("GET", "/attempts?order=sideways", None, 400, "InvalidParameterValue"),
            ("GET", "/attempts?format=xml", None, 400, "InvalidParameterValue"),
            ("GET", "/attempts/redeliver", None, 405, "MethodNotAllowed"),
            ("GET", "/attempts/timeline", None, 400, "InvalidParameterValue"),
            ("GET", "/attempts/timeline?messageId=m", None, 400, "InvalidParameterValue"),
            ("GET", "/attempts/timeline?subscriptionArn=x&messageId=m", None, 400, "InvalidParameterValue"),
            ("GET", "/attempts/timeline?subscriptionArn=arn:aws:sns:us-east-1:000000000000:none:"
                    "6f1b2c3d-0000-4000-8000-000000000000&messageId=m", None, 404, "NotFound"),
            ("POST", "/attempts/timeline", {}, 405, "MethodNotAllowed"),
            ("GET", "/attempts/later", None, 404, "NotFound"),
            ("POST", "/attempts/redeliver", {"messageId": "m"}, 400, "InvalidParameterValue"),
            ("POST", "/attempts/redeliver", {"subscriptionArn": "arn:aws:sns:us-east-1:000000000000:none:"
                                             "6f1b2c3d-0000-4000-8000-000000000000", "messageId": "m"}, 404, "NotFound"),
            ("PUT", "/mocks/bad", {"script": "503 x 5, then"}, 400, "InvalidParameterValue"),
            ("PUT", "/mocks/bad", {}, 400, "InvalidParameterValue"),
            ("PUT", "/mocks/no%20spaces", {"script": "200"}, 400, "InvalidParameterValue"),
            ("GET", "/mocks/ghost", None, 404, "NotFound"),
            ("GET", "/mocks/ghost/requests", None, 404, "NotFound"),
            ("DELETE", "/mocks/ghost", None, 404, "NotFound"),
            ("POST", "/mocks", {}, 405, "MethodNotAllowed"),
        ]
        for method, path, body, status, code in cases:
            with self.subTest(method=method, path=path):
                got, reply = self.server.api(method, path, body)
                self.assertEqual((got, reply.get("error")), (status, code), reply)
        status, reply = self.server.api("PUT", "/mocks/bad", {"script": "503 x 5, then"})
        self.assertIn("character 14", reply["message"])
        self.assertEqual(self.server.api("GET", "/attempts")[1], {"attempts": [], "more": False})   # none yet
        status, certificate = self.server.api("GET", "/signing-certificate")
        self.assertEqual(status, 200)
        pem = urllib.request.urlopen(certificate["url"], timeout=WAIT).read().decode()
        self.assertEqual(certificate["certificatePem"], pem)
        with self.assertRaises(urllib.error.HTTPError) as missing:
            urllib.request.urlopen(self.server.endpoint + "/_mock/ghost", data=b"{}", timeout=WAIT)
        self.assertEqual(missing.exception.code, 404)


if __name__ == "__main__":
    unittest.main()
