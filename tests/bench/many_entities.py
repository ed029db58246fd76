#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""What many queues cost the other requests (docs/figures.md "Many entities").

    many_entities.py N RELAYDESK            each heavy route, with one SendMessage
                                            sent while it runs
    many_entities.py --latency N RELAYDESK  40 single sends, median and max

Starts `RELAYDESK serve` on a new database in a temporary folder and imports N
queues in config documents of 10 000 (the most one document may hold).
A benchmark: never run by CTest; the figures depend on the machine's load.
"""
import json
import re
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

DOCUMENT = 10_000


class Broker:
    def __init__(self, binary, folder):
        self.process = subprocess.Popen(
            [binary, "serve", "--db", folder + "/many.db", "--port", "0", "--amqp-port", "off", "--amqps-port", "off", "--sb-management-port", "off"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        line = ""
        while "listening on http" not in line:
            line = self.process.stdout.readline()
            if not line:
                sys.exit("serve ended: " + str(self.process.wait()))
        self.url = re.search(r"(http://\S+)", line).group(1).rstrip("/")

    def request(self, method, path, body=None, content_type="application/json"):
        """(seconds, body) of one request."""
        headers = {"Content-Type": content_type} if body is not None else {}
        started = time.monotonic()
        with urllib.request.urlopen(urllib.request.Request(self.url + path, data=body, method=method,
                                                           headers=headers), timeout=600) as reply:
            data = reply.read()
        return time.monotonic() - started, data

    def send(self):
        body = f"Action=SendMessage&QueueUrl={self.url}/000000000000/q000001&MessageBody=x".encode()
        return self.request("POST", "/", body, "application/x-www-form-urlencoded")[0]

    def import_queues(self, prefix, first, count):
        queues = [{"name": f"{prefix}{i:06d}"} for i in range(first, first + count)]
        return self.request("POST", "/api/v1/config", json.dumps({"version": 1, "queues": queues}).encode())[0]

    def stop(self):
        self.process.terminate()
        self.process.wait()


def while_running(broker, heavy):
    """Runs heavy() on a thread; returns (its result, a send's seconds meanwhile)."""
    result = {}
    thread = threading.Thread(target=lambda: result.setdefault("value", heavy()))
    thread.start()
    time.sleep(0.05)
    sent = broker.send()
    thread.join()
    return result["value"], sent


def main():
    latency = sys.argv[1] == "--latency"
    count, binary = int(sys.argv[1 + latency]), sys.argv[2 + latency]
    with tempfile.TemporaryDirectory() as folder:
        broker = Broker(binary, folder)
        try:
            seconds = sum(broker.import_queues("q", first, min(DOCUMENT, count - first))
                          for first in range(0, count, DOCUMENT))
            print(f"import of {count} queues in documents of {DOCUMENT}: {seconds:.2f} s")
            broker.request("GET", "/api/v1/metrics")  # the first depth read of every queue
            if latency:
                sends = sorted(broker.send() for _ in range(40))
                print(f"SendMessage with {count} queues: median {sends[20] * 1000:.1f} ms, max {sends[-1] * 1000:.1f} ms")
                return
            for path in ("/api/v1/metrics", "/metrics", "/api/v1/queues"):
                (seconds, body), sent = while_running(broker, lambda: broker.request("GET", path))
                print(f"GET {path}: {seconds:.2f} s, {len(body) / 1e6:.1f} MB; "
                      f"SendMessage meanwhile {sent * 1000:.0f} ms")
            seconds, sent = while_running(broker, lambda: broker.import_queues("r", 0, DOCUMENT))
            print(f"import of {DOCUMENT} more: {seconds:.2f} s; SendMessage meanwhile {sent * 1000:.0f} ms")
        finally:
            broker.stop()


if __name__ == "__main__":
    main()
