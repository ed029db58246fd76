#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""The soak's checker: reads a run folder (the clients' logs, meta.json and
state.json, the broker's final state) and counts violations; every count
must be 0 (docs/reliability.md#soak-under-kills defines each):

- lost: an acknowledged send (or publish, for the fan-out queue) never
  received and not in its queue at the end;
- resurrected: a message received by a ReceiveMessage sent after a
  DeleteMessage of it answered 200, where that delete was sent within the
  visibility timeout of the receive whose handle it used (a later delete
  may carry a stale handle, which deletes nothing and succeeds, as in SQS);
- fifoOrder: in a FIFO group, a message first received after a message with
  a higher sequence number was first received (its receive sent after the
  other's was answered, or later in the same answer); re-deliveries are not
  first receives;
- undelivered: an acknowledged publish the HTTP endpoint never answered 200;
- offSchedule: a delivery attempt whose stored plan (plannedAt) is not the
  previous attempt's end plus the policy's delay, jittered, or that started
  before its plan or more than LATE_TOLERANCE after it (after the broker's
  ready line when the broker was down at the planned time);
- attemptGaps: a delivery whose attempt numbers are not 0, 1, 2, ...

    tests/bench/soak/soak_check.py RUN_DIR [--fetch http://127.0.0.1:PORT]

--fetch first saves the final state from a running broker. Exit 1 on any
violation; the details go to RUN_DIR/violations.json."""
import argparse
import collections
import datetime
import json
import os
import sys
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from soak_log import read_events  # noqa: E402,F401

PLAN_TOLERANCE = 0.05   # s: times are stored in milliseconds
LATE_TOLERANCE = 2.0    # s: an overloaded 2-core machine runs the attempt late by this much at most
EARLY_TOLERANCE = 0.05  # s


def get_json(url):
    with urllib.request.urlopen(url, timeout=60) as answer:
        return json.load(answer)


def save_state(run_dir, url, queues, subscription_arn):
    """Every message left in QUEUES (all states) and the HTTP subscription's attempt log."""
    state = {"queues": {}}
    for q in queues:
        messages, after = [], None
        while True:
            page = get_json("%s/api/v1/queues/%s/messages?limit=100%s" % (
                url, urllib.parse.quote(q), "&after=" + urllib.parse.quote(after) if after else ""))
            messages += page["messages"]
            after = page.get("nextPageToken")
            if not after:
                break
        state["queues"][q] = messages
    state["attempts"] = get_json("%s/api/v1/attempts?%s" % (url, urllib.parse.urlencode(
        {"subscriptionArn": subscription_arn, "format": "json"})))["attempts"]
    with open(os.path.join(run_dir, "state.json"), "w") as f:
        json.dump(state, f)


def seconds(iso):
    return datetime.datetime.strptime(iso, "%Y-%m-%dT%H:%M:%S.%fZ").replace(
        tzinfo=datetime.timezone.utc).timestamp()


def policy_delays(explained):
    """The delay before each retry (index 0: before attempt 1) from `policy explain --format json`."""
    delays = []
    for phase in explained["phases"]:
        if "delaysSeconds" in phase:
            delays += phase["delaysSeconds"]
        else:
            delays += [phase["delaySeconds"]] * phase["retries"]
    return delays


def down_intervals(events):
    """[(kill, ready)]: when the broker was down."""
    marks = sorted((e["t"], e["ev"]) for e in events if e["ev"] in ("kill", "ready"))
    down, killed = [], None
    for t, ev in marks:
        if ev == "kill":
            killed = t
        elif killed is not None:
            down.append((killed, t))
            killed = None
    return down


def check_lost(events, state):
    lost = []
    for q in ("soak-std", "soak-orders.fifo"):
        acked = {e["id"]: e for e in events if e["ev"] == "send" and e["q"] == q}
        received = {e["id"] for e in events if e["ev"] == "recv" and e["q"] == q}
        remaining = {m["messageId"] for m in state["queues"].get(q, [])}
        lost += [{"queue": q, "messageId": i, "token": acked[i]["token"]}
                 for i in sorted(set(acked) - received - remaining)]
    published = {e["id"]: e for e in events if e["ev"] == "publish"}
    received = {e["pub"] for e in events if e["ev"] == "recv" and e["q"] == "soak-fanout"}
    remaining = {json.loads(m["body"])["MessageId"] for m in state["queues"].get("soak-fanout", [])}
    lost += [{"queue": "soak-fanout", "publishId": i, "token": published[i]["token"]}
             for i in sorted(set(published) - received - remaining)]
    return lost


def check_resurrected(events, visibility):
    receives = collections.defaultdict(list)
    for e in events:
        if e["ev"] == "recv":
            receives[(e["q"], e["id"])].append(e)
    resurrected, late = [], 0
    for d in (e for e in events if e["ev"] == "delete"):
        if d["t0"] >= d["recv_t0"] + visibility:
            late += 1
            continue
        for r in receives[(d["q"], d["id"])]:
            if r["t0"] > d["t"]:
                resurrected.append({"queue": d["q"], "messageId": d["id"], "deleteAnswered": d["t"],
                                    "receiveSent": r["t0"], "deleter": d["src"], "receiver": r["src"]})
    return resurrected, late


def check_fifo_order(events):
    first = {}
    answers = collections.defaultdict(list)
    for e in events:
        if e["ev"] != "recv" or e["q"] != "soak-orders.fifo":
            continue
        answers[(e["src"], e["t0"])].append(e)
        key = (e["t1"], e["idx"])
        if e["id"] not in first or key < (first[e["id"]]["t1"], first[e["id"]]["idx"]):
            first[e["id"]] = e
    violations = []
    by_group = collections.defaultdict(list)
    for e in first.values():
        by_group[e["group"]].append(e)
    for group, messages in by_group.items():
        messages.sort(key=lambda e: int(e["seq"]))
        later_answered = float("inf")
        for e in reversed(messages):
            if e["t0"] > later_answered:
                violations.append({"group": group, "messageId": e["id"], "seq": e["seq"], "kind": "across answers"})
            later_answered = min(later_answered, e["t1"])
    for answer in answers.values():
        last = {}
        for e in sorted(answer, key=lambda e: e["idx"]):
            if e["group"] in last and int(e["seq"]) < last[e["group"]]:
                violations.append({"group": e["group"], "messageId": e["id"], "seq": e["seq"], "kind": "in one answer"})
            last[e["group"]] = int(e["seq"])
    return violations


def check_undelivered(events):
    delivered = {e["id"] for e in events if e["ev"] == "http" and e["status"] == 200}
    return [{"publishId": e["id"], "token": e["token"]} for e in events
            if e["ev"] == "publish" and e["id"] not in delivered]


def check_schedule(attempts, delays, jitter, down):
    deliveries = collections.defaultdict(list)
    for a in attempts:
        if a["kind"] == "notification" and a["outcome"] != "throttled-wait":
            deliveries[(a["messageId"], a["redelivery"])].append(a)
    off, gaps, late_after_restart = [], [], 0
    for (mid, _), rows in deliveries.items():
        rows.sort(key=lambda a: a["attempt"])
        if [a["attempt"] for a in rows] != list(range(len(rows))):
            gaps.append({"messageId": mid, "attempts": [a["attempt"] for a in rows]})
            continue
        previous_end = None
        for a in rows:
            planned, started = seconds(a["plannedAt"]), seconds(a["startedAt"])
            reasons = []
            if previous_end is not None:
                d = delays[a["attempt"] - 1] if a["attempt"] - 1 < len(delays) else None
                if d is None:
                    reasons.append("beyond the policy's %d attempts" % (len(delays) + 1))
                elif not (d * (1 - jitter) - PLAN_TOLERANCE <= planned - previous_end <= d * (1 + jitter) + PLAN_TOLERANCE):
                    reasons.append("planned %.3f s after the previous end, policy delay %s s" % (planned - previous_end, d))
            if started < planned - EARLY_TOLERANCE:
                reasons.append("started %.3f s early" % (planned - started))
            reference = planned
            for kill, ready in down:
                if planned - LATE_TOLERANCE <= kill <= started and ready > reference:
                    reference = ready  # due while down (or just before the kill): due at the restart
            if reference != planned:
                late_after_restart += 1
            if started - reference > LATE_TOLERANCE:
                reasons.append("started %.3f s after %s" % (started - reference,
                                                             "its plan" if reference == planned else "the restart"))
            if reasons:
                off.append({"messageId": mid, "attempt": a["attempt"], "plannedAt": a["plannedAt"],
                            "startedAt": a["startedAt"], "reasons": reasons})
            previous_end = started + float(a["durationMs"]) / 1000.0
    return off, gaps, late_after_restart, len(deliveries)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("run_dir")
    parser.add_argument("--fetch", metavar="URL", help="save the final state from this running broker first")
    args = parser.parse_args(argv)
    with open(os.path.join(args.run_dir, "meta.json")) as f:
        meta = json.load(f)
    if args.fetch:
        save_state(args.run_dir, args.fetch, ["soak-std", "soak-orders.fifo", "soak-fanout"], meta["subscriptionArn"])
    with open(os.path.join(args.run_dir, "state.json")) as f:
        state = json.load(f)
    events = read_events(args.run_dir)
    down = down_intervals(events)

    lost = check_lost(events, state)
    resurrected, late_deletes = check_resurrected(events, meta["visibilityTimeout"])
    fifo = check_fifo_order(events)
    undelivered = check_undelivered(events)
    off, gaps, after_restart, deliveries = check_schedule(
        state["attempts"], policy_delays(meta["policy"]), meta["jitter"], down)
    violations = {"lost": lost, "resurrected": resurrected, "fifoOrder": fifo, "undelivered": undelivered,
                  "offSchedule": off, "attemptGaps": gaps}
    with open(os.path.join(args.run_dir, "violations.json"), "w") as f:
        json.dump(violations, f, indent=1)

    count = collections.Counter()
    for e in events:
        if e["ev"] == "send":
            count["send %s (%s)" % (e["q"], e["op"])] += 1
        elif e["ev"] in ("recv", "delete"):
            count["%s %s" % ("receive" if e["ev"] == "recv" else "delete", e["q"])] += 1
        elif e["ev"] == "publish":
            count["publish soak-events"] += 1
        elif e["ev"] == "http":
            count["endpoint answered %d" % e["status"]] += 1
        elif e["ev"] == "unknown":
            count["unknown (answer lost) %s" % e["op"]] += 1
    rows = sorted(count.items())
    rows += [("attempt log rows (notification)", sum(1 for a in state["attempts"] if a["kind"] == "notification")),
             ("deliveries checked", deliveries), ("attempts due while down", after_restart),
             ("endpoint requests not in the attempt log (in flight at a kill)",
              sum(1 for e in events if e["ev"] == "http" and e["type"] == "Notification")
              - sum(1 for a in state["attempts"] if a["kind"] == "notification")),
             ("received, stored by a request whose answer was lost", len(
                 {(e["q"], e["id"]) for e in events if e["ev"] == "recv" and e["q"] != "soak-fanout"}
                 - {(e["q"], e["id"]) for e in events if e["ev"] == "send"})
              + len({e["pub"] for e in events if e["ev"] == "recv" and e["q"] == "soak-fanout"}
                    - {e["id"] for e in events if e["ev"] == "publish"})),
             ("endpoint connections reset by a kill", sum(1 for e in events if e["ev"] == "http_reset")),
             ("publishes answered 200 more than once", sum(
                 1 for n in collections.Counter(e["id"] for e in events
                                                if e["ev"] == "http" and e["status"] == 200).values() if n > 1)),
             ("deletes not judged (sent after the visibility timeout)", late_deletes),
             ("kills (SIGKILL)", sum(1 for e in events if e["ev"] == "kill")),
             ("restarts", max(0, sum(1 for e in events if e["ev"] == "ready") - 1)),
             ("drained", meta.get("drained"))]
    rows += [("VIOLATIONS %s" % k, len(v)) for k, v in violations.items()]
    width = max(len(k) for k, _ in rows)
    print("seed %s, %s min, load at start %s" % (meta["seed"], meta["minutes"],
                                                 " ".join("%.2f" % x for x in meta["load"])))
    for k, v in rows:
        print("%-*s  %s" % (width, k, v))
    if meta.get("clientErrors"):
        print("client errors:", meta["clientErrors"])
    failed = any(violations.values())
    print("RESULT:", "FAIL (details: %s)" % os.path.join(args.run_dir, "violations.json") if failed else "PASS")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
