# SPDX-License-Identifier: MIT
"""The browser boundary through the real port (docs/behaviour.md §8.2.1).

A web page the developer visits can make the browser send requests to
127.0.0.1 without any CORS preflight: a text/plain or form POST (with the
page's Origin), a GET from an <img> tag (no Origin at all), and, through DNS
rebinding, any request under the page's own name (Host: evil.example). Each
attack is sent here with raw http.client the way a browser sends it, and
must be refused in the protocol's own error shape AND change or reveal
nothing; its legitimate twin (boto3, curl-like JSON, the same request from a
program) still works. No answer ever carries an Access-Control-Allow-* header.
"""
import http.client
import json
import unittest
import urllib.parse
import xml.etree.ElementTree as ElementTree

import boto3
from botocore.config import Config

from relaydesk_harness import RelaydeskServer, binary_from_environment

BINARY = binary_from_environment()
EVIL = "http://evil.example"
# What Chrome adds to a cross-site request; the broker decides on Host and Origin only.
BROWSER = {"User-Agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0 Safari/537.36",
           "Accept-Language": "en", "Sec-Fetch-Site": "cross-site", "Referer": EVIL + "/page.html"}


class Wire:
    """One request per call on a fresh connection, headers exactly as given
    (Host too: http.client's own is suppressed; host=False sends none). Every
    answer is checked for CORS grants."""

    def __init__(self, test, endpoint):
        parsed = urllib.parse.urlparse(endpoint)
        self.test, self.host, self.port = test, parsed.hostname, parsed.port
        self.own_host = "%s:%d" % (self.host, self.port)

    def send(self, method, path, body=None, headers=None, host=None):
        connection = http.client.HTTPConnection(self.host, self.port, timeout=60)
        try:
            connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
            if host is not False:
                connection.putheader("Host", host or self.own_host)
            for name, value in (headers or {}).items():
                connection.putheader(name, value)
            data = body.encode() if isinstance(body, str) else body
            if data is not None:
                connection.putheader("Content-Length", str(len(data)))
            connection.endheaders(data)
            reply = connection.getresponse()
            text = reply.read()
            granted = [name for name, _ in reply.getheaders() if name.lower().startswith("access-control-")]
            self.test.assertEqual(granted, [], "%s %s answered with CORS headers" % (method, path))
            return reply.status, dict((k.lower(), v) for k, v in reply.getheaders()), text
        finally:
            connection.close()


def sqs_client(endpoint):
    return boto3.client("sqs", endpoint_url=endpoint, region_name="us-east-1", aws_access_key_id="test",
                        aws_secret_access_key="test", config=Config(retries={"max_attempts": 1}))


def query_error(text):
    root = ElementTree.fromstring(text)
    namespace = root.tag[1:].split("}")[0] if root.tag.startswith("{") else ""
    code = next(e.text for e in root.iter() if e.tag.endswith("Code"))
    message = next(e.text for e in root.iter() if e.tag.endswith("Message"))
    return root.tag.split("}")[-1], namespace, code, message


class BrowserBoundaryScenarios(unittest.TestCase):
    def setUp(self):
        self.server = RelaydeskServer(BINARY).__enter__()
        self.addCleanup(self.server.__exit__, None, None, None)
        self.wire = Wire(self, self.server.endpoint)
        self.sqs = self.server.client("sqs")
        self.sns = self.server.client("sns")

    def queue_with(self, name, *bodies):
        url = self.sqs.create_queue(QueueName=name)["QueueUrl"]
        for body in bodies:
            self.sqs.send_message(QueueUrl=url, MessageBody=body)
        return url

    def depth(self, url):
        attributes = self.sqs.get_queue_attributes(
            QueueUrl=url, AttributeNames=["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"])
        return (int(attributes["Attributes"]["ApproximateNumberOfMessages"]),
                int(attributes["Attributes"]["ApproximateNumberOfMessagesNotVisible"]))

    # Attack 1: a text/plain POST to /api/v1/config (a form with enctype=text/plain, or fetch with mode no-cors).
    def test_textPlainConfigPost_fromAPage_refusedNothingSubscribed(self):
        topic = self.sns.create_topic(Name="events")["TopicArn"]
        before = self.server.api("GET", "/config")
        steal = json.dumps({"version": 1, "topics": [{"name": "events", "subscriptions": [
            {"protocol": "http", "endpoint": EVIL + "/collect"}]}]})
        headers = dict(BROWSER, **{"Content-Type": "text/plain;charset=UTF-8", "Origin": EVIL})
        status, _, text = self.wire.send("POST", "/api/v1/config", steal, headers)
        self.assertEqual(status, 403, text)
        self.assertEqual(json.loads(text)["error"], "AccessDenied")
        self.assertIn(EVIL, json.loads(text)["message"])
        # Without an Origin (an old browser, a program): text/plain is still no JSON.
        status, _, text = self.wire.send("POST", "/api/v1/config", steal, {"Content-Type": "text/plain"})
        self.assertEqual(status, 415, text)
        reply = json.loads(text)
        self.assertEqual(reply["error"], "UnsupportedMediaType")
        self.assertIn("Content-Type: application/json", reply["message"])
        self.assertEqual(self.sns.list_subscriptions_by_topic(TopicArn=topic)["Subscriptions"], [])
        self.assertEqual(self.server.api("GET", "/config"), before)
        # The twin: the same kind of document as JSON from a program applies.
        self.assertEqual(self.server.api("PUT", "/mocks/hook", {"script": "200"})[0], 200)
        mine = {"version": 1, "topics": [{"name": "events", "subscriptions": [
            {"protocol": "http", "endpoint": self.server.endpoint + "/_mock/hook"}]}]}
        status, reply = self.server.api("POST", "/config", mine)
        self.assertEqual(status, 200, reply)
        [subscription] = self.sns.list_subscriptions_by_topic(TopicArn=topic)["Subscriptions"]
        self.assertEqual(subscription["Endpoint"], self.server.endpoint + "/_mock/hook")

    # Attack 2: a form POST Action=PurgeQueue from a page (an auto-submitted <form>).
    def test_formPurgeQueue_fromAPage_refusedMessagesKept(self):
        url = self.queue_with("orders", "one", "two")
        form = urllib.parse.urlencode({"Action": "PurgeQueue", "QueueUrl": url})
        for origin in (EVIL, "null", "http://localhost:3000"):   # a page elsewhere, a sandboxed one, another local app
            headers = dict(BROWSER, **{"Content-Type": "application/x-www-form-urlencoded", "Origin": origin})
            status, _, text = self.wire.send("POST", "/", form, headers)
            self.assertEqual(status, 403, (origin, text))
            element, namespace, code, message = query_error(text)
            self.assertEqual((element, code), ("ErrorResponse", "AccessDenied"))
            self.assertEqual(namespace, "http://queue.amazonaws.com/doc/2012-11-05/")
            self.assertIn(origin, message)
        self.assertEqual(self.depth(url), (2, 0))
        # The same on the SNS protocol answers in the SNS shape.
        topic = self.sns.create_topic(Name="events")["TopicArn"]
        status, _, text = self.wire.send("POST", "/", urllib.parse.urlencode({"Action": "DeleteTopic", "TopicArn": topic}),
                                         {"Content-Type": "application/x-www-form-urlencoded", "Origin": EVIL})
        self.assertEqual(status, 403)
        self.assertEqual(query_error(text)[1], "http://sns.amazonaws.com/doc/2010-03-31/")
        self.assertEqual([t["TopicArn"] for t in self.sns.list_topics()["Topics"]], [topic])
        # And on the JSON protocol (a page needs a preflight for X-Amz-Target, but the Origin decides anyway).
        status, headers, text = self.wire.send("POST", "/", json.dumps({"QueueUrl": url}),
                                               {"X-Amz-Target": "AmazonSQS.PurgeQueue", "Origin": EVIL,
                                                "Content-Type": "application/x-amz-json-1.0"})
        self.assertEqual(status, 403)
        self.assertEqual(json.loads(text)["__type"], "com.amazonaws.sqs#AccessDenied")
        self.assertEqual(headers["x-amzn-query-error"], "AccessDenied;Sender")
        self.assertEqual(self.depth(url), (2, 0))
        # The twins: the broker's own origin, and boto3 (no Origin) purging.
        status, _, text = self.wire.send("POST", "/", urllib.parse.urlencode({"Action": "GetQueueUrl",
                                                                             "QueueName": "orders"}),
                                         {"Content-Type": "application/x-www-form-urlencoded",
                                          "Origin": "http://" + self.wire.own_host})
        self.assertEqual(status, 200, text)
        self.sqs.purge_queue(QueueUrl=url)
        self.assertEqual(self.depth(url), (0, 0))

    # Attack 3: GET /?Action=DeleteQueue, what <img src=...> sends (no Origin at all).
    def test_getDeleteQueue_imgTag_refusedQueueKept(self):
        url = self.queue_with("orders", "kept")
        path = urllib.parse.urlparse(url).path
        image = dict(BROWSER, **{"Accept": "image/avif,image/webp,*/*", "Sec-Fetch-Dest": "image"})
        for query in ({"Action": "DeleteQueue", "QueueUrl": url}, {"Action": "PurgeQueue"},
                      {"Action": "ReceiveMessage", "QueueUrl": url}, {"Action": "SendMessage", "MessageBody": "x"}):
            status, headers, text = self.wire.send("GET", path + "?" + urllib.parse.urlencode(query), None, image)
            self.assertEqual(status, 405, (query, text))
            self.assertEqual(headers["allow"], "POST")
            _, namespace, code, message = query_error(text)
            self.assertEqual((namespace, code), ("http://queue.amazonaws.com/doc/2012-11-05/", "MethodNotAllowed"))
            self.assertIn("POST", message)
        topic = self.sns.create_topic(Name="events")["TopicArn"]
        status, _, text = self.wire.send("GET", "/?" + urllib.parse.urlencode({"Action": "DeleteTopic",
                                                                               "TopicArn": topic}), None, image)
        self.assertEqual((status, query_error(text)[1]), (405, "http://sns.amazonaws.com/doc/2010-03-31/"))
        self.assertEqual(self.sqs.list_queues()["QueueUrls"], [url])
        self.assertEqual([t["TopicArn"] for t in self.sns.list_topics()["Topics"]], [topic])
        self.assertEqual(self.depth(url), (1, 0))   # not received, not purged, nothing sent
        # The twins: read-only actions by GET, as AWS takes them.
        for query in ({"Action": "ListQueues"}, {"Action": "GetQueueUrl", "QueueName": "orders"},
                      {"Action": "GetQueueAttributes", "QueueUrl": url, "AttributeName.1": "All"},
                      {"Action": "ListTopics"}):
            status, _, text = self.wire.send("GET", "/?" + urllib.parse.urlencode(query))
            self.assertEqual(status, 200, (query, text))
        self.sqs.delete_queue(QueueUrl=url)   # by POST, as every SDK sends it
        self.assertEqual(self.sqs.list_queues().get("QueueUrls", []), [])

    # Attack 4: DNS rebinding, a page under its own name reading what the broker holds.
    def test_foreignHost_dnsRebinding_refusedNothingRead(self):
        url = self.queue_with("orders", "the secret body")
        self.assertEqual(self.server.api("PUT", "/mocks/hook", {"script": "200"})[0], 200)
        host = "evil.example:%d" % self.wire.port
        form = {"Content-Type": "application/x-www-form-urlencoded"}
        cases = [
            ("GET", "/api/v1/queues/orders/messages", None, {}, "native"),
            ("GET", "/api/v1/config", None, {}, "native"),
            ("POST", "/", urllib.parse.urlencode({"Action": "ReceiveMessage", "QueueUrl": url}), form, "query"),
            ("GET", "/?Action=ListQueues", None, {}, "query"),
            ("POST", "/", json.dumps({"QueueUrl": url}),
             {"X-Amz-Target": "AmazonSQS.ReceiveMessage", "Content-Type": "application/x-amz-json-1.0"}, "json"),
            ("GET", "/metrics", None, {}, "native"),
            ("GET", "/health", None, {}, "native"),
            ("POST", "/_mock/hook", "{}", {"Content-Type": "application/json"}, "native"),
        ]
        for method, path, body, headers, shape in cases:
            status, _, text = self.wire.send(method, path, body, dict(BROWSER, **headers), host=host)
            self.assertEqual(status, 421, (path, text))
            self.assertNotIn(b"secret", text)
            if shape == "native":
                reply = json.loads(text)
                self.assertEqual(reply["error"], "MisdirectedRequest")
                self.assertIn("relaydesk serve --allow-host evil.example", reply["message"])
            elif shape == "json":
                self.assertEqual(json.loads(text)["__type"], "com.amazonaws.sqs#MisdirectedRequest")
            else:
                self.assertEqual(query_error(text)[2], "MisdirectedRequest")
        status, hook = self.server.api("GET", "/mocks/hook/requests")
        self.assertEqual((status, hook["requests"]), (200, []))
        self.assertEqual(self.depth(url), (1, 0))   # nothing was received
        # The twins: the same reads under loopback names, in any spelling a client uses.
        for own in ("127.0.0.1:%d" % self.wire.port, "localhost:%d" % self.wire.port, "LOCALHOST",
                    "[::1]:%d" % self.wire.port):
            status, _, text = self.wire.send("GET", "/api/v1/queues/orders/messages", host=own)
            self.assertEqual(status, 200, (own, text))
            self.assertIn(b"the secret body", text)
        through_name = sqs_client("http://localhost:%d" % self.wire.port)   # boto3 sends Host: localhost:PORT
        self.addCleanup(through_name.close)
        self.assertEqual(through_name.receive_message(QueueUrl=url)["Messages"][0]["Body"], "the secret body")

    def test_absoluteFormTarget_andMissingHost(self):
        """RFC 9112 §3.2.2: an absolute-form target names the host in place of
        Host, so a foreign one is refused whatever Host says; §3.2: HTTP/1.1
        without Host is 400. Neither reads anything."""
        url = self.queue_with("orders", "the secret body")
        path = "/api/v1/queues/orders/messages"
        for target in ("http://evil.example%s" % path, "HTTP://evil.example:%d%s" % (self.wire.port, path),
                       "http://127.0.0.1@evil.example%s" % path):
            status, _, text = self.wire.send("GET", target)
            self.assertEqual(status, 421, (target, text))
            self.assertNotIn(b"secret", text)
        status, _, text = self.wire.send("GET", path, host=False)
        self.assertEqual(status, 400, text)
        self.assertIn(b"Host", text)
        self.assertNotIn(b"secret", text)
        self.assertEqual(self.depth(url), (1, 0))   # nothing was received
        status, _, text = self.wire.send("GET", "http://127.0.0.1:%d%s" % (self.wire.port, path), host=False)
        self.assertEqual(status, 200, text)   # the twin: absolute form naming the broker itself
        self.assertIn(b"the secret body", text)

    # A preflight is never answered with permission.
    def test_preflight_neverGranted(self):
        for path in ("/api/v1/config", "/", "/_mock/hook"):
            status, _, text = self.wire.send("OPTIONS", path, None, dict(BROWSER, **{
                "Origin": EVIL, "Access-Control-Request-Method": "POST",
                "Access-Control-Request-Headers": "content-type,x-amz-target"}))
            self.assertEqual(status, 403, (path, text))   # and no Access-Control-* header (Wire checks)

    # Mock endpoints are webhook targets: a page's POST would take a script step
    # and show in the record of a running test, so an Origin is refused there too.
    def test_mockEndpoint_pageOrigin_refusedNotRecorded(self):
        self.assertEqual(self.server.api("PUT", "/mocks/hook", {"script": "503, then 200"})[0], 200)
        status, _, text = self.wire.send("POST", "/_mock/hook", "x=1", dict(BROWSER, **{
            "Content-Type": "application/x-www-form-urlencoded", "Origin": EVIL}))
        self.assertEqual((status, json.loads(text)["error"]), (403, "AccessDenied"))
        self.assertEqual(self.server.api("GET", "/mocks/hook/requests")[1]["requests"], [])
        # The twin: a webhook sender (no Origin) gets the script's first step.
        status, _, _ = self.wire.send("POST", "/_mock/hook", "{}", {"Content-Type": "application/json"})
        self.assertEqual(status, 503)
        self.assertEqual(len(self.server.api("GET", "/mocks/hook/requests")[1]["requests"]), 1)


class AllowedHostScenarios(unittest.TestCase):
    """A container reaches the broker under a name of this machine: the
    --advertised-url host and --allow-host names are answered, others not."""

    def test_advertisedAndAllowedHosts_answered(self):
        advertised = "http://host.docker.internal:4566"   # e.g. docker -p 4566:PORT
        with RelaydeskServer(BINARY, "--advertised-url", advertised, "--allow-host", "relay.internal",
                             "--allow-host", "172.17.0.1") as server:
            wire = Wire(self, server.endpoint)
            server.client("sqs").create_queue(QueueName="jobs")
            form = {"Content-Type": "application/x-www-form-urlencoded"}
            body = urllib.parse.urlencode({"Action": "GetQueueUrl", "QueueName": "jobs"})
            for host in ("host.docker.internal:4566", "Host.Docker.Internal", "relay.internal:%d" % wire.port,
                         "172.17.0.1:%d" % wire.port):
                status, _, text = wire.send("POST", "/", body, form, host=host)
                self.assertEqual(status, 200, (host, text))
                self.assertIn(advertised.encode() + b"/000000000000/jobs", text)
            status, _, text = wire.send("POST", "/", body, form, host="other.internal:%d" % wire.port)
            self.assertEqual(status, 421, text)
            self.assertIn("relaydesk serve --allow-host other.internal", query_error(text)[3])


if __name__ == "__main__":
    unittest.main(verbosity=2)
