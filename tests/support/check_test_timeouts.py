#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Fails when a CTest test of the build has no TIMEOUT property.

    check_test_timeouts.py CTEST BUILD_DIR

Reads `ctest --show-only=json-v1` (every test with its properties) and names
each test without a TIMEOUT: a hung test must fail in minutes, not hold a run
for CTest's default 1500 s (tests/CMakeLists.txt, RELAYDESK_TEST_TIMEOUT).
"""
import json
import subprocess
import sys


def main(ctest, build_dir):
    listing = subprocess.run([ctest, "--test-dir", build_dir, "--show-only=json-v1"],
                             check=True, capture_output=True, text=True).stdout
    tests = json.loads(listing)["tests"]
    missing = [test["name"] for test in tests
               if not any(p["name"] == "TIMEOUT" and float(p["value"]) > 0 for p in test.get("properties", []))]
    for name in missing:
        print("%s: no TIMEOUT" % name)
    print("%d tests, %d without a TIMEOUT" % (len(tests), len(missing)))
    return 1 if missing or not tests else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
