#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Shows the checker can fail: copies a passing run folder, plants one
violation of each kind in the copy's logs and state, and expects the checker
to count exactly that one of each.

    tests/bench/soak/soak_check_selftest.py RUN_DIR"""
import datetime
import json
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import soak_check  # noqa: E402


def lines(path):
    with open(path) as f:
        return [json.loads(line) for line in f]


def write(path, events):
    with open(path, "w") as f:
        f.writelines(json.dumps(e) + "\n" for e in events)


def iso(t):
    return datetime.datetime.fromtimestamp(t, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def main():
    source = sys.argv[1]
    work = tempfile.mkdtemp(prefix="soak-selftest-")
    run = os.path.join(work, "run")
    shutil.copytree(source, run, ignore=shutil.ignore_patterns("*.db*", "*.lock"))
    logs = os.path.join(run, "logs")

    # lost: forget every receive of one acknowledged standard send
    path = os.path.join(logs, "cons-std-1.jsonl")
    events = lines(path)
    victim = next(e["id"] for e in events if e["ev"] == "recv")
    events = [e for e in events if not (e["ev"] in ("recv", "delete") and e["id"] == victim)]
    for other in ("cons-std-2.jsonl",):
        p = os.path.join(logs, other)
        write(p, [e for e in lines(p) if e.get("id") != victim])
    # resurrected: a receive of a deleted message, sent after the delete's 200
    d = next(e for e in events if e["ev"] == "delete")
    events.append(dict(next(e for e in events if e["ev"] == "recv" and e["id"] == d["id"]),
                       t0=d["t"] + 1, t1=d["t"] + 1.1, idx=0))
    write(path, events)

    # fifoOrder: a group's two first messages swap sequence numbers
    path = os.path.join(logs, "cons-fifo-1.jsonl")
    events = lines(path)
    first = [e for e in events if e["ev"] == "recv"]
    group = first[0]["group"]
    a, b = [e for e in first if e["group"] == group and e["t0"] != first[0]["t0"]][:1] + [first[0]]
    a["seq"], b["seq"] = b["seq"], a["seq"]
    write(path, events)

    # undelivered: the endpoint's 200 for one publish is forgotten
    path = os.path.join(logs, "endpoint.jsonl")
    events = lines(path)
    gone = next(e["id"] for e in events if e["status"] == 200)
    write(path, [e for e in events if not (e["id"] == gone and e["status"] == 200)])

    # offSchedule: one retry planned 5 s later than the policy says
    with open(os.path.join(run, "state.json")) as f:
        state = json.load(f)
    retry = next(a for a in state["attempts"] if a["attempt"] == 1 and a["kind"] == "notification")
    shift = soak_check.seconds(retry["plannedAt"]) + 5
    retry["plannedAt"], retry["startedAt"] = iso(shift), iso(shift)
    with open(os.path.join(run, "state.json"), "w") as f:
        json.dump(state, f)

    code = soak_check.main([run])
    with open(os.path.join(run, "violations.json")) as f:
        found = {k: len(v) for k, v in json.load(f).items()}
    # A swapped pair may be counted from both sides; a shifted retry also
    # moves the plan of the retry after it: at least one each there.
    exact = {"lost": 1, "resurrected": 1, "undelivered": 1, "attemptGaps": 0}
    ok = (code == 1 and all(found[k] == v for k, v in exact.items())
          and found["fifoOrder"] >= 1 and found["offSchedule"] >= 1)
    print("found:", found, "->", "OK" if ok else "CHECKER MISSED ONE")
    shutil.rmtree(work)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
