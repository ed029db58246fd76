# SPDX-License-Identifier: MIT
"""Mock endpoints are part of the user's set-up (docs/behaviour.md §4.7), end to end
with boto3 against `relaydesk serve --db FILE --clock virtual --jitter 0`:

- a mock made through /api/v1/mocks outlives a stop — SIGTERM or SIGKILL — and
  a restart on the same database, with its script and its place in it, and a
  publish to a subscription made before the stop reaches it;
- config export → import into another broker → export round-trips the mocks;
  a mock that does not parse refuses the whole document;
- a delivery to /_mock/NAME that does not exist is logged in words
  ("mock endpoint NAME does not exist"), in JSON and CSV.
RELAYDESK_BINARY names the binary."""
import csv
import io
import json
import os
import signal
import tempfile
import unittest
import urllib.error
import urllib.parse
import urllib.request

import botocore

from relaydesk_harness import RelaydeskServer, binary_from_environment

BINARY = binary_from_environment()
# One retry at once, then none: an attempt and its retry happen within one clock advance.
POLICY = {"healthyRetryPolicy": {"numRetries": 1, "numNoDelayRetries": 1, "minDelayTarget": 1,
                                 "maxDelayTarget": 1, "numMinDelayRetries": 0, "numMaxDelayRetries": 0,
                                 "backoffFunction": "linear"}}


class MockScenarios(unittest.TestCase):
    def start(self, database=":memory:", port="0"):
        # The last --port given counts: a restart keeps the port, so subscribed mock URLs stay right.
        return RelaydeskServer(BINARY, "--jitter", "0", "--auto-confirm", "--port", port,
                               database=database).__enter__()

    def stop(self, server, how):
        if how == "SIGKILL":
            server.process.kill()
            server.process.wait(timeout=30)
            server.process.stdout.close()
            server.process.stderr.close()
        else:
            server.__exit__(None, None, None)

    def subscribe(self, server, topic_name, endpoint):
        sns = server.client("sns")
        topic = sns.create_topic(Name=topic_name)["TopicArn"]
        arn = sns.subscribe(TopicArn=topic, Protocol="http", Endpoint=endpoint,
                            ReturnSubscriptionArn=True)["SubscriptionArn"]
        sns.set_subscription_attributes(SubscriptionArn=arn, AttributeName="DeliveryPolicy",
                                        AttributeValue=json.dumps(POLICY))
        return topic, arn

    def attempts(self, server, arn, **extra):
        status, reply = server.api("GET", "/attempts?" + urllib.parse.urlencode({"subscriptionArn": arn, **extra}))
        self.assertEqual(status, 200, reply)
        return reply["attempts"]

    def call_mock(self, server, name):
        """One POST to the mock itself, as any client sends it; its status."""
        request = urllib.request.Request(server.endpoint + "/_mock/" + name, data=b"{}", method="POST")
        try:
            with urllib.request.urlopen(request, timeout=60) as reply:
                return reply.status
        except urllib.error.HTTPError as error:
            return error.code

    def test_restart_keepsMocksWithTheirPlace_andAPublishReachesThem(self):
        for how in ("SIGTERM", "SIGKILL"):
            with self.subTest(stop=how), tempfile.TemporaryDirectory() as folder:
                database = os.path.join(folder, "relaydesk.db")
                server = self.start(database)
                try:
                    status, mock = server.api("PUT", "/mocks/hook", {"script": "503 x 2, then 200"})
                    self.assertEqual(status, 200, mock)
                    _, arn = self.subscribe(server, "orders", mock["url"])
                    self.assertEqual(self.call_mock(server, "hook"), 503)  # the first step is taken
                    # An acknowledged change commits after everything before it, the mock's place included.
                    self.assertEqual(server.api("PUT", "/mocks/marker", {"script": "204"})[0], 200)
                    port = urllib.parse.urlsplit(server.endpoint).port
                finally:
                    self.stop(server, how)

                server = self.start(database, str(port))
                try:
                    status, listed = server.api("GET", "/mocks")
                    self.assertEqual(status, 200, listed)
                    self.assertEqual([(m["name"], m["script"], m["requestCount"]) for m in listed["mocks"]],
                                     [("hook", "503 x 2, then 200", 1), ("marker", "204", 0)])
                    self.assertEqual(listed["mocks"][0]["url"], server.endpoint + "/_mock/hook")
                    message_id = server.client("sns").publish(TopicArn=arn.rsplit(":", 1)[0],
                                                              Message="after the restart")["MessageId"]
                    server.advance(0)  # the first attempt and its retry at once
                    attempts = self.attempts(server, arn, messageId=message_id)
                    # The script goes on where it was: its second 503, then 200.
                    self.assertEqual([(a["httpStatus"], a["outcome"], a["final"]) for a in attempts],
                                     [(503, "retryable", None), (200, "delivered", "delivered")])
                    status, received = server.api("GET", "/mocks/hook/requests")
                    self.assertEqual(status, 200, received)
                    self.assertEqual([r["answer"]["status"] for r in received["requests"]], [503, 200])
                    self.assertEqual(json.loads(received["requests"][-1]["body"])["MessageId"], message_id)
                finally:
                    self.stop(server, "SIGTERM")

    def test_deletedMock_staysDeletedAfterRestart(self):
        with tempfile.TemporaryDirectory() as folder:
            database = os.path.join(folder, "relaydesk.db")
            server = self.start(database)
            try:
                server.api("PUT", "/mocks/gone", {"script": "200"})
                self.assertEqual(server.api("DELETE", "/mocks/gone")[0], 200)
            finally:
                self.stop(server, "SIGKILL")
            server = self.start(database)
            try:
                self.assertEqual(server.api("GET", "/mocks")[1], {"mocks": []})
            finally:
                self.stop(server, "SIGTERM")

    def test_config_exportImport_roundTripsMocks(self):
        source = self.start()
        try:
            for name, script in (("b-hook", "429 always"), ("a-hook", "503 × 5, then 200")):
                self.assertEqual(source.api("PUT", "/mocks/" + name, {"script": script})[0], 200)
            status, document = source.api("GET", "/config")
            self.assertEqual(status, 200, document)
        finally:
            self.stop(source, "SIGTERM")
        self.assertEqual(document["mocks"], [{"name": "a-hook", "script": "503 × 5, then 200"},
                                             {"name": "b-hook", "script": "429 always"}])

        target = self.start()
        try:
            self.assertEqual(target.api("POST", "/config", document), (200, {"created": 2, "changed": 0, "deleted": 0}))
            self.assertEqual(target.api("GET", "/config"), (200, document))
            status, listed = target.api("GET", "/mocks")
            self.assertEqual([(m["name"], m["script"], m["requestCount"]) for m in listed["mocks"]],
                             [("a-hook", "503 × 5, then 200", 0), ("b-hook", "429 always", 0)])
            self.assertEqual(self.call_mock(target, "a-hook"), 503)  # served at once
            # Applying it again changes nothing: a-hook goes on where it was.
            self.assertEqual(target.api("POST", "/config", document), (200, {"created": 0, "changed": 0, "deleted": 0}))
            self.assertEqual(target.api("GET", "/mocks/a-hook")[1]["requestCount"], 1)
            changed = dict(document, mocks=[{"name": "a-hook", "script": "200"}])
            self.assertEqual(target.api("POST", "/config", changed), (200, {"created": 0, "changed": 1, "deleted": 0}))
            self.assertEqual(target.api("GET", "/mocks/a-hook")[1]["requestCount"], 0)  # a new script starts afresh
            self.assertEqual(self.call_mock(target, "a-hook"), 200)
        finally:
            self.stop(target, "SIGTERM")

    def test_config_badMock_refusesTheWholeDocument(self):
        server = self.start()
        try:
            cases = [
                ({"name": "hook", "script": "503 x 5, then"}, "mocks[0] (hook): mock script: "),
                ({"name": "no spaces", "script": "200"}, "mocks[0] (no spaces): mock endpoint name: "),
                ({"name": "hook"}, "mocks[0]: \"script\" is required"),
                ({"name": "hook", "script": "200", "delay": 1}, "mocks[0].delay: unknown key"),
            ]
            for mock, message in cases:
                with self.subTest(mock=mock):
                    status, error = server.api("POST", "/config", {"queues": [{"name": "not-made"}], "mocks": [mock]})
                    self.assertEqual((status, error["error"]), (400, "InvalidParameterValue"), error)
                    self.assertTrue(error["message"].startswith(message), error["message"])
            twice = [{"name": "hook", "script": "200"}, {"name": "hook", "script": "503"}]
            status, error = server.api("POST", "/config", {"mocks": twice})
            self.assertEqual((status, error["message"]), (400, "mocks[1] (hook): name: declared twice"))
            self.assertEqual(server.api("GET", "/mocks")[1], {"mocks": []})
            self.assertEqual(server.client("sqs").list_queues().get("QueueUrls", []), [])
        finally:
            self.stop(server, "SIGTERM")

    def test_missingMock_attemptSaysSoInWords(self):
        server = self.start()
        try:
            _, arn = self.subscribe(server, "lost", server.endpoint + "/_mock/ghost")
            message_id = server.client("sns").publish(TopicArn=arn.rsplit(":", 1)[0], Message="to nobody")["MessageId"]
            server.advance(0)
            attempts = self.attempts(server, arn, messageId=message_id)
            self.assertEqual([(a["httpStatus"], a["outcome"], a["final"], a["error"]) for a in attempts],
                             [(404, "permanent", "discarded", "mock endpoint ghost does not exist")])
            status, _ = server.api("GET", "/attempts?" + urllib.parse.urlencode({"subscriptionArn": arn}))
            self.assertEqual(status, 200)
            with urllib.request.urlopen(server.endpoint + "/api/v1/attempts?" + urllib.parse.urlencode(
                    {"subscriptionArn": arn, "format": "csv"}), timeout=60) as reply:
                rows = list(csv.DictReader(io.StringIO(reply.read().decode())))
            self.assertEqual([row["error"] for row in rows], ["mock endpoint ghost does not exist"])
            # A mock that exists answers 404 as its script says: no words added.
            server.api("PUT", "/mocks/says-404", {"script": "404"})
            _, scripted = self.subscribe(server, "scripted", server.endpoint + "/_mock/says-404")
            server.client("sns").publish(TopicArn=scripted.rsplit(":", 1)[0], Message="to a 404")
            server.advance(0)
            self.assertEqual([(a["httpStatus"], a["error"]) for a in self.attempts(server, scripted)], [(404, None)])
        finally:
            self.stop(server, "SIGTERM")


if __name__ == "__main__":
    print("boto3 with botocore", botocore.__version__)
    unittest.main(verbosity=2)
