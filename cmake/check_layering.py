#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Fails the build on a wrong-way include (docs/architecture.md §2).

    check_layering.py SOURCE_DIR [STAMP]

Every #include in core/, ui/ and app/ — "quoted" or <angled> — is resolved
to the folder of the file it names (an angled one only from the include
directories); a folder may include itself and what LAYERS lets it reach
(transitively), nothing else. The store has one door: only core/store,
core/broker and core/engine (and their subfolders) may include core/store's
headers or broker/store_calls.h, so SQL lives in core/broker and units run
through the engine. Prints each offending include as
"file:line: FOLDER must not include FOLDER (header)" and exits 1; touches
STAMP on success. Tests (tests/) may include anything.

Some folders are reachable but not includable: FORBIDDEN names, for a
folder, the folders it must never include directly although it reaches them
(ui/ reaches the protocols and the host through what it uses, but includes
only the boundary, core/connections, and the shared model types below it),
with the few headers of one that are its door.
"""
import os
import re
import sys

# folder -> the folders it uses directly; each reaches what those reach.
LAYERS = {
    "core/json": [],
    "core/store": [],
    "core/policy": ["core/json"],
    "core/broker": ["core/policy", "core/store"],
    "core/broker/queues": ["core/broker"],
    "core/broker/topics": ["core/broker/queues"],
    "core/broker/deliveries": ["core/broker/topics"],
    "core/broker/metrics": ["core/broker/deliveries"],
    "core/broker/servicebus": ["core/broker/queues"],
    "core/broker/zaqar": ["core/broker/queues"],
    "core/scan": ["core/broker/queues"],
    "core/http": ["core/broker/metrics"],
    "core/engine": ["core/http", "core/broker/servicebus", "core/broker/zaqar"],
    "core/config": ["core/engine"],
    "core/mock": ["core/engine"],
    "core/api/wire": ["core/engine"],
    "core/api/sqs": ["core/api/wire"],
    "core/api/sns": ["core/api/sqs"],
    "core/api/query": ["core/api/sns"],
    "core/api/native": ["core/api/sqs", "core/config", "core/mock"],
    "core/api/zaqar": ["core/api/wire"],
    "core/api/servicebus": ["core/api/wire"],
    "core/host": ["core/api/native", "core/api/query", "core/api/servicebus", "core/api/zaqar", "core/scan",
                  "core/connections/embedded"],   # BrokerHost is the EmbeddedBroker
    "core/connections": ["core/api/wire"],
    # What the window needs of the embedded broker's protocols (SQS's message
    # JSON, Service Bus's AMQP encoding) and the EmbeddedBroker its pages use.
    "core/connections/embedded": ["core/connections", "core/api/sqs", "core/api/servicebus"],
    "ui/charts": ["core/host", "core/connections/embedded"],
    "ui/widgets": ["core/host", "core/connections/embedded"],
    "ui/models": ["ui/charts"],
    "ui/policy_editor": ["ui/models", "ui/widgets"],
    "ui/dialogs": ["ui/models", "ui/widgets"],
    "ui/views": ["ui/dialogs", "ui/policy_editor"],
    "app": ["ui/views"],
}
# folder -> {folder it must not include: (its door, why)}; the door maps each
# header of that folder that may be included to the files (path prefixes) that may.
# Applies to the folder's subfolders too; reaching a forbidden folder stays
# allowed (ui's models show the broker's types, which the protocols also use).
FORBIDDEN = {
    "ui": {
        # Protocol code: the window reaches it through core/connections (embedded/embedded_messages.h).
        "core/api": ({}, "protocol code: the window reaches it through core/connections/embedded"),
        # The host: the window starts the in-process servers in one place, MainWindow
        # (views/main_window_broker.cpp, BrokerHost::start with ServeOptions; the database
        # dialog shows a BrokerHostProblem), and hands its pages the EmbeddedBroker; the
        # `policy render` and `policy scan --charts` commands draw with ui/charts.
        "core/host": ({
            "core/host/broker_host.h": ("ui/views/main_window", "ui/dialogs/database_problem_dialog"),
            "core/host/serve_options.h": ("ui/views/main_window", "ui/models/preferences"),
            "core/host/command_help.h": ("ui/charts/policy_",),
            "core/host/policy_command.h": ("ui/charts/policy_",),
            "core/host/policy_scan_command.h": ("ui/charts/policy_",),
            "core/host/policy_input.h": ("ui/charts/policy_", "ui/policy_editor/"),
        }, "the pages take the EmbeddedBroker; only MainWindow starts the host"),
    },
}
INCLUDE_ROOTS = ["core", "ui", ""]   # the include directories, in the order the build searches them
INCLUDE = re.compile(r'^\s*#\s*include\s+(?:"([^"]+)"|<([^>]+)>)')
# The store's one door (docs/architecture.md §2): who may include these.
STORE_DOOR = ("core/store", "core/broker", "core/engine")
STORE_HEADERS = ("core/store/", "core/broker/store_calls.h")


def reach(folder, seen=None):
    seen = set() if seen is None else seen
    for used in LAYERS[folder]:
        if used not in seen:
            seen.add(used)
            reach(used, seen)
    return seen


def folder_of(root, path):
    best = None
    for folder in LAYERS:
        if path == folder or path.startswith(folder + "/"):
            if best is None or len(folder) > len(best):
                best = folder
    return best


def under(path, folder):
    return path == folder or path.startswith(folder + "/")


def forbidden(path, here, target):
    """(folder, why) when `path` (in folder `here`) must not include `target` although it reaches it, else None."""
    for folder, rules in FORBIDDEN.items():
        if under(here, folder):
            for there, (door, why) in rules.items():
                if under(target, there) and not path.startswith(door.get(target, ())):
                    return there, why
    return None


def main():
    root = sys.argv[1]
    allowed = {folder: reach(folder) | {folder} for folder in LAYERS}
    problems = []
    for top in ("core", "ui", "app"):
        for directory, _, names in os.walk(os.path.join(root, top)):
            for name in sorted(names):
                if not name.endswith((".h", ".cpp")):
                    continue
                path = os.path.relpath(os.path.join(directory, name), root)
                here = folder_of(root, path)
                if here is None:
                    problems.append("%s: in no layer (add its folder to cmake/check_layering.py)" % path)
                    continue
                with open(os.path.join(root, path), encoding="utf-8") as text:
                    for number, line in enumerate(text, 1):
                        match = INCLUDE.match(line)
                        if not match:
                            continue
                        header = match.group(1) or match.group(2)
                        roots = ([os.path.dirname(path)] if match.group(1) else []) + INCLUDE_ROOTS
                        target = None
                        for include_root in roots:
                            candidate = os.path.normpath(os.path.join(include_root, header))
                            if os.path.isfile(os.path.join(root, candidate)):
                                target = candidate
                                break
                        if target is None:
                            continue   # generated (moc, ui_*) or not ours
                        there = folder_of(root, target)
                        if there is not None and there not in allowed[here]:
                            problems.append("%s:%d: %s must not include %s (%s)" % (path, number, here, there, header))
                        elif forbidden(path, here, target):
                            there, why = forbidden(path, here, target)
                            problems.append("%s:%d: %s must not include %s (%s): %s"
                                            % (path, number, here, there, header, why))
                        elif target.startswith(STORE_HEADERS) and not here.startswith(STORE_DOOR):
                            problems.append("%s:%d: %s must not include %s: the store's one door is core/broker "
                                            "(SQL) and core/engine (units)" % (path, number, here, header))
    for problem in problems:
        print(problem)
    if problems:
        print("check_layering: %d wrong-way include(s); the layers are in docs/architecture.md" % len(problems))
        return 1
    if len(sys.argv) > 2:
        with open(sys.argv[2], "w"):
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
