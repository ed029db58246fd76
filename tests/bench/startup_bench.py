#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""How long `relaydesk serve` takes to start on a large database
(docs/figures.md "Start-up with a large database").

    startup_bench.py RELAYDESK [MESSAGES [RETRIES [STARTS]]]

Makes a database in a temporary folder through `RELAYDESK serve` (a queue
`big`, a topic `t` with an HTTP subscription to a closed port), stops it, then
adds MESSAGES stored messages (default 1 000 000) to `big` and RETRIES pending
deliveries (default 100 000, attempt 3, due in an hour) straight into the file
with Python's sqlite3 — the rows a busy broker would have left. Then starts
`RELAYDESK serve` STARTS times (default 5) and prints, for each, the seconds
from exec to the "listening on http" line and the resident size then, and
the time of SQLite's `PRAGMA quick_check(3)` on the same file. The first
start finds a file written by another program (no clean-close seal), so it
runs the check; later starts follow a clean close and may skip it
(docs/reliability.md, "The store"). A benchmark: never run by CTest.
"""
import json
import os
import re
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request


def start(binary, database):
    """(process, url, seconds to the ready line)."""
    started = time.monotonic()
    process = subprocess.Popen([binary, "serve", "--db", database, "--port", "0", "--amqp-port", "off", "--amqps-port", "off", "--sb-management-port", "off"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    line = ""
    while "listening on http" not in line:
        line = process.stdout.readline()
        if not line:
            sys.exit("serve ended: " + str(process.wait()))
    return process, re.search(r"(http://\S+)", line).group(1).rstrip("/"), time.monotonic() - started


def resident_mib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def stop(process):
    process.send_signal(signal.SIGTERM)
    process.wait()


def populate(binary, database, messages, retries):
    process, url, _ = start(binary, database)
    document = {"version": 1, "queues": [{"name": "big"}],
                "topics": [{"name": "t", "subscriptions": [{"protocol": "http", "endpoint": "http://127.0.0.1:9/none"}]}]}
    request = urllib.request.Request(url + "/api/v1/config", data=json.dumps(document).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    urllib.request.urlopen(request, timeout=60).read()
    stop(process)

    db = sqlite3.connect(database, isolation_level=None)
    db.execute("PRAGMA foreign_keys=ON")
    (queue,) = db.execute("SELECT id FROM queues WHERE name = 'big'").fetchone()
    (subscription,) = db.execute("SELECT id FROM subscriptions").fetchone()
    now = int(time.time() * 1000)
    body = "x" * 256
    db.execute("BEGIN")
    db.executemany(
        "INSERT INTO messages (message_id, queue_id, body, sent_ms, enqueued_ms, visible_at_ms, expires_at_ms) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        ((f"{i:08x}-0000-4000-8000-{i * 7919:012x}", queue, body, now, now, now, now + 345_600_000)
         for i in range(messages)))
    # The writer's share of the queue's depth counters (broker/queues/queue_depths.h):
    # every message stored and visible now, counted at the mark `now`.
    db.execute("UPDATE queues SET depth_stored = ?, depth_mark_ms = ? WHERE id = ?", (messages, now, queue))
    db.executemany(
        "INSERT INTO published_messages (id, message_id, topic_name, body, published_ms) VALUES (?, ?, 't', ?, ?)",
        ((i + 1, f"p{i:08x}-0000-4000-8000-000000000000", body, now) for i in range(retries)))
    db.executemany(
        "INSERT INTO pending_deliveries (subscription_id, published_id, attempt, due_ms, first_attempt_ms) "
        "VALUES (?, ?, 3, ?, ?)",
        ((subscription, i + 1, now + 3_600_000, now) for i in range(retries)))
    db.execute("COMMIT")
    db.close()


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    binary = sys.argv[1]
    messages = int(sys.argv[2]) if len(sys.argv) > 2 else 1_000_000
    retries = int(sys.argv[3]) if len(sys.argv) > 3 else 100_000
    starts = int(sys.argv[4]) if len(sys.argv) > 4 else 5
    with tempfile.TemporaryDirectory(dir=os.environ.get("TMPDIR", "/tmp")) as folder:
        database = folder + "/startup.db"
        populate(binary, database, messages, retries)
        size = os.path.getsize(database) / (1 << 20)
        print(f"startup_bench: {messages} messages, {retries} pending deliveries, file {size:.0f} MiB, "
              f"load {os.getloadavg()[0]:.1f}")
        seconds = []
        for run in range(starts):
            process, url, took = start(binary, database)
            with urllib.request.urlopen(url + "/api/v1/queues/big", timeout=60) as reply:
                depth = json.load(reply)
            rss = resident_mib(process.pid)
            stop(process)
            seconds.append(took)
            print(f"  start {run + 1}: ready after {took:.3f} s, resident {rss:.0f} MiB, "
                  f"queue big: {json.dumps(depth)[:120]}")
        check = sqlite3.connect(database)
        started = time.monotonic()
        check.execute("PRAGMA quick_check(3)").fetchall()
        quick = time.monotonic() - started
        check.close()
        print(f"startup_bench: ready min {min(seconds):.3f} s, median {statistics.median(seconds):.3f} s, "
              f"max {max(seconds):.3f} s; PRAGMA quick_check(3) alone {quick:.3f} s")


if __name__ == "__main__":
    main()
