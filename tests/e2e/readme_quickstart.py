# SPDX-License-Identifier: MIT
"""Runs the quick-start of README.md verbatim, as a newcomer types it.

    readme_quickstart.py README.md          (RELAYDESK_BINARY names the broker)

The blocks marked `<!-- quickstart: ... -->` are taken from README.md, so the
document and the test cannot drift. A block whose first line is `relaydesk
serve ...` is a server terminal: it is started as written and its ready line
must be the one the block shows (`# relaydesk: listening on ...`). Any other
block is the client terminal: its lines run one by one in one shell session
(what one line exports, the next sees), each must exit 0, and
  - `sqs create-queue` must answer the queue URL the later lines use;
  - `sqs receive-message` must return the body of the last `send-message`, or,
    with a comment saying `nothing`, no message; a quoted text in the comment
    names the expected body.
The README's fixed ports never collide with anything: the whole run happens in
a private network namespace (unshare --net) with only its own loopback.
"""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile

MARKER = "<!-- quickstart:"
NAMESPACE_FLAG = "RELAYDESK_QUICKSTART_NAMESPACE"


def quickstart_blocks(readme):
    text = open(readme, encoding="utf-8").read()
    pattern = re.escape(MARKER) + r"[^\n]*-->\n```sh\n(.*?)```"
    return [block.strip("\n").splitlines() for block in re.findall(pattern, text, re.S)]


def enter_private_network():
    """Re-runs this script in a new network namespace with its loopback up."""
    if os.environ.get(NAMESPACE_FLAG):
        subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
        return
    command = ["unshare", "--net"]
    if os.getuid() != 0:
        command.append("--map-root-user")
    environment = dict(os.environ, **{NAMESPACE_FLAG: "1"})
    os.execvpe(command[0], command + [sys.executable, *sys.argv], environment)


def json_documents(text):
    decoder = json.JSONDecoder()
    documents, position, text = [], 0, text.strip()
    while position < len(text):
        document, end = decoder.raw_decode(text, position)
        documents.append(document)
        position = end
        while position < len(text) and text[position].isspace():
            position += 1
    return documents


class Quickstart:
    def __init__(self, binary):
        self.servers = []
        self.environment = dict(os.environ, PATH=os.path.dirname(os.path.abspath(binary)) + os.pathsep
                                + os.environ["PATH"], AWS_PAGER="")
        for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_DEFAULT_REGION", "AWS_REGION",
                     "AWS_PROFILE", "AWS_CONFIG_FILE", "AWS_SHARED_CREDENTIALS_FILE"):
            self.environment.pop(name, None)   # only what the README sets counts
        self.home = tempfile.mkdtemp(prefix="quickstart-home-")
        self.environment["HOME"] = self.home  # no ~/.aws of this machine either
        self.last_body = None
        self.failures = 0

    def fail(self, message):
        print("FAIL: " + message)
        self.failures += 1

    def start_server(self, block):
        command, shown = block[0], [line for line in block[1:] if line.startswith("# relaydesk: listening on ")]
        process = subprocess.Popen(["bash", "-c", "exec " + command], stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True, env=self.environment)
        self.servers.append(process)
        ready = process.stdout.readline().strip()
        if not shown or ready != shown[0][2:]:
            self.fail("%s: ready line %r, README shows %r (stderr: %s)" % (command, ready, shown,
                      process.stderr.read() if process.poll() is not None else ""))
        else:
            print("ok: %s -> %s" % (command, ready))

    def run_line(self, line):
        command, _, comment = line.partition("   # ")
        with tempfile.NamedTemporaryFile(prefix="quickstart-env-") as saved:
            script = command + "\nenv -0 > " + saved.name
            run = subprocess.run(["bash", "-euo", "pipefail", "-c", script], capture_output=True, text=True,
                                 env=self.environment, timeout=120)
            if run.returncode != 0:
                self.fail("%s: exit %d: %s%s" % (command, run.returncode, run.stdout, run.stderr))
                return
            self.environment = dict(entry.split("=", 1) for entry in
                                    open(saved.name, encoding="utf-8").read().split("\0") if "=" in entry)
        self.check_answer(command, comment, run.stdout)

    def check_answer(self, command, comment, output):
        documents = json_documents(output)
        if " sqs create-queue " in command:
            name = re.search(r"--queue-name (\S+)", command).group(1)
            url = documents[0]["QueueUrl"] if documents else None
            if not url or not url.endswith("/000000000000/" + name):
                return self.fail("%s: answered %r" % (command, output))
        elif " sqs send-message " in command:
            self.last_body = re.search(r'--message-body "([^"]*)"', command).group(1)
        elif " sqs receive-message " in command:
            messages = documents[0].get("Messages", []) if documents else []
            quoted = re.search(r'"([^"]*)"', comment)
            expected = [] if "nothing" in comment else [quoted.group(1) if quoted else self.last_body]
            bodies = [message["Body"] for message in messages]
            if bodies != expected:
                return self.fail("%s: bodies %r, expected %r" % (command, bodies, expected))
        print("ok: %s%s" % (command, "   # " + comment if comment else ""))

    def stop_servers(self):
        for process in self.servers:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
            status = process.wait(timeout=30)
            if status != 0:
                self.fail("server exited with %d: %s" % (status, process.stderr.read()))


def main():
    if len(sys.argv) != 2:
        raise SystemExit("usage: readme_quickstart.py README.md")
    binary = os.environ.get("RELAYDESK_BINARY") or sys.exit("RELAYDESK_BINARY is not set")
    enter_private_network()
    blocks = quickstart_blocks(sys.argv[1])
    quickstart = Quickstart(binary)
    servers = sum(1 for block in blocks if block[0].startswith("relaydesk serve"))
    if servers == 0 or servers == len(blocks):
        quickstart.fail("README.md has %d quick-start blocks, %d of them servers" % (len(blocks), servers))
    try:
        for block in blocks:
            if block[0].startswith("relaydesk serve"):
                quickstart.start_server(block)
                continue
            for line in block:
                if line.strip() and not line.startswith("#"):
                    quickstart.run_line(line)
    finally:
        quickstart.stop_servers()
        shutil.rmtree(quickstart.home, ignore_errors=True)
    print("%d quick-start blocks, %d failures" % (len(blocks), quickstart.failures))
    return 1 if quickstart.failures else 0


if __name__ == "__main__":
    sys.exit(main())
