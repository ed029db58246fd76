#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""A soak benchmark, never run by CTest: `relaydesk serve` SIGKILLed every
30-60 s (seeded) and restarted on the same file while SQS producers and
consumers (standard and FIFO queues) and SNS publishers (a topic fanned out
to a queue and to a flaky HTTP endpoint) run the whole time. After the soak
a drain phase (endpoint answers 200, no more kills, consumers empty the
queues, pending retries finish); then the final state is saved and checked
by soak_check.py (docs/reliability.md#soak-under-kills).

    tests/bench/soak/soak.py --relaydesk build/dev/app/relaydesk --minutes 10

Exits 1 when the checker finds a violation."""
import argparse
import json
import os
import random
import socket
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import soak_check  # noqa: E402
import soak_clients  # noqa: E402
from soak_broker import KilledBroker  # noqa: E402
from soak_clients import Consumer, Producer, Publisher, make_client  # noqa: E402
from soak_endpoint import FlakyEndpoint  # noqa: E402
from soak_log import EventLog  # noqa: E402

VISIBILITY_TIMEOUT = 10
# 13 attempts over about 29 s: a delivery outlives a kill or two.
DELIVERY_POLICY = {"healthyRetryPolicy": {
    "minDelayTarget": 1, "maxDelayTarget": 4, "numRetries": 12, "numNoDelayRetries": 1,
    "numMinDelayRetries": 2, "numMaxDelayRetries": 3, "backoffFunction": "linear"}}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def set_up(url, endpoint_url):
    """The queues, the topic and its two subscriptions; returns queue URLs and the topic ARN."""
    sqs, sns = make_client("sqs", url), make_client("sns", url)
    vt = {"VisibilityTimeout": str(VISIBILITY_TIMEOUT)}
    queues = {
        "std": sqs.create_queue(QueueName="soak-std", Attributes=vt)["QueueUrl"],
        "fifo": sqs.create_queue(QueueName="soak-orders.fifo", Attributes=dict(vt, FifoQueue="true"))["QueueUrl"],
        "fanout": sqs.create_queue(QueueName="soak-fanout", Attributes=vt)["QueueUrl"],
    }
    topic = sns.create_topic(Name="soak-events")["TopicArn"]
    fanout_arn = sqs.get_queue_attributes(QueueUrl=queues["fanout"], AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
    sns.subscribe(TopicArn=topic, Protocol="sqs", Endpoint=fanout_arn)
    http = sns.subscribe(TopicArn=topic, Protocol="http", Endpoint=endpoint_url, ReturnSubscriptionArn=True)
    sns.set_subscription_attributes(SubscriptionArn=http["SubscriptionArn"], AttributeName="DeliveryPolicy",
                                    AttributeValue=json.dumps(DELIVERY_POLICY))
    return queues, topic, http["SubscriptionArn"]


def queue_total(url, name):
    a = soak_check.get_json("%s/api/v1/queues/%s" % (url, name))["attributes"]
    return sum(int(a[k]) for k in ("ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible",
                                   "ApproximateNumberOfMessagesDelayed"))


def drain(url, endpoint, run_dir, deadline):
    """Waits until every acknowledged publish reached the endpoint with a 200
    and the queues are empty, or DEADLINE."""
    endpoint.drain()
    while time.time() < deadline:
        events = soak_check.read_events(run_dir)
        published = {e["id"] for e in events if e["ev"] == "publish"}
        delivered = {e["id"] for e in events if e["ev"] == "http" and e["status"] == 200}
        empty = all(queue_total(url, q) == 0 for q in ("soak-std", "soak-orders.fifo", "soak-fanout"))
        if empty and published <= delivered:
            time.sleep(2)  # the last attempts' rows are committed after their answers
            return True
        time.sleep(1)
    return False


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--relaydesk", default="build/dev/app/relaydesk")
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=int(time.time()))
    parser.add_argument("--run-dir", default=None, help="default: /tmp/relaydesk-soak-SEED")
    parser.add_argument("--failure-rate", type=float, default=0.3, help="share of deliveries the endpoint answers 500")
    parser.add_argument("--sdk-attempts", type=int, default=4,
                        help="boto3's own attempts per request, the first included (default 4: boto3's "
                             "max_attempts 3; 1: every answer lost to a kill is logged unknown)")
    args = parser.parse_args()
    soak_clients.SDK_ATTEMPTS = args.sdk_attempts

    run_dir = args.run_dir or "/tmp/relaydesk-soak-%d" % args.seed
    os.makedirs(os.path.join(run_dir, "logs"), exist_ok=True)
    rng = random.Random(args.seed)
    log = EventLog(os.path.join(run_dir, "logs", "broker.jsonl"))
    jitter = 0.1
    broker = KilledBroker(os.path.abspath(args.relaydesk), os.path.join(run_dir, "soak.db"), free_port(), log,
                          run_dir, ["--auto-confirm", "--jitter", str(jitter), "--seed", str(args.seed)])
    endpoint = FlakyEndpoint(EventLog(os.path.join(run_dir, "logs", "endpoint.jsonl")), args.failure_rate,
                             rng.randrange(1 << 30))
    endpoint.start()
    broker.start()
    queues, topic, http_arn = set_up(broker.url, endpoint.url)
    explained = subprocess.run([os.path.abspath(args.relaydesk), "policy", "explain", "-", "--format", "json"],
                               input=json.dumps(DELIVERY_POLICY).encode(), stdout=subprocess.PIPE, check=True)
    meta = {"seed": args.seed, "minutes": args.minutes, "url": broker.url, "subscriptionArn": http_arn,
            "topicArn": topic, "visibilityTimeout": VISIBILITY_TIMEOUT, "jitter": jitter,
            "policy": json.loads(explained.stdout), "started": time.time(),
            "load": os.getloadavg(), "command": " ".join(sys.argv), "sdkAttempts": args.sdk_attempts}

    stop, done = threading.Event(), threading.Event()
    seed = lambda: rng.randrange(1 << 30)  # noqa: E731
    url = broker.url
    clients = [
        Producer("prod-std-1", run_dir, url, seed(), stop, queues["std"], "soak-std", False),
        Producer("prod-std-2", run_dir, url, seed(), stop, queues["std"], "soak-std", False),
        Producer("prod-fifo-1", run_dir, url, seed(), stop, queues["fifo"], "soak-orders.fifo", True),
        Producer("prod-fifo-2", run_dir, url, seed(), stop, queues["fifo"], "soak-orders.fifo", True),
        Publisher("pub-1", run_dir, url, seed(), stop, topic),
        Publisher("pub-2", run_dir, url, seed(), stop, topic),
        Consumer("cons-std-1", run_dir, url, seed(), done, queues["std"], "soak-std"),
        Consumer("cons-std-2", run_dir, url, seed(), done, queues["std"], "soak-std"),
        Consumer("cons-fifo-1", run_dir, url, seed(), done, queues["fifo"], "soak-orders.fifo"),
        Consumer("cons-fifo-2", run_dir, url, seed(), done, queues["fifo"], "soak-orders.fifo"),
        Consumer("cons-fanout-1", run_dir, url, seed(), done, queues["fanout"], "soak-fanout", envelope=True),
    ]
    for c in clients:
        c.start()
    killer = threading.Thread(target=broker.kill_loop, args=(stop, seed()), daemon=True)
    killer.start()
    print("soak: seed %d, %s minutes, run folder %s, broker %s" % (args.seed, args.minutes, run_dir, url), flush=True)

    time.sleep(args.minutes * 60)
    stop.set()
    killer.join()
    for c in clients:
        if isinstance(c, (Producer, Publisher)):
            c.join()
    meta["soakEnded"] = time.time()
    drained = drain(url, endpoint, run_dir, time.time() + 180)
    done.set()
    for c in clients:
        c.join()
    meta.update(drained=drained, ended=time.time(), kills=broker.kills, starts=broker.starts,
                clientErrors={c.name: c.error for c in clients if c.error})
    with open(os.path.join(run_dir, "meta.json"), "w") as f:
        json.dump(meta, f, indent=1)
    soak_check.save_state(run_dir, url, ["soak-std", "soak-orders.fifo", "soak-fanout"], http_arn)
    broker.stop()
    endpoint.stop()
    return soak_check.main([run_dir])


if __name__ == "__main__":
    sys.exit(main())
