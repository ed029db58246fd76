# SPDX-License-Identifier: MIT
"""Bulk expiry and purge through the real port with Debian's boto3
(docs/reliability.md "Bulk removals"), on a database file as users run it.

The defect this guards: a queue with MessageRetentionPeriod=60 and 3 000
messages sent by SendMessageBatch; after the virtual clock moved 61 s every
ReceiveMessage answered InternalError ("database or disk is full", with the
SQL statement in the text) while the counts still showed the messages. Now
the receive answers, the counts follow at once (the clock advance answers
after the expiry's chunks ran), a new message is received, and a purge of
thousands answers and empties the queue. No error a client sees carries SQL.
RELAYDESK_BINARY names the binary.
"""
import os
import tempfile
import unittest

from relaydesk_harness import RelaydeskServer, binary_from_environment

BINARY = binary_from_environment()


def send_batches(sqs, url, count):
    for start in range(0, count, 10):
        entries = [{"Id": str(i), "MessageBody": "message %d" % (start + i)} for i in range(min(10, count - start))]
        reply = sqs.send_message_batch(QueueUrl=url, Entries=entries)
        assert not reply.get("Failed"), reply


def visible(sqs, url):
    attributes = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["ApproximateNumberOfMessages"])
    return int(attributes["Attributes"]["ApproximateNumberOfMessages"])


class BulkRemovalScenarios(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.server = RelaydeskServer(BINARY, database=os.path.join(self.folder.name, "bulk.db")).__enter__()
        self.sqs = self.server.client("sqs")

    def tearDown(self):
        self.server.__exit__(None, None, None)
        self.assertNotIn("storage failure: disk full", self.server.errors)
        self.folder.cleanup()

    def test_expiryOfThousands_receiveAnswersCountsFollow(self):
        for count in (3000, 20000):
            with self.subTest(count=count):
                url = self.sqs.create_queue(QueueName="short-%d" % count,
                                            Attributes={"MessageRetentionPeriod": "60"})["QueueUrl"]
                send_batches(self.sqs, url, count)
                self.assertEqual(visible(self.sqs, url), count)
                self.server.advance(61)
                self.assertEqual(visible(self.sqs, url), 0)
                reply = self.sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10)
                self.assertEqual(reply.get("Messages", []), [])
                self.sqs.send_message(QueueUrl=url, MessageBody="after")
                reply = self.sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10)
                self.assertEqual([m["Body"] for m in reply["Messages"]], ["after"])

    def test_purgeOfThousands_answersAndEmpties(self):
        url = self.sqs.create_queue(QueueName="full")["QueueUrl"]
        send_batches(self.sqs, url, 3000)
        self.sqs.purge_queue(QueueUrl=url)
        self.assertEqual(visible(self.sqs, url), 0)
        self.assertEqual(self.sqs.receive_message(QueueUrl=url).get("Messages", []), [])


if __name__ == "__main__":
    unittest.main(verbosity=2)
