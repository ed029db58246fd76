# SPDX-License-Identifier: MIT
"""The soak's clients, each a thread with its own boto3 client and its own
log. A client retries across kills as SDK users do: boto3's own retries, then
the same request again (a FIFO send keeps its deduplication id) until it is
answered or the soak ends. What each log records:

- `send` / `publish`: the broker acknowledged it (a 200 with a MessageId);
  `unknown`: an attempt whose answer was lost (refused connection, reset,
  timeout) — it may or may not have been stored, and is never counted as
  acknowledged;
- `recv`: a message a ReceiveMessage answer carried, with the time the
  request was sent (`t0`) and answered (`t1`), its index in the answer and
  its receive count;
- `delete`: a DeleteMessage answered 200, with the receive it deletes for.

Message bodies carry a token (client name and number), so a received
message is traced to its send even when the send's answer was lost."""
import json
import random
import threading
import time

import boto3
import botocore.config
import botocore.exceptions

from soak_log import EventLog

FAILURES = (botocore.exceptions.EndpointConnectionError, botocore.exceptions.ConnectionClosedError,
            botocore.exceptions.ReadTimeoutError, botocore.exceptions.ConnectTimeoutError,
            botocore.exceptions.ClientError, ConnectionError, OSError)


SDK_ATTEMPTS = 4  # boto3's own attempts per request, the first included; soak.py --sdk-attempts sets it


def make_client(service, url):
    config = botocore.config.Config(
        retries={"mode": "standard", "total_max_attempts": SDK_ATTEMPTS}, connect_timeout=2, read_timeout=30,
        max_pool_connections=4)
    return boto3.session.Session().client(
        service, endpoint_url=url, region_name="us-east-1",
        aws_access_key_id="soak", aws_secret_access_key="soak", config=config)


class Client(threading.Thread):
    """A client thread: `run_once` until STOP (or DRAIN_DONE for consumers)."""

    def __init__(self, name, run_dir, url, seed, stop):
        super().__init__(name=name, daemon=True)
        self.log = EventLog("%s/logs/%s.jsonl" % (run_dir, name))
        self.url = url
        self.rng = random.Random(seed)
        self.stop = stop
        self.counter = 0
        self.error = None

    def token(self):
        self.counter += 1
        return "%s-%d" % (self.name, self.counter)

    def until_answered(self, what, call, **fields):
        """CALL() until it answers; each lost answer is an `unknown` event.
        Returns the answer, or None once the soak stops first."""
        while True:
            t0 = time.time()
            try:
                return t0, call()
            except FAILURES as error:
                self.log.write("unknown", op=what, t0=t0, error=type(error).__name__, **fields)
                if self.stop.is_set():
                    return t0, None
                time.sleep(0.2)

    def run(self):
        try:
            while not self.finished():
                self.run_once()
        except Exception as error:  # a client bug, not a broker failure: reported
            self.error = repr(error)
            self.log.write("client_error", error=repr(error))

    def finished(self):
        return self.stop.is_set()


class Producer(Client):
    """Sends to QUEUE (standard or FIFO), single sends and batches of up to 10;
    on FIFO each producer owns GROUPS groups and sends each group in order."""

    def __init__(self, name, run_dir, url, seed, stop, queue_url, queue, fifo, groups=3):
        super().__init__(name, run_dir, url, seed, stop)
        self.sqs = make_client("sqs", url)
        self.queue_url, self.queue, self.fifo = queue_url, queue, fifo
        self.groups = ["%s-g%d" % (name, i) for i in range(groups)]

    def entry(self, token):
        entry = {"MessageBody": token}
        if self.fifo:
            entry["MessageGroupId"] = self.rng.choice(self.groups)
            entry["MessageDeduplicationId"] = token
        return entry

    def run_once(self):
        time.sleep(self.rng.uniform(0.01, 0.08))
        if self.rng.random() < 0.3:
            entries = [dict(self.entry(self.token()), Id=str(i)) for i in range(self.rng.randint(2, 10))]
            t0, answer = self.until_answered(
                "SendMessageBatch", lambda: self.sqs.send_message_batch(QueueUrl=self.queue_url, Entries=entries),
                q=self.queue, tokens=[e["MessageBody"] for e in entries])
            if answer is None:
                return
            by_id = {e["Id"]: e for e in entries}
            for ok in answer.get("Successful", []):
                e = by_id[ok["Id"]]
                self.log.write("send", q=self.queue, op="batch", id=ok["MessageId"], token=e["MessageBody"],
                               group=e.get("MessageGroupId"), seq=ok.get("SequenceNumber"), t0=t0)
            for failed in answer.get("Failed", []):
                self.log.write("send_failed", q=self.queue, token=by_id[failed["Id"]]["MessageBody"],
                               code=failed.get("Code"))
        else:
            e = self.entry(self.token())
            t0, answer = self.until_answered(
                "SendMessage", lambda: self.sqs.send_message(QueueUrl=self.queue_url, **e),
                q=self.queue, tokens=[e["MessageBody"]])
            if answer is not None:
                self.log.write("send", q=self.queue, op="single", id=answer["MessageId"], token=e["MessageBody"],
                               group=e.get("MessageGroupId"), seq=answer.get("SequenceNumber"), t0=t0)


class Consumer(Client):
    """Receives from QUEUE (long poll 1 s, up to 10) and deletes what it got,
    one by one or in a batch, in the order received. On a FIFO queue it
    deletes a group's messages in order. `envelope`: the body is an SNS
    notification; the token and the publish's MessageId are read from it.
    Runs until DONE is set (after the drain), not STOP."""

    def __init__(self, name, run_dir, url, seed, done, queue_url, queue, envelope=False):
        super().__init__(name, run_dir, url, seed, done)
        self.sqs = make_client("sqs", url)
        self.queue_url, self.queue, self.envelope = queue_url, queue, envelope

    def run_once(self):
        t0 = time.time()
        try:
            answer = self.sqs.receive_message(QueueUrl=self.queue_url, MaxNumberOfMessages=10, WaitTimeSeconds=1,
                                              AttributeNames=["All"])
        except FAILURES as error:
            self.log.write("unknown", op="ReceiveMessage", q=self.queue, t0=t0, error=type(error).__name__)
            time.sleep(0.2)
            return
        t1 = time.time()
        received = []
        for index, m in enumerate(answer.get("Messages", [])):
            body, published = m["Body"], None
            if self.envelope:
                note = json.loads(body)
                body, published = note["Message"], note["MessageId"]
            a = m.get("Attributes", {})
            rh = m["ReceiptHandle"]
            self.log.write("recv", q=self.queue, id=m["MessageId"], token=body, pub=published,
                           group=a.get("MessageGroupId"), seq=a.get("SequenceNumber"),
                           rc=int(a.get("ApproximateReceiveCount", "0")), t0=t0, t1=t1, idx=index, rh=rh[-16:])
            received.append((m["MessageId"], rh))
        if not received:
            return
        if len(received) > 1 and self.rng.random() < 0.5:
            entries = [{"Id": str(i), "ReceiptHandle": rh} for i, (_, rh) in enumerate(received)]
            d0 = time.time()
            try:
                answer = self.sqs.delete_message_batch(QueueUrl=self.queue_url, Entries=entries)
            except FAILURES as error:
                self.log.write("unknown", op="DeleteMessageBatch", q=self.queue, t0=d0, error=type(error).__name__)
                return
            ok = {e["Id"] for e in answer.get("Successful", [])}
            for i, (mid, rh) in enumerate(received):
                if str(i) in ok:
                    self.log.write("delete", q=self.queue, id=mid, rh=rh[-16:], recv_t0=t0, t0=d0)
        else:
            for mid, rh in received:
                d0 = time.time()
                try:
                    self.sqs.delete_message(QueueUrl=self.queue_url, ReceiptHandle=rh)
                except FAILURES as error:
                    self.log.write("unknown", op="DeleteMessage", q=self.queue, t0=d0, error=type(error).__name__)
                    continue
                self.log.write("delete", q=self.queue, id=mid, rh=rh[-16:], recv_t0=t0, t0=d0)


class Publisher(Client):
    """Publishes to TOPIC; each publish's MessageId is logged when answered."""

    def __init__(self, name, run_dir, url, seed, stop, topic_arn):
        super().__init__(name, run_dir, url, seed, stop)
        self.sns = make_client("sns", url)
        self.topic_arn = topic_arn

    def run_once(self):
        time.sleep(self.rng.uniform(0.05, 0.2))
        token = self.token()
        t0, answer = self.until_answered(
            "Publish", lambda: self.sns.publish(TopicArn=self.topic_arn, Message=token), tokens=[token])
        if answer is not None:
            self.log.write("publish", id=answer["MessageId"], token=token, t0=t0)
