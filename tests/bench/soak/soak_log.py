# SPDX-License-Identifier: MIT
"""The soak's event logs: one JSON object a line, appended and flushed per
event, so a log read after any stop holds every event written before it.
Every client, the endpoint and the broker supervisor write their own file in
the run folder; the checker reads them all (`read_events`)."""
import glob
import json
import os
import threading
import time


class EventLog:
    """Appends events ({"ev": KIND, "t": wall seconds, ...}) to PATH."""

    def __init__(self, path):
        self._file = open(path, "a", buffering=1)
        self._lock = threading.Lock()

    def write(self, ev, **fields):
        fields["ev"] = ev
        fields.setdefault("t", time.time())
        line = json.dumps(fields, separators=(",", ":"))
        with self._lock:
            self._file.write(line + "\n")
            self._file.flush()

    def close(self):
        self._file.close()


def read_events(run_dir):
    """Every event of every log in RUN_DIR/logs; a torn last line is skipped."""
    events = []
    for path in sorted(glob.glob(os.path.join(run_dir, "logs", "*.jsonl"))):
        source = os.path.basename(path)[:-len(".jsonl")]
        with open(path) as f:
            for line in f:
                try:
                    event = json.loads(line)
                except ValueError:
                    continue
                event["src"] = source
                events.append(event)
    return events
