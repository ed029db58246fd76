# SPDX-License-Identifier: MIT
"""Runs the `relaydesk policy` examples of README.md's console blocks as shown.

    readme_console.py README.md          (RELAYDESK_BINARY names the program)

In each ```console block, a line `$ relaydesk policy ...` runs from the
checkout's root (so `resources/examples/...` paths work as written) and its
output (stdout then stderr) must be the lines that follow, up to the next `$`;
`$ echo $?` checks the exit status of the command before it. Examples that
write files (`--out`) or whose output is abridged (has `...`) are not run.
"""
import os
import re
import shlex
import subprocess
import sys


def console_blocks(text):
    return re.findall(r"```console\n(.*?)```", text, re.S)


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
    if len(sys.argv) != 2:
        raise SystemExit("usage: readme_console.py README.md")
    binary = os.environ.get("RELAYDESK_BINARY") or sys.exit("RELAYDESK_BINARY is not set")
    readme = os.path.abspath(sys.argv[1])
    root = os.path.dirname(readme)
    environment = dict(os.environ)
    environment.pop("DISPLAY", None)
    environment.pop("WAYLAND_DISPLAY", None)
    ran = failures = 0
    last_status = None
    for block in console_blocks(open(readme, encoding="utf-8").read()):
        for command, expected in commands(block):
            if command == "echo $?":
                if last_status is not None and [str(last_status)] != expected:
                    print("FAIL: exit status %s, README shows %r" % (last_status, expected))
                    failures += 1
                continue
            last_status = None
            words = shlex.split(command)
            if words[:2] != ["relaydesk", "policy"] or "--out" in words or any("..." in l for l in expected):
                continue
            run = subprocess.run([binary] + words[1:], cwd=root, capture_output=True, text=True,
                                 env=environment, timeout=60)
            ran += 1
            last_status = run.returncode
            got = (run.stdout + run.stderr).rstrip("\n").split("\n")
            if got != expected:
                print("FAIL: $ %s\nREADME shows:\n%s\nthe program printed:\n%s" % (
                    command, "\n".join(expected), "\n".join(got)))
                failures += 1
            else:
                print("ok: $ %s" % command)
    print("%d README examples run, %d failed" % (ran, failures))
    return 1 if failures or ran == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
