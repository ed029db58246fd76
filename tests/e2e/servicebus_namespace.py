# SPDX-License-Identifier: MIT
"""`relaydesk serve` as the Python Service Bus SDK sees a namespace: its AMQP, AMQPS and
management ports, the connection strings for each, and the local CA trusted as a Python user
trusts it (docs/harness.md "Trusting the local CA"):

    export REQUESTS_CA_BUNDLE="$(relaydesk tls ca)"   # HTTPS: requests, so the administration client
    ServiceBusClient.from_connection_string(..., connection_verify=CA)   # AMQPS: the SDK's own TLS

trust_local_ca() makes the CA in a scratch XDG_DATA_HOME this process and the servers it
starts share (removed at exit), so a test never reads or writes the user's own CA.
"""
import atexit
import json
import os
import shutil
import subprocess
import tempfile
import urllib.parse

from relaydesk_harness import RelaydeskServer

KEY_NAME = "RootManageSharedAccessKey"
EMULATOR_KEY = "SAS_KEY_VALUE"


def trust_local_ca(binary):
    """The path of the local CA's certificate, trusted by requests (REQUESTS_CA_BUNDLE) and
    OpenSSL's default store (SSL_CERT_FILE) in this process and what it starts."""
    if "RELAYDESK_TEST_CA" not in os.environ:
        data_home = tempfile.mkdtemp(prefix="relaydesk-sb-ca-")
        atexit.register(shutil.rmtree, data_home, True)
        os.environ["XDG_DATA_HOME"] = data_home
        path = subprocess.run([binary, "tls", "ca"], check=True, capture_output=True, text=True).stdout.strip()
        os.environ["RELAYDESK_TEST_CA"] = path
        os.environ["REQUESTS_CA_BUNDLE"] = path
        os.environ["SSL_CERT_FILE"] = path
    return os.environ["RELAYDESK_TEST_CA"]


class NamespaceServer(RelaydeskServer):
    """serve with its AMQP and management ports (and AMQPS with amqps=True), read from its ready
    lines: http, amqp, management (https), then amqps."""

    def __init__(self, binary, *extra_args, amqps=False):
        super().__init__(binary, *extra_args)
        if amqps:
            self.args[self.args.index("--amqps-port") + 1] = "0"
        self.lines = 4 if amqps else 3
        self.ports = {}

    def __enter__(self):
        super().__enter__()
        for _ in range(self.lines - 1):
            url = urllib.parse.urlparse(self.process.stdout.readline().strip().split(" on ", 1)[1])
            self.ports["management" if url.scheme == "https" else url.scheme] = url.port
        return self

    def connection_string(self, port_name="amqp", key=EMULATOR_KEY):
        """The emulator's string for plain AMQP (and the management port, where the SDKs go to
        https:// whatever it says); without UseDevelopmentEmulator for amqps."""
        emulator = ";UseDevelopmentEmulator=true" if port_name != "amqps" else ""
        return "Endpoint=sb://localhost:%d;SharedAccessKeyName=%s;SharedAccessKey=%s%s" % (
            self.ports[port_name], KEY_NAME, key, emulator)


def run_steps(run, steps):
    """Runs a table scenario's steps in order; a failure names the step it came from."""
    for number, step in enumerate(steps):
        try:
            run.run(step)
        except Exception as error:
            error.add_note("step %d: %s" % (number, json.dumps(step)))
            raise
