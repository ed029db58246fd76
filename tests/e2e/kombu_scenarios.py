# SPDX-License-Identifier: MIT
"""A framework that builds its topology at start-up: kombu 5.7.0's Azure Service Bus transport
(azure-servicebus underneath) sends and consumes tasks against `relaydesk serve`, with no
entity created beforehand (issue 35 §4).

Registered DISABLED in CMakeLists.txt, and skipped here with the reason, until serve has what
the transport needs. kombu builds its own connection string from the URL
azureservicebus://POLICY:KEY@NAMESPACE: `Endpoint=sb://NAMESPACE.servicebus.windows.net`
(a NAMESPACE ending in `.net` is kept as it is) with no port and no UseDevelopmentEmulator, so
 - each queue is made by ServiceBusAdministrationClient.create_queue: the management API
   (ATOM over HTTPS, port 443; branch wave-sbmgmt, `serve --sb-management-port`);
 - messages go over AMQPS on port 5671 with the broker's certificate trusted
   (branch wave-sbtls, `serve --amqps-port`, `relaydesk tls ca`);
 - NAMESPACE must resolve to the broker: run in a private network and mount namespace
   (unshare, as readme_quickstart.py does) with the name in its /etc/hosts, the ports
   forwarded to serve's, and REQUESTS_CA_BUNDLE/SSL_CERT_FILE naming the CA.
RELAYDESK_KOMBU_NAMESPACE names that host (default relaydesk.servicebus.windows.net).
"""
import os
import subprocess
import unittest

from relaydesk_harness import RelaydeskServer, binary_from_environment

BINARY = binary_from_environment()
NAMESPACE = os.environ.get("RELAYDESK_KOMBU_NAMESPACE", "relaydesk.servicebus.windows.net")
NEEDED = ("--sb-management-port", "--amqps-port")


def missing_options():
    usage = subprocess.run([BINARY, "serve", "--help"], capture_output=True, text=True).stdout
    return [option for option in NEEDED if option not in usage]


class KombuScenarios(unittest.TestCase):
    def setUp(self):
        missing = missing_options()
        if missing:
            self.skipTest("kombu's transport needs the management API and AMQPS; serve lacks "
                          + ", ".join(missing) + " (branches wave-sbmgmt, wave-sbtls)")

    def test_tasks_sent_and_consumed_with_the_queue_made_at_start(self):
        from kombu import Connection, Exchange, Queue
        with RelaydeskServer(BINARY, "--sb-management-port", "443", "--amqps-port", "5671"):
            url = "azureservicebus://RootManageSharedAccessKey:SAS_KEY_VALUE@" + NAMESPACE
            tasks = Queue("tasks", Exchange("tasks", type="direct"), routing_key="tasks")
            with Connection(url, transport_options={"wait_time_seconds": 2}) as connection:
                with connection.Producer() as producer:
                    for number in range(3):
                        producer.publish({"task": number}, exchange=tasks.exchange, routing_key="tasks",
                                         declare=[tasks])
                got = []
                with connection.Consumer(tasks, callbacks=[lambda body, message: (got.append(body), message.ack())]):
                    while len(got) < 3:
                        connection.drain_events(timeout=10)
                self.assertEqual(got, [{"task": 0}, {"task": 1}, {"task": 2}])


if __name__ == "__main__":
    unittest.main(verbosity=2)
