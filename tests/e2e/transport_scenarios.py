# SPDX-License-Identifier: MIT
"""HTTP/1.1 transport of `relaydesk serve` with raw sockets: what a hostile or simple client sees on the real port.
RELAYDESK_BINARY names the binary. No sleeps: every wait is for an answer
or for the server to close the connection.
"""
import json
import os
import socket
import stat
import tempfile
import unittest

from relaydesk_harness import RelaydeskServer, binary_from_environment, read_until_closed

BINARY = binary_from_environment()
RECEIVE_TARGET = b"AmazonSQS.ReceiveMessage"


def json_request(target, body):
    payload = json.dumps(body).encode()
    return (b"POST / HTTP/1.1\r\nHost: localhost\r\nX-Amz-Target: " + target +
            b"\r\nContent-Type: application/x-amz-json-1.0\r\nContent-Length: " +
            str(len(payload)).encode() + b"\r\n\r\n" + payload)


def api_request(method, path, body=None, extra=b""):
    payload = b"" if body is None else json.dumps(body).encode()
    return (method.encode() + b" /api/v1" + path.encode() + b" HTTP/1.1\r\nHost: localhost\r\n" + extra +
            b"Content-Type: application/json\r\nContent-Length: " + str(len(payload)).encode() +
            b"\r\n\r\n" + payload)


class Connection:
    def __init__(self, server):
        host, port = server.endpoint[len("http://"):].rsplit(":", 1)
        self.sock = socket.create_connection((host, int(port)), timeout=60)

    def send(self, data):
        self.sock.sendall(data)

    def read_until_closed(self):
        """Everything until the server closes (a reset after its answer counts as closed)."""
        return read_until_closed(self.sock)

    def read_answers(self, count):
        """Reads `count` complete answers (Content-Length framed); returns [(status line, headers, body)]."""
        data, answers = b"", []
        while len(answers) < count:
            head_end = data.find(b"\r\n\r\n")
            if head_end >= 0:
                head = data[:head_end].decode("latin-1").split("\r\n")
                headers = {line.split(":", 1)[0].lower(): line.split(":", 1)[1].strip() for line in head[1:]}
                length = int(headers.get("content-length", "0"))
                if len(data) >= head_end + 4 + length:
                    answers.append((head[0], headers, data[head_end + 4:head_end + 4 + length]))
                    data = data[head_end + 4 + length:]
                    continue
            part = self.sock.recv(65536)
            if not part:
                raise AssertionError("closed after %d answers: %r" % (len(answers), data[:200]))
            data += part
        return answers

    def reset(self):
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
        self.sock.close()

    def close(self):
        self.sock.close()


class TransportScenarios(unittest.TestCase):
    def setUp(self):
        self.server = RelaydeskServer(BINARY).__enter__()

    def tearDown(self):
        self.server.__exit__(None, None, None)

    def connect(self):
        connection = Connection(self.server)
        self.addCleanup(connection.close)
        return connection

    def call(self, request):
        connection = self.connect()
        connection.send(request)
        return connection.read_answers(1)[0]

    # Item 6
    def test_pipelinedRequests_answeredInRequestOrder(self):
        connection = self.connect()
        connection.send(b"".join(json_request(b"AmazonSQS.CreateQueue", {"QueueName": "q%d" % i}) for i in range(3)) +
                        api_request("GET", "/clock"))
        answers = connection.read_answers(4)
        for i in range(3):
            self.assertIn(b"/000000000000/q%d" % i, answers[i][2])
        self.assertIn(b"mode", answers[3][2])

    def test_pipelinedAfterLongPoll_answeredAfterIt(self):
        url = self.server.client("sqs").create_queue(QueueName="waited")["QueueUrl"]
        connection = self.connect()
        connection.send(json_request(RECEIVE_TARGET, {"QueueUrl": url, "WaitTimeSeconds": 20}) + api_request("GET", "/clock"))
        self.server.await_waiting_receives("waited", 1)   # the receive waits, the /clock behind it is owed
        self.call(api_request("POST", "/queues/waited/messages", {"body": "wakes the poll"}))
        answers = connection.read_answers(2)
        self.assertIn(b"wakes the poll", answers[0][2])   # the receive first, as asked
        self.assertIn(b"mode", answers[1][2])

    # Item 15
    def test_connectionClose_closedAfterTheAnswer(self):
        connection = self.connect()
        connection.send(api_request("GET", "/clock", extra=b"Connection: close\r\n") + api_request("GET", "/clock"))
        data = connection.read_until_closed()
        self.assertEqual(data.count(b"HTTP/1.1 200"), 1, data)
        self.assertIn(b"Connection: close\r\n", data)

    def test_http10_closedAfterTheAnswer(self):
        connection = self.connect()
        connection.send(b"GET /api/v1/clock HTTP/1.0\r\n\r\n")
        data = connection.read_until_closed()
        self.assertTrue(data.startswith(b"HTTP/1.1 200"), data)
        self.assertIn(b"Connection: close\r\n", data)

    def test_halfClosedClient_stillAnswered(self):
        connection = self.connect()
        connection.send(json_request(b"AmazonSQS.CreateQueue", {"QueueName": "half"}))
        connection.sock.shutdown(socket.SHUT_WR)
        data = connection.read_until_closed()
        self.assertTrue(data.startswith(b"HTTP/1.1 200"), data)
        self.assertIn(b"/000000000000/half", data)

    # Item 14
    def test_badFraming_refused400AndClosed(self):
        cases = [
            b"POST /api/v1/queues HTTP/1.1\r\nContent-Length: 18446744073709551616\r\n\r\n{}",
            b"POST /api/v1/queues HTTP/1.1\r\nContent-Length: -1\r\n\r\n{}",
            b"POST /api/v1/queues HTTP/1.1\r\nContent-Length: abc\r\n\r\n{}",
            b"POST /api/v1/queues HTTP/1.1\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}x",
            b"GET /api/v1/clock HTTP/1.1\r\nNo colon in this line\r\n\r\n",
            b"\x01\x02 not http at all\r\n\r\n",
        ]
        for request in cases:
            with self.subTest(request=request[:60]):
                connection = self.connect()
                connection.send(request)
                data = connection.read_until_closed()
                self.assertTrue(data.startswith(b"HTTP/1.1 400 "), data)
        status, queues = self.server.api("GET", "/queues")
        self.assertEqual((status, queues), (200, {"queues": []}))

    # Item 2
    def test_declaredLengthOverLimit_refusedBeforeTheBody(self):
        connection = self.connect()
        connection.send(b"POST / HTTP/1.1\r\nHost: localhost\r\nX-Amz-Target: AmazonSQS.SendMessage\r\n"
                        b"Content-Type: application/x-amz-json-1.0\r\nContent-Length: 4000000000\r\n\r\n")
        data = connection.read_until_closed()   # answered with no byte of the body sent
        self.assertTrue(data.startswith(b"HTTP/1.1 413 "), data)
        self.assertIn(b"Connection: close\r\n", data)

    def test_chunkedBodyOverLimit_refusedAndClosed(self):
        connection = self.connect()
        connection.send(b"POST /api/v1/queues HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n")
        chunk = b"10000\r\n" + b"x" * 0x10000 + b"\r\n"
        try:
            for _ in range(200):   # 12.5 MiB unless the server stops reading first
                connection.send(chunk)
        except (BrokenPipeError, ConnectionResetError):
            pass
        data = connection.read_until_closed()
        self.assertTrue(data.startswith(b"HTTP/1.1 413 "), data)
        self.assertEqual(self.server.api("GET", "/queues"), (200, {"queues": []}))

    # Item 5
    def test_longPollWhoseClientReset_takesNothing(self):
        sqs = self.server.client("sqs")
        dead = sqs.create_queue(QueueName="dead")["QueueUrl"]
        arn = sqs.get_queue_attributes(QueueUrl=dead, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
        url = sqs.create_queue(QueueName="polled", Attributes={
            "RedrivePolicy": json.dumps({"deadLetterTargetArn": arn, "maxReceiveCount": "1"})})["QueueUrl"]
        poller = Connection(self.server)
        poller.send(json_request(RECEIVE_TARGET, {"QueueUrl": url, "WaitTimeSeconds": 20}))
        self.server.await_waiting_receives("polled", 1)   # the receive waits (the clock stands still)
        poller.reset()
        self.server.await_waiting_receives("polled", 0)   # the server has seen the reset: withdrawn
        sqs.send_message(QueueUrl=url, MessageBody="kept")
        got = sqs.receive_message(QueueUrl=url, AttributeNames=["ApproximateReceiveCount"]).get("Messages", [])
        self.assertEqual([m["Body"] for m in got], ["kept"])
        self.assertEqual(got[0]["Attributes"]["ApproximateReceiveCount"], "1")
        self.assertEqual(sqs.receive_message(QueueUrl=dead).get("Messages", []), [])


class DescriptorLimitScenarios(unittest.TestCase):
    """Item 3: with `ulimit -n 300` (soft and hard), connections beyond the cap
    (300 less 128 kept for files) are refused with a 503 and the broker keeps
    answering."""

    def test_connectionsBeyondTheCap_refusedAndBrokerAnswers(self):
        with tempfile.TemporaryDirectory() as work:
            wrapper = os.path.join(work, "relaydesk-limited")
            with open(wrapper, "w") as script:
                script.write('#!/bin/sh\nulimit -n 300\nexec "%s" "$@"\n' % BINARY)
            os.chmod(wrapper, stat.S_IRWXU)
            with RelaydeskServer(wrapper) as server:
                idle = [Connection(server) for _ in range(240)]
                refused = []
                for connection in idle[-60:]:     # the cap is 172: the last ones are beyond it
                    connection.sock.settimeout(60)
                    refused.append(connection.read_until_closed())
                self.assertTrue(all(data.startswith(b"HTTP/1.1 503 ") for data in refused), refused[:2])
                first = idle[0]
                first.send(api_request("GET", "/clock"))
                self.assertTrue(first.read_answers(1)[0][0].startswith("HTTP/1.1 200"))
                # The accepted ones leave by half-closing and reading the broker's close, so the
                # broker has let them go before the next request (a plain close races it).
                for connection in idle[:-60]:
                    connection.sock.shutdown(socket.SHUT_WR)
                    connection.read_until_closed()
                for connection in idle:
                    connection.close()
                status, _ = server.api("GET", "/clock")
                self.assertEqual(status, 200)


if __name__ == "__main__":
    unittest.main()
