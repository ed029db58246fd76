# SPDX-License-Identifier: MIT
"""Azure Service Bus end to end with the unchanged Python SDK, azure-servicebus (its own
pure-Python AMQP stack), over plain AMQP with the official emulator's connection string,
against `relaydesk serve --clock virtual` (and over AMQPS with RELAYDESK_SB_TRANSPORT=amqps). The scenarios are the shared table
servicebus_sdk_scenarios.json (the Java and JavaScript SDKs run the same one); this file
only says how each step is done with this SDK. It runs in the virtual environment
installer/dev.sh makes from installer/requirements-e2e.txt (docs/harness.md).
"""
import datetime
import json
import os
import tempfile
import unittest
import urllib.parse

from azure.servicebus import (NEXT_AVAILABLE_SESSION, ServiceBusClient, ServiceBusMessage,
                              ServiceBusReceiveMode, ServiceBusSubQueue, TransportType)
from azure.servicebus.exceptions import ServiceBusAuthenticationError, ServiceBusConnectionError, ServiceBusError

from relaydesk_harness import binary_from_environment
from servicebus_namespace import NamespaceServer, run_steps, trust_local_ca

BINARY = binary_from_environment()
TABLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "servicebus_sdk_scenarios.json")
WAIT = 2        # seconds a receive waits for messages it expects
NO_WAIT = 0.3   # seconds a receive that expects none waits


# RELAYDESK_SB_TRANSPORT=amqps runs the same table over TLS, with the connection string production
# code has (no UseDevelopmentEmulator) and the local CA trusted: the SDK strips the port of such a
# string (5671), so serve's port comes as the documented custom_endpoint_address, and the SDK's own
# TLS trusts certifi's bundle unless connection_verify names the CA (docs/harness.md).
AMQPS = os.environ.get("RELAYDESK_SB_TRANSPORT") == "amqps"


class ServiceBusServer(NamespaceServer):
    """The server with its AMQP port (AMQPS when AMQPS), and the SDK's client options for it."""

    def __init__(self, binary, *extra_args):
        super().__init__(binary, *extra_args, amqps=AMQPS)

    def __enter__(self):
        super().__enter__()
        self.connection_string = super().connection_string("amqps" if AMQPS else "amqp")
        self.client_options = {}
        if AMQPS:
            self.client_options = {"custom_endpoint_address": "sb://localhost:%d" % self.ports["amqps"],
                                   "transport_type": TransportType.Amqp,
                                   "connection_verify": os.environ["RELAYDESK_TEST_CA"]}
        return self


def message_of(spec):
    ttl = spec.get("timeToLiveSeconds")
    return ServiceBusMessage(spec["body"], subject=spec.get("subject"), message_id=spec.get("messageId"),
                             session_id=spec.get("sessionId"),
                             application_properties=spec.get("applicationProperties"),
                             time_to_live=None if ttl is None else datetime.timedelta(seconds=ttl))


def facts_of(message, expected):
    """The fields of `message` that `expected` names, as the table writes them."""
    read = {
        "body": lambda: b"".join(message.body).decode(),
        "subject": lambda: message.subject,
        "messageId": lambda: message.message_id,
        "sessionId": lambda: message.session_id,
        "deliveryCount": lambda: message.delivery_count,
        "applicationProperties": lambda: {k.decode() if isinstance(k, bytes) else k:
                                          v.decode() if isinstance(v, bytes) else v
                                          for k, v in (message.application_properties or {}).items()},
        "deadLetterReason": lambda: message.dead_letter_reason,
        "deadLetterErrorDescription": lambda: message.dead_letter_error_description,
    }
    return {field: read[field]() for field in expected}


class Run:
    """One scenario against one server: its receivers by source, the messages kept by name."""

    def __init__(self, test, server, client, topics):
        self.test, self.server, self.client, self.topics = test, server, client, topics
        self.receivers = {}   # (entity, subscription, subQueue, session, mode) -> receiver
        self.kept = {}        # name -> [(receiver, message)]

    def receiver(self, step):
        # Peeks have receivers of their own: a peek without a sequence number goes on
        # after what its receiver last received (azure-servicebus) or peeked (all SDKs).
        key = tuple(step.get(k) for k in ("op", "entity", "subscription", "subQueue", "session", "mode")
                    if k != "op" or step["op"] == "peek")
        if key not in self.receivers:
            options = {"receive_mode": ServiceBusReceiveMode.RECEIVE_AND_DELETE
                       if step.get("mode") == "receiveAndDelete" else ServiceBusReceiveMode.PEEK_LOCK}
            if step.get("subQueue") == "deadLetter":
                options["sub_queue"] = ServiceBusSubQueue.DEAD_LETTER
            if "session" in step:
                options["session_id"] = NEXT_AVAILABLE_SESSION if step["session"] == "next" else step["session"]
            if "subscription" in step:
                receiver = self.client.get_subscription_receiver(step["entity"], step["subscription"], **options)
            else:
                receiver = self.client.get_queue_receiver(step["entity"], **options)
            self.receivers[key] = receiver.__enter__()
        return self.receivers[key]

    def close(self):
        for receiver in self.receivers.values():
            receiver.__exit__(None, None, None)

    def messages(self, reference):
        name, _, index = reference.partition("[")
        kept = self.kept[name]
        return kept if not index else [kept[int(index.rstrip("]"))]]

    def check(self, step, got):
        expected = step["expect"]
        self.test.assertEqual([facts_of(m, e) for m, e in zip(got, expected)], expected, step)
        self.test.assertEqual(len(got), len(expected), [b"".join(m.body) for m in got])

    def keep(self, step, receiver, got):
        self.check(step, got)
        if "as" in step:
            self.kept[step["as"]] = [(receiver, m) for m in got]

    def receive(self, step):
        receiver = self.receiver(step)
        got, wanted = [], len(step["expect"])
        while True:   # the SDK may hand over fewer than are there in one call
            batch = receiver.receive_messages(max_message_count=step["max"] - len(got),
                                              max_wait_time=WAIT if wanted else NO_WAIT)
            got += batch
            if not batch or len(got) >= wanted:
                break
        self.keep(step, receiver, got)

    def peek(self, step):
        receiver = self.receiver(step)
        options = {}
        if "fromSequenceOf" in step:
            options["sequence_number"] = self.messages(step["fromSequenceOf"])[0][1].sequence_number
        self.keep(step, receiver, receiver.peek_messages(max_message_count=step["max"], **options))

    def receive_deferred(self, step):
        receiver = self.receiver(step)
        sequence = [m.sequence_number for _, m in self.messages(step["sequenceOf"])]
        self.keep(step, receiver, receiver.receive_deferred_messages(sequence))

    def sender(self, entity):
        if entity in self.topics:
            return self.client.get_topic_sender(entity)
        return self.client.get_queue_sender(entity)

    def send(self, step):
        with self.sender(step["entity"]) as sender:
            sender.send_messages([message_of(m) for m in step["messages"]])

    def schedule(self, step):
        status, clock = self.server.api("GET", "/clock")
        self.test.assertEqual(status, 200, clock)
        at = datetime.datetime.fromtimestamp(clock["nowMs"] / 1000 + step["inSeconds"], datetime.timezone.utc)
        with self.sender(step["entity"]) as sender:
            sequences = sender.schedule_messages([message_of(m) for m in step["messages"]], at)
        if "as" in step:
            self.kept[step["as"]] = [(None, number) for number in sequences]

    def cancel_scheduled(self, step):
        with self.sender(step["entity"]) as sender:
            sender.cancel_scheduled_messages([number for _, number in self.messages(step["sequences"])])

    def renew_lock(self, step):
        for receiver, message in self.messages(step["messages"]):
            before = message.locked_until_utc
            self.test.assertEqual(receiver.renew_message_lock(message) - before,
                                  datetime.timedelta(seconds=step["extendsBySeconds"]))

    def settle(self, step):
        for receiver, message in self.messages(step["messages"]):
            op = step["op"]
            if op == "complete":
                receiver.complete_message(message)
            elif op == "abandon":
                receiver.abandon_message(message)
            elif op == "defer":
                receiver.defer_message(message)
            else:
                receiver.dead_letter_message(message, reason=step["reason"], error_description=step["description"])

    def session_state(self, step):
        state = self.receiver(step).session.get_state()
        self.test.assertEqual(None if state is None else bytes(state).decode(), step["expect"])

    def set_session_state(self, step):
        self.receiver(step).session.set_state(step["state"])

    def advance(self, step):
        self.server.advance(step["seconds"])

    def depth(self, step):
        status, queue = self.server.api("GET", "/queues/" + urllib.parse.quote(step["entity"], safe=""))
        self.test.assertEqual(status, 200, queue)
        counts = {"available": int(queue["attributes"]["ApproximateNumberOfMessages"]),
                  "locked": int(queue["attributes"]["ApproximateNumberOfMessagesNotVisible"])}
        self.test.assertEqual(counts, step["expect"], step["entity"])

    def run(self, step):
        ops = {"receive": self.receive, "peek": self.peek, "receiveDeferred": self.receive_deferred,
               "send": self.send, "schedule": self.schedule, "complete": self.settle, "abandon": self.settle,
               "defer": self.settle, "deadLetter": self.settle, "sessionState": self.session_state,
               "setSessionState": self.set_session_state, "advance": self.advance, "depth": self.depth,
               "cancelScheduled": self.cancel_scheduled, "renewLock": self.renew_lock}
        if "error" not in step:
            ops[step["op"]](step)
            return
        with self.test.assertRaises(ServiceBusError) as raised:
            ops[step["op"]](step)
        self.test.assertEqual(type(raised.exception).__name__, step["error"] + "Error")


def create_entities(test, server, entities):
    for kind in ("queues", "topics"):
        for body in entities.get(kind, []):
            status, reply = server.api("POST", "/servicebus/" + kind, body)
            test.assertEqual(status, 201, reply)


class ServiceBusSdkScenarios(unittest.TestCase):
    pass


def add_scenario(scenario):
    def test(self):
        if "python" in scenario.get("skip", {}):
            self.skipTest(scenario["skip"]["python"])
        with ServiceBusServer(BINARY) as server:
            create_entities(self, server, scenario.get("entities", {}))
            with ServiceBusClient.from_connection_string(server.connection_string, **server.client_options) as client:
                topics = {topic["Name"] for topic in scenario.get("entities", {}).get("topics", [])}
                run = Run(self, server, client, topics)
                try:
                    run_steps(run, scenario["steps"])
                finally:
                    run.close()
    test.__doc__ = scenario["name"]
    setattr(ServiceBusSdkScenarios, "test_" + scenario["name"].split(":")[0].replace(" ", "_"), test)


class SharedAccessSignatures(unittest.TestCase):
    """serve --credentials: the token the SDK computes from the connection string's key is
    verified (docs/behaviour.md §8.6 "Credentials"); a wrong key is refused and sends nothing."""

    def test_the_right_key_sends_a_wrong_one_is_refused(self):
        with tempfile.TemporaryDirectory() as directory:
            credentials = os.path.join(directory, "credentials.json")
            config = os.path.join(directory, "Config.json")
            with open(credentials, "w") as out:
                json.dump({"sharedAccessKeys": {"RootManageSharedAccessKey": "SAS_KEY_VALUE"}}, out)
            with open(config, "w") as out:
                json.dump({"UserConfig": {"Namespaces": [{"Name": "sbemulatorns", "Queues": [{"Name": "orders"}]}]}}, out)
            with ServiceBusServer(BINARY, "--credentials", credentials, "--servicebus-config", config) as server:
                wrong = server.connection_string.replace("SAS_KEY_VALUE", "not-the-key")
                with ServiceBusClient.from_connection_string(wrong, retry_total=0, **server.client_options) as client:
                    # With a custom_endpoint_address the SDK raises a refused token as a
                    # ServiceBusConnectionError ("for uamqp parity", _pyamqp_transport.py): its
                    # inner exception is the broker's 401.
                    refused = ServiceBusConnectionError if AMQPS else ServiceBusAuthenticationError
                    with self.assertRaises(refused) as raised:
                        with client.get_queue_sender("orders") as sender:
                            sender.send_messages(ServiceBusMessage("refused"))
                    self.assertIn("InvalidSignature", str(raised.exception.inner_exception))
                with ServiceBusClient.from_connection_string(server.connection_string, **server.client_options) as client:
                    with client.get_queue_sender("orders") as sender:
                        sender.send_messages(ServiceBusMessage("accepted"))
                    with client.get_queue_receiver("orders", receive_mode=ServiceBusReceiveMode.RECEIVE_AND_DELETE) as receiver:
                        got = receiver.receive_messages(max_message_count=5, max_wait_time=WAIT)
                        self.assertEqual([b"".join(m.body).decode() for m in got], ["accepted"])


if AMQPS:
    trust_local_ca(BINARY)   # before any server starts: they make their certificates from it
with open(TABLE) as table:
    for each in json.load(table)["scenarios"]:
        add_scenario(each)

if __name__ == "__main__":
    unittest.main(verbosity=2)
