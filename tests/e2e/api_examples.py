# SPDX-License-Identifier: MIT
"""Runs the curl examples of docs/api.md against a fresh server.

Each ```sh block runs with RELAYDESK set to the server's URL; its output must
be JSON, and when a ```json block follows, the answer must be that document:
the same keys and the same values, with these allowances for what differs from
run to run (stated in docs/api.md too):
  - "…" stands for any value; a text with "…" in it for any text with the
    same beginning and end (an ARN with an id, a PEM);
  - a list whose last element is "…" may go on with more elements;
  - a time stands for any time of the same kind: an ISO-8601 text, a number
    of epoch milliseconds, a text of 10 digits (epoch seconds);
  - http://127.0.0.1:9911 (the default port) stands for the server's URL.
An ```sh block followed by a ```text block (GET /metrics, Prometheus text)
must print exactly those lines instead of JSON.
"""
import json
import os
import re
import subprocess
import sys

from relaydesk_harness import RelaydeskServer, binary_from_environment

README = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "api.md")


def blocks(text):
    return [(kind, body) for kind, body in re.findall(r"```(\w+)\n(.*?)```", text, re.S)]


ISO_TIME = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$")
EPOCH_SECONDS = re.compile(r"^\d{10}$")
DOCUMENTED_URL = "http://127.0.0.1:9911"


def is_time(value):
    if isinstance(value, str):
        return bool(ISO_TIME.match(value) or EPOCH_SECONDS.match(value))
    return isinstance(value, int) and not isinstance(value, bool) and value >= 10 ** 12


def same_document(expected, got, endpoint, path="$"):
    """None when got is what the documentation shows (see the module's rules), else the difference."""
    if expected == "\u2026":
        return None
    if isinstance(expected, str) and DOCUMENTED_URL in expected:
        expected = expected.replace(DOCUMENTED_URL, endpoint)
    if isinstance(expected, str) and "\u2026" in expected:
        head, _, tail = expected.partition("\u2026")
        if isinstance(got, str) and got.startswith(head) and got.endswith(tail) and len(got) >= len(head + tail):
            return None
        return "%s: expected %r, got %r" % (path, expected, got)
    if is_time(expected):
        return None if is_time(got) and type(got) is type(expected) else "%s: expected a time, got %r" % (path, got)
    if isinstance(expected, dict):
        if not isinstance(got, dict):
            return "%s: expected an object, got %r" % (path, got)
        missing = set(expected) - set(got)
        extra = set(got) - set(expected)
        if missing or extra:
            return "%s: keys differ: missing %s, unexpected %s" % (path, sorted(missing), sorted(extra))
        for key in expected:
            problem = same_document(expected[key], got[key], endpoint, path + "." + key)
            if problem:
                return problem
        return None
    if isinstance(expected, list):
        if not isinstance(got, list):
            return "%s: expected a list, got %r" % (path, got)
        open_ended = bool(expected) and expected[-1] == "\u2026"
        shown = expected[:-1] if open_ended else expected
        if len(got) < len(shown) or (not open_ended and len(got) != len(shown)):
            return "%s: expected %d elements%s, got %d: %r" % (path, len(shown), " or more" if open_ended else "",
                                                               len(got), got)
        for index, element in enumerate(shown):
            problem = same_document(element, got[index], endpoint, "%s[%d]" % (path, index))
            if problem:
                return problem
        return None
    if expected != got or type(expected) is not type(got):
        return "%s: expected %r, got %r" % (path, expected, got)
    return None


def main():
    examples = blocks(open(README, encoding="utf-8").read())
    failures = 0
    count = 0
    with RelaydeskServer(binary_from_environment()) as server:
        environment = dict(os.environ, RELAYDESK=server.endpoint)
        for index, (kind, body) in enumerate(examples):
            if kind != "sh":
                continue
            count += 1
            run = subprocess.run(["bash", "-euo", "pipefail", "-c", body], capture_output=True, text=True,
                                 env=environment, timeout=60)
            output = run.stdout.strip()
            if index + 1 < len(examples) and examples[index + 1][0] == "text":
                if output.splitlines() != examples[index + 1][1].strip().splitlines():
                    print("FAIL example %d: expected\n%s\ngot\n%s\n%s" % (count, examples[index + 1][1].strip(),
                                                                        output, body))
                    failures += 1
                else:
                    print("ok example %d: %s" % (count, body.splitlines()[0][:100]))
                continue
            try:
                answer = json.loads(output)
            except ValueError:
                print("FAIL example %d: not JSON: %r (stderr %r)\n%s" % (count, output, run.stderr, body))
                failures += 1
                continue
            if index + 1 < len(examples) and examples[index + 1][0] == "json":
                problem = same_document(json.loads(examples[index + 1][1]), answer, server.endpoint)
                if problem:
                    print("FAIL example %d: %s\n%s\ngot %s" % (count, problem[:2000], body, output[:4000]))
                    failures += 1
                    continue
            print("ok example %d: %s" % (count, body.splitlines()[0][:100]))
    print("%d examples, %d failed" % (count, failures))
    return 1 if failures or count == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
