# SPDX-License-Identifier: MIT
"""The broker under the soak: `relaydesk serve` on one database file and one
port, SIGKILLed at seeded random intervals and restarted on the same file at
once. Logs `kill` (the moment of the SIGKILL) and `ready` (the moment the
ready line was read) events: between a kill and the next ready the broker is
down, which the checker uses to excuse late delivery attempts."""
import os
import random
import signal
import subprocess
import threading
import time


class KilledBroker:
    def __init__(self, binary, db, port, log, run_dir, extra_args=()):
        self._binary = binary
        self._db = db
        self._port = port
        self._log = log
        self._stderr = open(os.path.join(run_dir, "broker.stderr"), "ab")
        self._extra = list(extra_args)
        self._process = None
        self.kills = 0
        self.starts = 0

    @property
    def url(self):
        return "http://127.0.0.1:%d" % self._port

    def start(self):
        """Starts serve and returns once it printed its ready line."""
        args = [self._binary, "serve", "--db", self._db, "--port", str(self._port),
                "--amqp-port", "off", "--amqps-port", "off", "--sb-management-port", "off"] + self._extra
        for _ in range(50):
            self._process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=self._stderr)
            line = self._process.stdout.readline().decode()
            if line.startswith("relaydesk: listening on http://"):
                self.starts += 1
                self._log.write("ready", pid=self._process.pid, n=self.starts)
                threading.Thread(target=self._process.stdout.read, daemon=True).start()
                return
            # The port of the killed process may still be held for a moment.
            self._process.wait()
            self._log.write("start_failed", code=self._process.returncode)
            time.sleep(0.2)
        raise RuntimeError("relaydesk serve did not start; see broker.stderr")

    def kill(self):
        self._process.send_signal(signal.SIGKILL)
        self._log.write("kill", pid=self._process.pid)
        self.kills += 1
        self._process.wait()

    def kill_loop(self, stop, seed, low=30.0, high=60.0):
        """Until STOP is set: wait LOW..HIGH s (seeded), SIGKILL, restart."""
        rng = random.Random(seed)
        while not stop.wait(rng.uniform(low, high)):
            self.kill()
            self.start()

    def stop(self):
        """Ends the broker as a user would (SIGTERM, everything committed)."""
        self._process.send_signal(signal.SIGTERM)
        self._process.wait()
        self._log.write("stopped", code=self._process.returncode)
