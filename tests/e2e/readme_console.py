# SPDX-License-Identifier: MIT
"""Runs the `relaydesk policy` examples of the documents' console blocks as shown.

    readme_console.py README.md docs/policies.md ...   (RELAYDESK_BINARY names the program)

In each ```console block of each document, in the order given, a line
`$ relaydesk policy ...` runs from the checkout's root (so
`resources/examples/...` paths work as written, whichever folder the document
is in) and its output (stdout then stderr) must be the lines that follow, up
to the next `$`; `$ echo $?` checks the exit status of the command before it.
Examples that write files (`--out`) or whose output is abridged (has `...`)
are not run.
"""
import os
import re
import shlex
import subprocess
import sys


ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def console_blocks(text):
    return re.findall(r"```console\n(.*?)```", text, re.S)


def document_blocks(paths):
    """The console blocks of every document, in the order given."""
    return [block for path in paths for block in console_blocks(open(path, encoding="utf-8").read())]


def commands(block):
    """(command, expected output lines) pairs of one console block."""
    pairs = []
    for line in block.splitlines():
        if line.startswith("$ "):
            pairs.append((line[2:], []))
        elif pairs:
            pairs[-1][1].append(line)
    return pairs


def main():
    if len(sys.argv) < 2:
        raise SystemExit("usage: readme_console.py DOCUMENT.md...")
    binary = os.environ.get("RELAYDESK_BINARY") or sys.exit("RELAYDESK_BINARY is not set")
    environment = dict(os.environ)
    environment.pop("DISPLAY", None)
    environment.pop("WAYLAND_DISPLAY", None)
    ran = failures = 0
    last_status = None
    for path in sys.argv[1:]:
        if not document_blocks([path]):
            print("FAIL: %s has no console block" % path)
            failures += 1
    for block in document_blocks(sys.argv[1:]):
        for command, expected in commands(block):
            if command == "echo $?":
                if last_status is not None and [str(last_status)] != expected:
                    print("FAIL: exit status %s, the document shows %r" % (last_status, expected))
                    failures += 1
                continue
            last_status = None
            words = shlex.split(command)
            if words[:2] != ["relaydesk", "policy"] or "--out" in words or any("..." in l for l in expected):
                continue
            run = subprocess.run([binary] + words[1:], cwd=ROOT, capture_output=True, text=True,
                                 env=environment, timeout=60)
            ran += 1
            last_status = run.returncode
            got = (run.stdout + run.stderr).rstrip("\n").split("\n")
            if got != expected:
                print("FAIL: $ %s\nthe document shows:\n%s\nthe program printed:\n%s" % (
                    command, "\n".join(expected), "\n".join(got)))
                failures += 1
            else:
                print("ok: $ %s" % command)
    print("%d documented examples run, %d failed" % (ran, failures))
    return 1 if failures or ran == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
