# SPDX-License-Identifier: MIT
"""SQS end to end with boto3 against `relaydesk serve` (virtual clock).

Runs under any boto3: the pyenv one (recent botocore: SQS JSON protocol) and
Debian's python3-boto3 1.26 (SQS query protocol). RELAYDESK_BINARY names the
binary. Every check is made on what the SDK returns to its caller.
"""
import hashlib
import json
import threading
import unittest
import urllib.error
import urllib.request

import botocore
from botocore.exceptions import ClientError

from relaydesk_harness import RelaydeskServer, binary_from_environment

BINARY = binary_from_environment()


def md5(text):
    return hashlib.md5(text.encode()).hexdigest()


class SqsScenarios(unittest.TestCase):
    def setUp(self):
        self.server = RelaydeskServer(BINARY).__enter__()
        self.sqs = self.server.client("sqs")

    def tearDown(self):
        self.server.__exit__(None, None, None)

    def error_code(self, call, **kwargs):
        with self.assertRaises(ClientError) as caught:
            call(**kwargs)
        return caught.exception.response["Error"]["Code"]

    def test_standardRoundTrip_attributesAndDigestsAsSent(self):
        url = self.sqs.create_queue(QueueName="orders")["QueueUrl"]
        self.assertTrue(url.endswith("/000000000000/orders"), url)
        self.assertEqual(self.sqs.get_queue_url(QueueName="orders")["QueueUrl"], url)
        sent = self.sqs.send_message(QueueUrl=url, MessageBody="héllo wörld",
                                     MessageAttributes={"kind": {"DataType": "String", "StringValue": "new"},
                                                        "count": {"DataType": "Number", "StringValue": "3"},
                                                        "blob": {"DataType": "Binary", "BinaryValue": b"\x00\x01"}})
        self.assertEqual(sent["MD5OfMessageBody"], md5("héllo wörld"))
        got = self.sqs.receive_message(QueueUrl=url, MessageAttributeNames=["All"], AttributeNames=["All"])
        [message] = got["Messages"]
        self.assertEqual(message["Body"], "héllo wörld")
        self.assertEqual(message["MessageId"], sent["MessageId"])
        self.assertEqual(message["MD5OfMessageAttributes"], sent["MD5OfMessageAttributes"])
        self.assertEqual(message["MessageAttributes"]["blob"]["BinaryValue"], b"\x00\x01")
        self.assertEqual(message["MessageAttributes"]["count"]["StringValue"], "3")
        self.assertEqual(message["Attributes"]["ApproximateReceiveCount"], "1")
        attributes = self.sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["All"])["Attributes"]
        self.assertEqual(attributes["ApproximateNumberOfMessagesNotVisible"], "1")
        self.sqs.delete_message(QueueUrl=url, ReceiptHandle=message["ReceiptHandle"])
        attributes = self.sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["All"])["Attributes"]
        self.assertEqual(attributes["ApproximateNumberOfMessagesNotVisible"], "0")
        self.assertEqual(attributes["ApproximateNumberOfMessages"], "0")

    def test_xmlAndJsonBreakingCharacters_comeBackByteForByte(self):
        url = self.sqs.create_queue(QueueName="chars")["QueueUrl"]
        body = 'a\r\nb\tc <&> "quoted" \u00e9 \U0001F600 ]]> {"json": [1]} \\'
        sent = self.sqs.send_message(QueueUrl=url, MessageBody=body,
                                     MessageAttributes={"k": {"DataType": "String", "StringValue": "x\r<y>"}})
        self.assertEqual(sent["MD5OfMessageBody"], md5(body))
        [message] = self.sqs.receive_message(QueueUrl=url, MessageAttributeNames=["All"])["Messages"]
        self.assertEqual(message["Body"], body)
        self.assertEqual(message["MessageAttributes"]["k"]["StringValue"], "x\r<y>")
        self.assertEqual(self.error_code(self.sqs.send_message, QueueUrl=url, MessageBody="bad \x01"),
                         "InvalidMessageContents")

    def test_visibilityTimeout_messageReturnsAfterVirtualTime(self):
        url = self.sqs.create_queue(QueueName="work", Attributes={"VisibilityTimeout": "30"})["QueueUrl"]
        self.sqs.send_message(QueueUrl=url, MessageBody="job")
        first = self.sqs.receive_message(QueueUrl=url)["Messages"][0]
        self.assertNotIn("Messages", self.sqs.receive_message(QueueUrl=url))
        self.server.advance(29)
        self.assertNotIn("Messages", self.sqs.receive_message(QueueUrl=url))
        self.server.advance(1)
        again = self.sqs.receive_message(QueueUrl=url, AttributeNames=["ApproximateReceiveCount"])["Messages"][0]
        self.assertEqual(again["MessageId"], first["MessageId"])
        self.assertEqual(again["Attributes"]["ApproximateReceiveCount"], "2")

    def test_batches_oneBadEntryFailsAlone(self):
        url = self.sqs.create_queue(QueueName="batch")["QueueUrl"]
        reply = self.sqs.send_message_batch(QueueUrl=url, Entries=[
            {"Id": "a", "MessageBody": "one"},
            {"Id": "b", "MessageBody": "two", "DelaySeconds": 901},
            {"Id": "c", "MessageBody": "three"}])
        self.assertEqual(sorted(entry["Id"] for entry in reply["Successful"]), ["a", "c"])
        digests = {entry["Id"]: entry["MD5OfMessageBody"] for entry in reply["Successful"]}
        self.assertEqual(digests, {"a": md5("one"), "c": md5("three")})   # each entry its own body's
        [failed] = reply["Failed"]
        self.assertEqual((failed["Id"], failed["SenderFault"]), ("b", True))
        messages = self.sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10)["Messages"]
        self.assertEqual(sorted(m["Body"] for m in messages), ["one", "three"])
        deleted = self.sqs.delete_message_batch(QueueUrl=url, Entries=[
            {"Id": "x", "ReceiptHandle": messages[0]["ReceiptHandle"]},
            {"Id": "y", "ReceiptHandle": "garbage"}])
        self.assertEqual([e["Id"] for e in deleted["Successful"]], ["x"])
        self.assertEqual(deleted["Failed"][0]["Code"], "ReceiptHandleIsInvalid")
        self.assertEqual(self.error_code(self.sqs.send_message_batch, QueueUrl=url, Entries=[
            {"Id": "same", "MessageBody": "1"}, {"Id": "same", "MessageBody": "2"}]),
            "AWS.SimpleQueueService.BatchEntryIdsNotDistinct")

    def test_fifo_orderPerGroupAndGating(self):
        url = self.sqs.create_queue(QueueName="jobs.fifo", Attributes={
            "FifoQueue": "true", "ContentBasedDeduplication": "true"})["QueueUrl"]
        for group in ("g1", "g2"):
            for index in range(3):
                self.sqs.send_message(QueueUrl=url, MessageBody="%s-%d" % (group, index), MessageGroupId=group)
        first = self.sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=2)["Messages"]
        self.assertEqual([m["Body"] for m in first], ["g1-0", "g1-1"])
        # g1 is gated while its messages are in flight: the rest comes from g2, in order.
        second = self.sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10)["Messages"]
        self.assertEqual([m["Body"] for m in second], ["g2-0", "g2-1", "g2-2"])
        self.assertNotIn("Messages", self.sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10))
        for message in first:
            self.sqs.delete_message(QueueUrl=url, ReceiptHandle=message["ReceiptHandle"])
        third = self.sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10)["Messages"]
        self.assertEqual([m["Body"] for m in third], ["g1-2"])

    def test_fifo_deduplicationByIdAndByContent(self):
        url = self.sqs.create_queue(QueueName="dedup.fifo", Attributes={
            "FifoQueue": "true", "ContentBasedDeduplication": "true"})["QueueUrl"]
        a = self.sqs.send_message(QueueUrl=url, MessageBody="same", MessageGroupId="g")
        b = self.sqs.send_message(QueueUrl=url, MessageBody="same", MessageGroupId="g")
        self.assertEqual(a["MessageId"], b["MessageId"])
        c = self.sqs.send_message(QueueUrl=url, MessageBody="other", MessageGroupId="g", MessageDeduplicationId="d1")
        d = self.sqs.send_message(QueueUrl=url, MessageBody="different body", MessageGroupId="g",
                                  MessageDeduplicationId="d1")
        self.assertEqual(c["MessageId"], d["MessageId"])
        self.assertLess(int(a["SequenceNumber"]), int(c["SequenceNumber"]))
        bodies = [m["Body"] for m in self.sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10)["Messages"]]
        self.assertEqual(bodies, ["same", "other"])
        self.server.advance(301)
        e = self.sqs.send_message(QueueUrl=url, MessageBody="same", MessageGroupId="g")
        self.assertNotEqual(e["MessageId"], a["MessageId"])

    def test_fifo_receiveAttemptIdReturnsTheSameBatch(self):
        url = self.sqs.create_queue(QueueName="attempt.fifo", Attributes={
            "FifoQueue": "true", "ContentBasedDeduplication": "true"})["QueueUrl"]
        for index in range(3):
            self.sqs.send_message(QueueUrl=url, MessageBody="m%d" % index, MessageGroupId="g%d" % index)
        first = self.sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=2, ReceiveRequestAttemptId="try-1")
        retry = self.sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=2, ReceiveRequestAttemptId="try-1")
        self.assertEqual([m["ReceiptHandle"] for m in first["Messages"]],
                         [m["ReceiptHandle"] for m in retry["Messages"]])

    def test_deadLetter_afterMaxReceiveCount_andMovedBack(self):
        dlq = self.sqs.create_queue(QueueName="dead")["QueueUrl"]
        dlq_arn = self.sqs.get_queue_attributes(QueueUrl=dlq, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
        url = self.sqs.create_queue(QueueName="source", Attributes={
            "VisibilityTimeout": "10",
            "RedrivePolicy": '{"deadLetterTargetArn": "%s", "maxReceiveCount": "2"}' % dlq_arn})["QueueUrl"]
        self.sqs.send_message(QueueUrl=url, MessageBody="poison")
        for _ in range(2):
            self.assertIn("Messages", self.sqs.receive_message(QueueUrl=url))
            self.server.advance(10)
        self.assertNotIn("Messages", self.sqs.receive_message(QueueUrl=url))
        self.assertEqual(self.sqs.list_dead_letter_source_queues(QueueUrl=dlq)["queueUrls"], [url])
        dead = self.sqs.receive_message(QueueUrl=dlq)["Messages"]
        self.assertEqual(dead[0]["Body"], "poison")
        self.server.advance(31)
        if hasattr(self.sqs, "start_message_move_task"):
            handle = self.sqs.start_message_move_task(SourceArn=dlq_arn)["TaskHandle"]
            self.assertTrue(handle)
            tasks = self.sqs.list_message_move_tasks(SourceArn=dlq_arn)["Results"]
            self.assertEqual(tasks[0]["Status"], "COMPLETED")
        else:  # boto3 1.26 predates move tasks: the native API does the same
            status, _ = self.server.api("POST", "/queues/dead/move-back", {})
            self.assertEqual(status, 200)
        moved = self.sqs.receive_message(QueueUrl=url)["Messages"]
        self.assertEqual(moved[0]["Body"], "poison")

    def sqs_json(self, action, body):
        """One SQS JSON-protocol call, as the newer SDKs make it (Debian's boto3 1.26 has no move tasks)."""
        request = urllib.request.Request(self.server.endpoint + "/", data=json.dumps(body).encode(), method="POST",
                                         headers={"X-Amz-Target": "AmazonSQS." + action,
                                                  "Content-Type": "application/x-amz-json-1.0"})
        try:
            with urllib.request.urlopen(request, timeout=60) as reply:
                return reply.status, json.loads(reply.read() or b"{}")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"{}")

    def test_moveTask_ratedRunsInChunks_andCancelStopsItHalfWay(self):
        dlq = self.sqs.create_queue(QueueName="dead")["QueueUrl"]
        dlq_arn = self.sqs.get_queue_attributes(QueueUrl=dlq, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
        url = self.sqs.create_queue(QueueName="source", Attributes={
            "RedrivePolicy": '{"deadLetterTargetArn": "%s", "maxReceiveCount": "1"}' % dlq_arn})["QueueUrl"]
        for index in range(12):
            self.sqs.send_message(QueueUrl=url, MessageBody="m%d" % index)
        for _ in range(8):  # received once, then a second receive dead-letters them
            self.sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10, VisibilityTimeout=0)
        counts = self.sqs.get_queue_attributes(QueueUrl=dlq, AttributeNames=["ApproximateNumberOfMessages"])
        self.assertEqual(counts["Attributes"]["ApproximateNumberOfMessages"], "12")

        status, started = self.sqs_json("StartMessageMoveTask",
                                        {"SourceArn": dlq_arn, "MaxNumberOfMessagesPerSecond": 5})
        self.assertEqual(status, 200, started)
        status, listed = self.sqs_json("ListMessageMoveTasks", {"SourceArn": dlq_arn})
        task = listed["Results"][0]
        self.assertEqual(task["Status"], "RUNNING")
        self.assertEqual(task["TaskHandle"], started["TaskHandle"])
        self.assertEqual((task["ApproximateNumberOfMessagesMoved"], task["ApproximateNumberOfMessagesToMove"]), (5, 12))
        self.server.advance(1)  # the next chunk, a clock second later
        status, listed = self.sqs_json("ListMessageMoveTasks", {"SourceArn": dlq_arn})
        self.assertEqual(listed["Results"][0]["ApproximateNumberOfMessagesMoved"], 10)
        status, cancelled = self.sqs_json("CancelMessageMoveTask", {"TaskHandle": started["TaskHandle"]})
        self.assertEqual(status, 200, cancelled)
        self.assertEqual(cancelled["ApproximateNumberOfMessagesMoved"], 10)
        self.server.advance(10)  # nothing moves after the cancel
        status, listed = self.sqs_json("ListMessageMoveTasks", {"SourceArn": dlq_arn})
        self.assertEqual(listed["Results"][0]["Status"], "CANCELLED")
        self.assertNotIn("TaskHandle", listed["Results"][0])
        left = self.sqs.get_queue_attributes(QueueUrl=dlq, AttributeNames=["ApproximateNumberOfMessages"])
        back = self.sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["ApproximateNumberOfMessages"])
        self.assertEqual((back["Attributes"]["ApproximateNumberOfMessages"],
                          left["Attributes"]["ApproximateNumberOfMessages"]), ("10", "2"))

    def test_longPoll_returnsAsSoonAsAMessageArrives(self):
        url = self.sqs.create_queue(QueueName="poll")["QueueUrl"]
        result = {}

        def poll():
            result["reply"] = self.server.client("sqs").receive_message(QueueUrl=url, WaitTimeSeconds=20)

        waiter = threading.Thread(target=poll)
        waiter.start()
        # The poll waits on the broker (it found nothing) and the virtual clock
        # does not move: only the send can end this wait.
        self.server.await_waiting_receives("poll", 1)
        self.sqs.send_message(QueueUrl=url, MessageBody="wake up")
        waiter.join(timeout=60)
        self.assertFalse(waiter.is_alive())
        self.assertEqual(result["reply"]["Messages"][0]["Body"], "wake up")

    def test_longPoll_endsEmptyAtTheVirtualDeadline(self):
        url = self.sqs.create_queue(QueueName="quiet")["QueueUrl"]
        result = {}
        waiter = threading.Thread(target=lambda: result.update(
            reply=self.server.client("sqs").receive_message(QueueUrl=url, WaitTimeSeconds=20)))
        waiter.start()
        self.server.await_waiting_receives("quiet", 1)
        # An advance answers once everything due has happened.
        self.server.advance(19.999)
        self.assertEqual(self.server.waiting_receives("quiet"), 1)  # not yet
        self.server.advance(0.001)   # its deadline, 20 s of clock time after it began
        self.assertEqual(self.server.waiting_receives("quiet"), 0)
        waiter.join(timeout=60)
        self.assertFalse(waiter.is_alive())
        self.assertNotIn("Messages", result["reply"])

    def test_errors_asTheSdkSurfacesThem(self):
        missing = self.server.endpoint + "/000000000000/missing"
        code = self.error_code(self.sqs.send_message, QueueUrl=missing, MessageBody="x")
        self.assertIn(code, ("AWS.SimpleQueueService.NonExistentQueue", "QueueDoesNotExist"))
        url = self.sqs.create_queue(QueueName="limits")["QueueUrl"]
        self.assertEqual(self.error_code(self.sqs.receive_message, QueueUrl=url, MaxNumberOfMessages=11),
                         "InvalidParameterValue")
        self.assertEqual(self.error_code(self.sqs.change_message_visibility, QueueUrl=url,
                                         ReceiptHandle="nonsense", VisibilityTimeout=5), "ReceiptHandleIsInvalid")
        self.assertEqual(self.error_code(self.sqs.create_queue, QueueName="bad name!"), "InvalidParameterValue")
        self.assertEqual(self.error_code(self.sqs.send_message, QueueUrl=url, MessageBody="x" * (256 * 1024 + 1)),
                         "InvalidParameterValue")
        # None of it changed anything.
        attributes = self.sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["ApproximateNumberOfMessages"])
        self.assertEqual(attributes["Attributes"]["ApproximateNumberOfMessages"], "0")
        self.assertEqual(self.sqs.list_queues()["QueueUrls"], [url])

    def test_purgeAndTags(self):
        url = self.sqs.create_queue(QueueName="tagged", tags={"team": "core"})["QueueUrl"]
        self.sqs.tag_queue(QueueUrl=url, Tags={"env": "dev"})
        self.assertEqual(self.sqs.list_queue_tags(QueueUrl=url)["Tags"], {"team": "core", "env": "dev"})
        self.sqs.untag_queue(QueueUrl=url, TagKeys=["team"])
        self.assertEqual(self.sqs.list_queue_tags(QueueUrl=url)["Tags"], {"env": "dev"})
        self.sqs.send_message(QueueUrl=url, MessageBody="x")
        self.sqs.purge_queue(QueueUrl=url)
        self.assertEqual(self.error_code(self.sqs.purge_queue, QueueUrl=url),
                         "AWS.SimpleQueueService.PurgeQueueInProgress")
        self.assertNotIn("Messages", self.sqs.receive_message(QueueUrl=url))


if __name__ == "__main__":
    print("boto3 with botocore", botocore.__version__)
    unittest.main(verbosity=2)
