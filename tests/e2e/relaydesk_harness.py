# SPDX-License-Identifier: MIT
"""Starts `relaydesk serve` for an end-to-end test and drives its clock.

Usage in a test script:
    with RelaydeskServer(binary) as server:
        sqs = server.client("sqs")
        server.advance(30)           # virtual clock: POST /api/v1/clock/advance
        server.await_waiting_receives("orders", 1)   # a long poll waits on the broker
The server runs with --port 0 --db :memory: --clock virtual unless told
otherwise, is stopped with SIGTERM at the end, and must exit with status 0.
"""
import json
import os
import signal
import subprocess
import time
import urllib.parse
import urllib.request


class RelaydeskServer:
    def __init__(self, binary, *extra_args, database=":memory:"):
        self.binary = binary
        self.args = ["serve", "--port", "0", "--amqp-port", "0", "--amqps-port", "off", "--sb-management-port", "0", "--db", database, "--clock", "virtual",
                     *extra_args]
        self.process = None
        self.endpoint = None
        self.errors = ""

    def __enter__(self):
        self.process = subprocess.Popen([self.binary, *self.args], stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True)
        line = self.process.stdout.readline().strip()
        prefix = "relaydesk: listening on "
        if not line.startswith(prefix):
            self.process.kill()
            raise RuntimeError("no ready line, got %r; stderr: %s" % (line, self.process.stderr.read()))
        self.endpoint = line[len(prefix):]
        return self

    def __exit__(self, kind, value, traceback):
        self.process.send_signal(signal.SIGTERM)
        status = self.process.wait(timeout=30)
        errors = self.process.stderr.read()
        self.errors = errors   # what it logged, for tests that read it after the stop
        self.process.stdout.close()
        self.process.stderr.close()
        if kind is None and status != 0:
            raise RuntimeError("relaydesk serve exited with %d: %s" % (status, errors))
        return False

    def client(self, service):
        # boto3 is imported here: the Service Bus SDK tests run this harness in a
        # virtual environment of their own, without boto3.
        import boto3
        from botocore.config import Config
        return boto3.client(service, endpoint_url=self.endpoint, region_name="us-east-1",
                            aws_access_key_id="test", aws_secret_access_key="test",
                            config=Config(retries={"max_attempts": 1}))

    def api(self, method, path, body=None):
        """Calls the native API; returns (status, parsed JSON)."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.endpoint + "/api/v1" + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=60) as reply:
                return reply.status, json.loads(reply.read() or b"{}")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"{}")

    def advance(self, seconds):
        status, clock = self.api("POST", "/clock/advance", {"seconds": seconds})
        assert status == 200, clock
        return clock

    def waiting_receives(self, queue):
        """The receives waiting on `queue` now, as the broker counts them
        (GET /api/v1/queues/NAME `waitingReceives`)."""
        status, queue_json = self.api("GET", "/queues/" + urllib.parse.quote(queue, safe=""))
        assert status == 200, queue_json
        return queue_json["waitingReceives"]

    def await_waiting_receives(self, queue, count, bound_seconds=60):
        """Returns once `count` receives wait on `queue`: a long poll sent from
        another thread has reached the broker and waits. The bound only ends a
        hang, with an AssertionError."""
        deadline = time.monotonic() + bound_seconds
        while (waiting := self.waiting_receives(queue)) != count:
            assert time.monotonic() < deadline, "%s: %d receives waiting, never %d" % (queue, waiting, count)


def binary_from_environment():
    binary = os.environ.get("RELAYDESK_BINARY")
    if not binary:
        raise SystemExit("RELAYDESK_BINARY is not set")
    return binary


def read_until_closed(sock):
    """Everything a socket receives until the far end closes it (a reset
    after its answer counts as closed); the socket's timeout bounds each wait."""
    data = b""
    while True:
        try:
            part = sock.recv(65536)
        except ConnectionResetError:
            return data
        if not part:
            return data
        data += part
