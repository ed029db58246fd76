# SPDX-License-Identifier: MIT
"""A framework that builds its topology at start-up: kombu 5.7.0's Azure Service Bus transport
(azure-servicebus underneath, unchanged) sends and consumes tasks against `relaydesk serve`, with
no entity created beforehand: the transport makes its queue through the management API
(ServiceBusAdministrationClient.create_queue, ATOM over HTTPS) and sends over AMQPS (issue 35 §4).

kombu has no option that reaches a namespace at another host or port (kombu/transport/
azureservicebus.py, read for 5.7.0): from azureservicebus://POLICY:KEY@NAMESPACE it builds
`Endpoint=sb://NAMESPACE.servicebus.windows.net` (a NAMESPACE ending in `.net` kept as it is, so
no port can follow it), without UseDevelopmentEmulator, and passes the SDK nothing but retry
options: the administration client goes to https://NAMESPACE (443) and the AMQP client to
NAMESPACE:5671 over TLS, trusting certifi's bundle (kombu gives no connection_verify). So:
 - serve listens on the service's own ports: `--sb-management-port 443 --amqps-port 5671`, and
   `--allow-host NAMESPACE` so it answers that name and its certificate covers it. Binding 443
   needs root (CI runs as root); when either port cannot be bound this test exits with 77,
   which CTest reports as skipped (SKIP_RETURN_CODE), saying why;
 - test plumbing inside this process only, the SDKs unchanged: socket.getaddrinfo answers
   127.0.0.1 for NAMESPACE (no /etc/hosts edit), and certifi.where() names a bundle of certifi's
   certificates plus the local CA, as a user appends the CA to the bundle; REQUESTS_CA_BUNDLE
   names the CA for the administration client (servicebus_namespace.trust_local_ca).
"""
import atexit
import errno
import os
import socket
import sys
import tempfile
import unittest

import certifi

from relaydesk_harness import binary_from_environment
from servicebus_namespace import NamespaceServer, trust_local_ca

BINARY = binary_from_environment()
NAMESPACE = "relaydesk.servicebus.windows.net"
PORTS = (443, 5671)   # the management API's (HTTPS) and AMQPS's, the only ones kombu reaches
SKIP = 77             # CTest SKIP_RETURN_CODE


def unbindable_ports():
    """The reason PORTS cannot be bound on 127.0.0.1 here, or None."""
    for port in PORTS:
        probe = socket.socket()
        try:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(("127.0.0.1", port))
        except OSError as error:
            why = "needs root" if error.errno in (errno.EACCES, errno.EPERM) else "is in use"
            return "port %d %s (%s)" % (port, why, error.strerror)
        finally:
            probe.close()
    return None


def resolve_namespace_to_loopback():
    real = socket.getaddrinfo

    def getaddrinfo(host, *args, **kwargs):
        return real("127.0.0.1" if host == NAMESPACE else host, *args, **kwargs)
    socket.getaddrinfo = getaddrinfo


def certifi_bundle_with(ca):
    """certifi.where() names certifi's bundle with the local CA appended (a scratch copy)."""
    bundle = tempfile.NamedTemporaryFile("w", suffix=".pem", delete=False)
    with open(certifi.where()) as certifi_bundle, open(ca) as ca_file:
        bundle.write(certifi_bundle.read() + "\n" + ca_file.read())
    bundle.close()
    atexit.register(os.remove, bundle.name)
    certifi.where = lambda: bundle.name
    return bundle.name


class KombuScenarios(unittest.TestCase):
    def test_tasks_sent_and_consumed_with_the_queue_made_at_start(self):
        from kombu import Connection, Exchange, Queue
        args = ("--sb-management-port", "443", "--amqps-port", "5671", "--allow-host", NAMESPACE)
        with NamespaceServer(BINARY, *args, amqps=True) as server:
            self.assertEqual((server.ports["management"], server.ports["amqps"]), PORTS)
            status, queues = server.api("GET", "/queues")
            self.assertEqual((status, queues.get("queues")), (200, []), "no entity beforehand")
            url = "azureservicebus://RootManageSharedAccessKey:SAS_KEY_VALUE@relaydesk"   # + .servicebus.windows.net
            tasks = Queue("tasks", Exchange("tasks", type="direct"), routing_key="tasks")
            with Connection(url, transport_options={"wait_time_seconds": 2}) as connection:
                with connection.Producer() as producer:
                    for number in range(3):
                        producer.publish({"task": number}, exchange=tasks.exchange, routing_key="tasks",
                                         declare=[tasks])
                got = []
                with connection.Consumer(tasks, callbacks=[lambda body, message: (got.append(body), message.ack())]):
                    while len(got) < 3:
                        connection.drain_events(timeout=30)
                self.assertEqual(got, [{"task": 0}, {"task": 1}, {"task": 2}])
            status, queue = server.api("GET", "/queues/tasks")
            self.assertEqual(status, 200, queue)
            self.assertEqual(queue["attributes"]["ApproximateNumberOfMessages"], "0")


if __name__ == "__main__":
    reason = unbindable_ports()
    if reason:
        print("skipped: kombu reaches a namespace only on ports 443 and 5671; " + reason, file=sys.stderr)
        sys.exit(SKIP)
    resolve_namespace_to_loopback()
    certifi_bundle_with(trust_local_ca(BINARY))
    unittest.main(verbosity=2)
