# SPDX-License-Identifier: MIT
"""Hostile input through the real port:
each reproduction of the issue gets the service's own error, changes nothing,
and the server lives on. Raw HTTP where a client library would refuse to send
the input; boto3 (Debian's, query protocol) where it can."""
import http.client
import json
import os
import stat
import subprocess
import tempfile
import unittest
import urllib.parse
import xml.etree.ElementTree as ElementTree

from relaydesk_harness import RelaydeskServer, binary_from_environment

BINARY = binary_from_environment()
DEEP = 100000


def nested(depth):
    return "[" * depth + "]" * depth


class Wire:
    """One HTTP/1.1 exchange per call on a fresh connection."""

    def __init__(self, endpoint):
        parsed = urllib.parse.urlparse(endpoint)
        self.host, self.port = parsed.hostname, parsed.port

    def post(self, path, body, headers):
        connection = http.client.HTTPConnection(self.host, self.port, timeout=60)
        try:
            connection.request("POST", path, body=body, headers=headers)
            reply = connection.getresponse()
            return reply.status, reply.read()
        finally:
            connection.close()

    def sqs_json(self, action, body):
        data = body if isinstance(body, (bytes, str)) else json.dumps(body)
        status, text = self.post("/", data, {"X-Amz-Target": "AmazonSQS." + action,
                                             "Content-Type": "application/x-amz-json-1.0"})
        return status, json.loads(text or b"{}")

    def query(self, form):
        status, text = self.post("/", form, {"Content-Type": "application/x-www-form-urlencoded"})
        root = ElementTree.fromstring(text)
        code = next((element.text for element in root.iter() if element.tag.endswith("Code")), None)
        message = next((element.text for element in root.iter() if element.tag.endswith("Message")), None)
        return status, code, message, root

    def native(self, method, path, body):
        connection = http.client.HTTPConnection(self.host, self.port, timeout=60)
        try:
            connection.request(method, "/api/v1" + path, body=body, headers={"Content-Type": "application/json"})
            reply = connection.getresponse()
            return reply.status, json.loads(reply.read() or b"{}")
        finally:
            connection.close()


class HostileInputScenarios(unittest.TestCase):
    def setUp(self):
        self.server = RelaydeskServer(BINARY).__enter__()
        self.wire = Wire(self.server.endpoint)
        self.sqs = self.server.client("sqs")
        self.sns = self.server.client("sns")

    def tearDown(self):
        self.server.__exit__(None, None, None)

    def queue(self, name, **attributes):
        url = self.sqs.create_queue(QueueName=name, Attributes=attributes)["QueueUrl"]
        return url

    # item 1 ----------------------------------------------------------------
    def test_deeplyNestedJson_everyInput_refusedServerLives(self):
        url = self.queue("q")
        deep = nested(DEEP)
        cases = [
            ("CreateQueue", '{"QueueName":"n","Attributes":' + deep + '}'),
            ("SendMessage", '{"QueueUrl":"%s","MessageBody":%s}' % (url, deep)),
            ("SendMessage", '{"QueueUrl":"%s","MessageBody":"x","DelaySeconds":%s}' % (url, deep)),
            ("ReceiveMessage", '{"QueueUrl":"%s","MaxNumberOfMessages":%s}' % (url, deep)),
            ("SendMessageBatch", '{"QueueUrl":"%s","Entries":%s}' % (url, deep)),
        ]
        for action, body in cases:
            status, reply = self.wire.sqs_json(action, body)
            self.assertEqual(status, 400, (action, reply))
            self.assertIn("SerializationException", reply.get("__type", ""), reply)
        for method, path in [("POST", "/queues"), ("POST", "/queues/q/messages"), ("POST", "/clock/advance"),
                             ("POST", "/config"), ("PUT", "/mocks/m")]:
            status, reply = self.wire.native(method, path, '{"name":' + deep + '}')
            self.assertEqual(status, 400, (path, reply))
            self.assertEqual(reply["error"], "SerializationException", reply)
        self.assertEqual(self.sqs.list_queues()["QueueUrls"], [url])

    def test_serveConfig_deeplyNested_refusedBeforeReady(self):
        with tempfile.TemporaryDirectory() as directory:
            config = os.path.join(directory, "deep.json")
            with open(config, "w") as file:
                file.write('{"version":1,"queues":' + nested(DEEP) + '}')
            done = subprocess.run([BINARY, "serve", "--port", "0", "--db", ":memory:", "--clock", "virtual",
                                   "--config", config], capture_output=True, text=True, timeout=60)
            self.assertGreater(done.returncode, 0, done)   # an error exit, not a signal
            self.assertIn("not valid JSON", done.stderr)

    # item 4 ----------------------------------------------------------------
    def test_publish_characterSqsForbids_refusedNotLost(self):
        url = self.queue("raw")
        topic = self.sns.create_topic(Name="t")["TopicArn"]
        arn = self.sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
        self.sns.subscribe(TopicArn=topic, Protocol="sqs", Endpoint=arn, Attributes={"RawMessageDelivery": "true"})
        status, code, _, _ = self.wire.query("Action=Publish&TopicArn=%s&Message=a%%01b" % urllib.parse.quote(topic))
        self.assertEqual((status, code), (400, "InvalidParameter"))
        self.sns.publish(TopicArn=topic, Message="fine")
        bodies = [m["Body"] for m in self.sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10).get("Messages", [])]
        self.assertEqual(bodies, ["fine"])

    def test_fanOut_queueRefuses_visibleInAttemptLogAndDeadLetterQueue(self):
        small = self.queue("small", MaximumMessageSize="1024")
        dlq = self.queue("dlq")
        arn_of = lambda url: self.sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
        topic = self.sns.create_topic(Name="t")["TopicArn"]
        subscription = self.sns.subscribe(
            TopicArn=topic, Protocol="sqs", Endpoint=arn_of(small), ReturnSubscriptionArn=True,
            Attributes={"RawMessageDelivery": "true",
                        "RedrivePolicy": json.dumps({"deadLetterTargetArn": arn_of(dlq)})})["SubscriptionArn"]
        message_id = self.sns.publish(TopicArn=topic, Message="m" * 2000)["MessageId"]
        self.assertNotIn("Messages", self.sqs.receive_message(QueueUrl=small))
        dead = self.sqs.receive_message(QueueUrl=dlq)["Messages"]
        self.assertEqual(dead[0]["Body"], "m" * 2000)
        status, log = self.server.api("GET", "/attempts?" + urllib.parse.urlencode({"subscriptionArn": subscription}))
        self.assertEqual(status, 200, log)
        self.assertEqual([(a["messageId"], a["errorKind"], a["final"]) for a in log["attempts"]],
                         [(message_id, "queueRefused", "deadLettered")])
        # held there as a dead letter, with its reason (so the tree and /metrics count it as one)
        status, browsed = self.server.api("GET", "/queues/dlq/messages")
        self.assertEqual(status, 200, browsed)
        self.assertEqual([m["deadLetterReason"] for m in browsed["messages"]], ["DeliveryRefused"])

    # item 7 ----------------------------------------------------------------
    def test_databaseFiles_ownerOnly(self):
        with tempfile.TemporaryDirectory() as directory:
            database = os.path.join(directory, "broker.db")
            previous = os.umask(0o022)
            try:
                server = RelaydeskServer(BINARY, database=database).__enter__()
            finally:
                os.umask(previous)
            try:
                server.client("sqs").create_queue(QueueName="written")
                for suffix in ["", "-wal", "-shm", ".lock"]:
                    mode = stat.S_IMODE(os.stat(database + suffix).st_mode)
                    self.assertEqual(mode, 0o600, suffix)
            finally:
                server.__exit__(None, None, None)

    # items 8 and 9 ---------------------------------------------------------
    def test_queryProtocol_invalidCharacters_invalidMessageContents(self):
        url = self.queue("q")
        quoted = urllib.parse.quote(url, safe="")
        for body in ["%FF%FEab", "a%EF%BF%BEb", "a%EF%BF%BFb", "a%01b"]:
            status, code, _, _ = self.wire.query("Action=SendMessage&QueueUrl=%s&MessageBody=%s" % (quoted, body))
            self.assertEqual((status, code), (400, "InvalidMessageContents"), body)
        for value in ["a%00b", "a%01b", "a%EF%BF%BEb", "%FF"]:
            status, code, _, _ = self.wire.query(
                "Action=SendMessage&QueueUrl=%s&MessageBody=x&MessageAttribute.1.Name=k"
                "&MessageAttribute.1.Value.DataType=String&MessageAttribute.1.Value.StringValue=%s" % (quoted, value))
            self.assertEqual(status, 400, value)
            self.assertIn(code, ["InvalidParameterValue", "InvalidMessageContents"], value)
        self.assertNotIn("Messages", self.sqs.receive_message(QueueUrl=url))

    def test_queryProtocol_malformedEscapeOrBadName_invalidParameterValue(self):
        # A '%' without two hex digits is no form encoding; invalid UTF-8
        # outside a message body is a bad parameter value, not message contents.
        for form in ["Action=CreateQueue&QueueName=%ZZ", "Action=CreateQueue&QueueName=a%2",
                     "Action=CreateQueue&QueueName=%FF%FE", "Action=ListQueues&QueueNamePrefix=%G0"]:
            status, code, _, _ = self.wire.query(form)
            self.assertEqual((status, code), (400, "InvalidParameterValue"), form)
        self.assertEqual(self.sqs.list_queues().get("QueueUrls", []), [])
        for form in ["Action=ListTopics&NextToken=%ZZ"]:
            status, code, _, _ = self.wire.query(form)
            self.assertEqual((status, code), (400, "InvalidParameter"), form)

    def test_listQueues_garbageNextToken_refused(self):
        for name in ["a", "b", "c"]:
            self.queue(name)
        first = self.sqs.list_queues(MaxResults=2)
        self.assertEqual(len(first["QueueUrls"]), 2)
        rest = self.sqs.list_queues(MaxResults=2, NextToken=first["NextToken"])
        self.assertEqual([url.rsplit("/", 1)[1] for url in rest["QueueUrls"]], ["c"])
        with self.assertRaises(self.sqs.exceptions.ClientError) as raised:
            self.sqs.list_queues(MaxResults=2, NextToken="!!garbage!!")
        self.assertEqual(raised.exception.response["Error"]["Code"], "InvalidParameterValue")

    def test_tags_outsideTheRules_refused(self):
        url = self.queue("tagged")
        topic = self.sns.create_topic(Name="tagged")["TopicArn"]
        for key, value in [("a\u0000b", "v"), ("aws:reserved", "v"), ("k", "semi;colon"), ("k" * 129, "v")]:
            with self.assertRaises(self.sqs.exceptions.ClientError) as raised:
                self.sqs.tag_queue(QueueUrl=url, Tags={key: value})
            self.assertEqual(raised.exception.response["Error"]["Code"], "InvalidParameterValue", key)
            with self.assertRaises(self.sns.exceptions.InvalidParameterException):
                self.sns.tag_resource(ResourceArn=topic, Tags=[{"Key": key, "Value": value}])
        self.assertEqual(self.sqs.list_queue_tags(QueueUrl=url).get("Tags", {}), {})
        self.assertEqual(self.sns.list_tags_for_resource(ResourceArn=topic)["Tags"], [])
        self.sqs.tag_queue(QueueUrl=url, Tags={"team:payments/eu": "a b_c.d=e+f-g@h"})

    def test_jsonProtocol_attributeValueForbiddenCharacters_refused(self):
        url = self.queue("q")
        for value in ["a\u0000b", "a\u0001b", "a\ufffeb", "a\uffffb"]:
            status, reply = self.wire.sqs_json("SendMessage", {
                "QueueUrl": url, "MessageBody": "x",
                "MessageAttributes": {"k": {"DataType": "String", "StringValue": value}}})
            self.assertEqual(status, 400, value)
            self.assertIn("InvalidParameterValue", reply["__type"])
        self.assertNotIn("Messages", self.sqs.receive_message(QueueUrl=url))

    # item 10 ---------------------------------------------------------------
    def test_numberAttributes_outsideSqsRules_refused(self):
        url = self.queue("q")
        topic = self.sns.create_topic(Name="t")["TopicArn"]
        for value in ["abc", "1e400", "1" * 39]:
            status, reply = self.wire.sqs_json("SendMessage", {
                "QueueUrl": url, "MessageBody": "x",
                "MessageAttributes": {"n": {"DataType": "Number", "StringValue": value}}})
            self.assertEqual(status, 400, value)
            self.assertIn("InvalidParameterValue", reply["__type"])
            with self.assertRaises(self.sns.exceptions.InvalidParameterValueException):
                self.sns.publish(TopicArn=topic, Message="m",
                                 MessageAttributes={"n": {"DataType": "Number", "StringValue": value}})
        self.sqs.send_message(QueueUrl=url, MessageBody="x",
                              MessageAttributes={"n": {"DataType": "Number", "StringValue": "-1.5e3"}})

    # item 11 ---------------------------------------------------------------
    def test_receiveRequestAttemptId_tooLongOrBadCharacters_refused(self):
        url = self.queue("q.fifo", FifoQueue="true", ContentBasedDeduplication="true")
        for attempt in ["a" * 129, "a b"]:
            with self.assertRaises(self.sqs.exceptions.ClientError) as raised:
                self.sqs.receive_message(QueueUrl=url, ReceiveRequestAttemptId=attempt)
            self.assertEqual(raised.exception.response["Error"]["Code"], "InvalidParameterValue")
        self.sqs.receive_message(QueueUrl=url, ReceiveRequestAttemptId="a" * 128)

    # items 12 and 17 -------------------------------------------------------
    def test_deleteMessage_alteredOrHugeHandle_receiptHandleIsInvalid(self):
        url = self.queue("q")
        self.sqs.send_message(QueueUrl=url, MessageBody="one")
        handle = self.sqs.receive_message(QueueUrl=url, VisibilityTimeout=30)["Messages"][0]["ReceiptHandle"]
        altered = handle[:-1] + ("a" if handle[-1] != "a" else "b")
        for bad in [altered, "x" * (1 << 20)]:
            with self.assertRaises(self.sqs.exceptions.ClientError) as raised:
                self.sqs.delete_message(QueueUrl=url, ReceiptHandle=bad)
            error = raised.exception.response["Error"]
            self.assertEqual(error["Code"], "ReceiptHandleIsInvalid")
            self.assertLess(len(error["Message"]), 300)
        self.server.advance(31)
        self.assertEqual(self.sqs.receive_message(QueueUrl=url)["Messages"][0]["Body"], "one")

    # item 13 ---------------------------------------------------------------
    def test_redrivePolicy_ownQueue_refused(self):
        url = self.queue("q")
        arn = self.sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
        with self.assertRaises(self.sqs.exceptions.ClientError) as raised:
            self.sqs.set_queue_attributes(QueueUrl=url, Attributes={
                "RedrivePolicy": json.dumps({"deadLetterTargetArn": arn, "maxReceiveCount": 1})})
        self.assertEqual(raised.exception.response["Error"]["Code"], "InvalidParameterValue")
        self.assertNotIn("RedrivePolicy", self.sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["All"])["Attributes"])

    # item 16 ---------------------------------------------------------------
    def test_clockAdvance_secondsAndTo_refused_mockCountsBounded(self):
        before = self.server.api("GET", "/clock")[1]["nowMs"]
        status, reply = self.server.api("POST", "/clock/advance", {"seconds": 5, "to": "2030-01-01T00:00:00.000Z"})
        self.assertEqual((status, reply["error"]), (400, "InvalidParameterValue"), reply)
        self.assertEqual(self.server.api("GET", "/clock")[1]["nowMs"], before)
        status, reply = self.server.api("PUT", "/mocks/m", {"script": "503 x 9223372036854775808"})
        self.assertEqual((status, reply["error"]), (400, "InvalidParameterValue"), reply)

    # item 17 ---------------------------------------------------------------
    def test_errorMessages_echoShortPrefix(self):
        huge = "v" * 100000
        status, reply = self.wire.sqs_json("ReceiveMessage", {"QueueUrl": self.queue("q"), "MaxNumberOfMessages": huge})
        self.assertEqual(status, 400)
        self.assertLess(len(reply["message"]), 300, reply["message"][:100])
        status, reply = self.wire.sqs_json("CreateQueue", {"QueueName": "n", "Attributes": {huge: "1"}})
        self.assertEqual(status, 400)
        self.assertLess(len(reply["message"]), 1100)

    def test_nativeAndMockReplies_echoShortPrefix(self):
        long = "x" * 60000
        # An unknown ARN is 404, one too long for a name a malformed one (400): short either way.
        for method, path, expected in [("GET", "/" + long, [404]), ("PATCH", "/" + long, [404, 405]),
                                       ("GET", "/attempts?subscriptionArn=arn:aws:sns:us-east-1:000000000000:t:" + long, [400, 404]),
                                       ("GET", "/attempts?topicArn=arn:aws:sns:us-east-1:000000000000:" + long, [400, 404])]:
            status, reply = self.wire.native(method, path, None)
            self.assertIn(status, expected, path[:80])
            self.assertLess(len(json.dumps(reply)), 400, path[:80])
        connection = http.client.HTTPConnection(self.wire.host, self.wire.port, timeout=60)
        try:
            connection.request("GET", "/_mock/" + long)
            reply = connection.getresponse()
            self.assertEqual(reply.status, 404)
            self.assertLess(len(reply.read()), 200)
        finally:
            connection.close()


if __name__ == "__main__":
    unittest.main()
