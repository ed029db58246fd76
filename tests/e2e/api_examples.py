# SPDX-License-Identifier: MIT
"""Runs the curl examples of core/net/README.md against a fresh server.

Each ```sh block runs with RELAYDESK set to the server's URL; its output must
be JSON, and when a ```json block follows, the answer must have the same keys
(recursively for objects; the first element for non-empty lists). Values are
not compared: ids and times differ from run to run.
"""
import json
import os
import re
import subprocess
import sys

from relaydesk_harness import RelaydeskServer, binary_from_environment

README = os.path.join(os.path.dirname(__file__), "..", "..", "core", "net", "README.md")


def blocks(text):
    return [(kind, body) for kind, body in re.findall(r"```(\w+)\n(.*?)```", text, re.S)]


def same_shape(expected, got, path="$"):
    if isinstance(expected, dict):
        if not isinstance(got, dict):
            return "%s: expected an object, got %r" % (path, got)
        missing = set(expected) - set(got)
        extra = set(got) - set(expected)
        if missing or extra:
            return "%s: keys differ: missing %s, unexpected %s" % (path, sorted(missing), sorted(extra))
        for key in expected:
            problem = same_shape(expected[key], got[key], path + "." + key)
            if problem:
                return problem
    elif isinstance(expected, list) and expected:
        if not isinstance(got, list) or not got:
            return "%s: expected a non-empty list, got %r" % (path, got)
        return same_shape(expected[0], got[0], path + "[0]")
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
            try:
                answer = json.loads(output)
            except ValueError:
                print("FAIL example %d: not JSON: %r (stderr %r)\n%s" % (count, output, run.stderr, body))
                failures += 1
                continue
            if index + 1 < len(examples) and examples[index + 1][0] == "json":
                problem = same_shape(json.loads(examples[index + 1][1]), answer)
                if problem:
                    print("FAIL example %d: %s\n%s\ngot %s" % (count, problem, body, output))
                    failures += 1
                    continue
            print("ok example %d: %s" % (count, body.splitlines()[0][:100]))
    print("%d examples, %d failed" % (count, failures))
    return 1 if failures or count == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
