# SPDX-License-Identifier: MIT
"""The Service Bus management API with the unchanged administration client of azure-servicebus
7.15.0 (azure.servicebus.management.ServiceBusAdministrationClient), over HTTPS on
`serve --sb-management-port 0` with the local CA trusted through REQUESTS_CA_BUNDLE, as a
Python user does it. The scenarios are the shared table servicebus_management_scenarios.json
(the Java and JavaScript administration clients run the same one); this file only says how each
step is done with this SDK. Runs in the virtual environment of installer/requirements-e2e.txt.
"""
import json
import os
import re
import tempfile
import unittest

import isodate
from azure.core.exceptions import HttpResponseError
from azure.servicebus import ServiceBusClient, ServiceBusMessage, ServiceBusReceiveMode
from azure.servicebus.management import (CorrelationRuleFilter, ServiceBusAdministrationClient, SqlRuleAction,
                                         SqlRuleFilter)

from relaydesk_harness import binary_from_environment
from servicebus_namespace import NamespaceServer, run_steps, trust_local_ca

BINARY = binary_from_environment()
TABLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "servicebus_management_scenarios.json")
DURATIONS = {"lockDuration", "defaultMessageTimeToLive", "autoDeleteOnIdle", "duplicateDetectionHistoryTimeWindow"}
STATUS = {"alreadyExists": 409, "notFound": 404, "badRequest": 400, "unauthorized": 401}


def snake(name):
    return re.sub(r"([A-Z])", lambda m: "_" + m.group(1).lower(), name)


def sdk_options(properties):
    """The table's properties (JavaScript names, ISO durations) as this SDK's keyword arguments."""
    return {snake(k): isodate.parse_duration(v) if k in DURATIONS else v for k, v in (properties or {}).items()}


def table_facts(model, expected):
    """The fields of an SDK model that `expected` names, written as the table writes them."""
    facts = {}
    for field, want in expected.items():
        if field in ("filter", "action"):
            facts[field] = rule_part_facts(getattr(model, field))
            continue
        value = getattr(model, snake(field))
        facts[field] = isodate.duration_isoformat(value) if field in DURATIONS else value
        if field in DURATIONS and value == isodate.parse_duration(want):
            facts[field] = want   # the same duration, however the table spells it
    return facts


def rule_part_facts(part):
    if isinstance(part, CorrelationRuleFilter):
        return {"subject": part.label}
    return None if part is None else {"sql": part.sql_expression}


def rule_filter(spec):
    return CorrelationRuleFilter(label=spec["subject"]) if "subject" in spec else SqlRuleFilter(spec["sql"])


def message_of(spec):
    if isinstance(spec, str):
        return ServiceBusMessage(spec)
    return ServiceBusMessage(spec["body"], subject=spec.get("subject"),
                             application_properties=spec.get("applicationProperties"))


class Run:
    """One scenario's steps against one server with one administration client per key."""

    def __init__(self, test, server, key):
        self.test, self.server, self.key = test, server, key
        self.topics = set()

    def admin(self, step):
        return ServiceBusAdministrationClient.from_connection_string(
            self.server.connection_string("management", step.get("key", self.key)))

    def names(self, pages, step):
        if "pageSize" in step:
            return [[item.name for item in page] for page in pages.by_page()]
        return [item.name for item in pages]

    def do(self, step):
        with self.admin(step) as admin:
            return self.operate(admin, step)

    def operate(self, admin, step):
        op, name = step["op"], step.get("name")
        path = [step[k] for k in ("topic", "subscription") if k in step] + ([name] if name else [])
        paged = {"max_page_size": step["pageSize"]} if "pageSize" in step else {}
        if op == "namespace":
            return admin.get_namespace_properties()
        kind = re.sub(r"^(create|get|update|delete|list)|Exists$|Runtime$|s$", "", op)
        kind = snake(kind[0].lower() + kind[1:])   # queue, topic, subscription, rule
        if op.startswith("create"):
            if kind == "rule":
                action = SqlRuleAction(step["action"]["sql"]) if "action" in step else None
                return admin.create_rule(*path, filter=rule_filter(step["filter"]), action=action)
            if kind == "topic":
                self.topics.add(name)
            return getattr(admin, "create_" + kind)(*path, **sdk_options(step.get("options")))
        if op.startswith("update"):
            entity = getattr(admin, "get_" + kind)(*path)
            if kind == "rule":
                entity.filter = rule_filter(step["filter"])
            for field, value in sdk_options(step.get("set")).items():
                setattr(entity, field, value)
            getattr(admin, "update_" + kind)(*path[:-1], entity)
            return getattr(admin, "get_" + kind)(*path)
        if op.endswith("Exists"):   # this SDK has no exists call: a get, or its 404
            try:
                getattr(admin, "get_" + kind)(*path)
                return True
            except HttpResponseError as error:
                self.test.assertEqual(error.status_code, 404, error)
                return False
        if op.endswith("Runtime"):
            return getattr(admin, "get_%s_runtime_properties" % kind)(*path)
        if op.startswith("list"):
            return self.names(getattr(admin, "list_" + kind + "s")(*path, **paged), step)
        return getattr(admin, snake(op))(*path)   # get_queue, delete_rule, ...

    def amqp(self, step):
        with ServiceBusClient.from_connection_string(self.server.connection_string("amqp")) as client:
            if step["op"] == "send":
                sender = (client.get_topic_sender if step["entity"] in self.topics else client.get_queue_sender)(step["entity"])
                with sender:
                    sender.send_messages([message_of(m) for m in step["messages"]])
                return None
            mode = {"receive_mode": ServiceBusReceiveMode.RECEIVE_AND_DELETE}
            receiver = (client.get_subscription_receiver(step["entity"], step["subscription"], **mode)
                        if "subscription" in step else client.get_queue_receiver(step["entity"], **mode))
            with receiver:
                got = []
                while len(got) < len(step["expect"]):
                    batch = receiver.receive_messages(max_message_count=step["max"], max_wait_time=2)
                    got += batch
                    if not batch:
                        break
                return [b"".join(m.body).decode() for m in got]

    def run(self, step):
        act = self.amqp if step["op"] in ("send", "receive") else self.do
        if "error" in step:
            with self.test.assertRaises(HttpResponseError) as raised:
                act(step)
            self.test.assertEqual(raised.exception.status_code, STATUS[step["error"]], raised.exception)
            self.test.assertIn(step.get("messageHas", ""), str(raised.exception))
            return
        got = act(step)
        if "expect" not in step:
            return
        expected = step["expect"]
        self.test.assertEqual(table_facts(got, expected) if isinstance(expected, dict) else got, expected)


class ServiceBusManagementScenarios(unittest.TestCase):
    """One test a scenario of the table (added below)."""

    def run_scenario(self, scenario):
        if "python" in scenario.get("skip", {}):
            self.skipTest(scenario["skip"]["python"])
        keys = scenario.get("sharedAccessKeys")
        with tempfile.TemporaryDirectory() as directory:
            extra = []
            if keys:
                extra = ["--credentials", os.path.join(directory, "credentials.json")]
                with open(extra[1], "w") as out:
                    json.dump({"sharedAccessKeys": keys}, out)
            with NamespaceServer(BINARY, *extra) as server:
                run = Run(self, server, next(iter(keys.values())) if keys else "SAS_KEY_VALUE")
                run_steps(run, scenario["steps"])


def add_scenario(scenario):
    test = lambda self: self.run_scenario(scenario)   # noqa: E731
    test.__doc__ = scenario["name"]
    setattr(ServiceBusManagementScenarios, "test_" + re.sub(r"\W+", "_", scenario["name"].split(":")[0]), test)


trust_local_ca(BINARY)
with open(TABLE) as table:
    for each in json.load(table)["scenarios"]:
        add_scenario(each)

if __name__ == "__main__":
    unittest.main(verbosity=2)
