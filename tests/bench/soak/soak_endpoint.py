# SPDX-License-Identifier: MIT
"""The flaky HTTP subscriber of the soak: answers a notification with 500 at
the failure rate (seeded) and 200 otherwise; once `drain()` is called it
answers 200 to everything. Every request is logged as an `http` event with
the `x-amz-sns-message-id`, its message type and the status answered."""
import random
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class FlakyEndpoint:
    def __init__(self, log, failure_rate, seed):
        self._log = log
        self._failure_rate = failure_rate
        self._random = random.Random(seed)
        self._lock = threading.Lock()
        self._draining = False
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                self.rfile.read(length)
                status = endpoint._status()
                endpoint._log.write("http", id=self.headers.get("x-amz-sns-message-id"),
                                    type=self.headers.get("x-amz-sns-message-type"),
                                    status=status)
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        class Server(ThreadingHTTPServer):
            def handle_error(self, request, client_address):
                # The broker killed while its request was on the way: logged, not printed.
                endpoint._log.write("http_reset")

        self._server = Server(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.url = "http://127.0.0.1:%d/hook" % self._server.server_address[1]
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def _status(self):
        with self._lock:
            if self._draining:
                return 200
            return 500 if self._random.random() < self._failure_rate else 200

    def start(self):
        self._thread.start()

    def drain(self):
        with self._lock:
            self._draining = True

    def stop(self):
        self._server.shutdown()
