# SPDX-License-Identifier: MIT
"""`relaydesk serve --credentials FILE` with real clients (docs/configuration.md "Credentials").

With a credentials file the broker takes SQS and SNS requests only with an
AWS Signature Version 4 of a known access key — Debian's boto3 (query
protocol), the same botocore signer on the SQS JSON protocol and on a
presigned URL, the aws CLI — and the native API, Zaqar and /metrics only
with a bearer token; /health stays open. Wrong and missing credentials are
refused in each protocol's own error shape. No secret, token or the
receipt seal key ever shows in an answer or in what the broker logs.
Without the file nothing changes: any signature, or none, is taken.
"""
import base64
import datetime
import hashlib
import json
import os
import sqlite3
import subprocess
import tempfile
import unittest
import urllib.error
import urllib.request
import xml.etree.ElementTree as ElementTree
from unittest import mock

import boto3
import botocore.auth
from botocore.auth import SigV4Auth, SigV4QueryAuth
from botocore.awsrequest import AWSRequest
from botocore.config import Config
from botocore.credentials import Credentials
from botocore.exceptions import ClientError

from relaydesk_harness import RelaydeskServer, binary_from_environment

BINARY = binary_from_environment()
KEY_ID = "AKIDRELAYDESKTEST01"
SECRET = "relaydesk-secret-7Qp2/xK9+vL4wZ8"
TOKEN = "relaydesk-bearer-3f9c1e7a5b"
CREDENTIALS = {"accessKeys": {KEY_ID: SECRET}, "bearerTokens": [TOKEN],
               "sharedAccessKeys": {"RootManageSharedAccessKey": "relaydesk-sas-key-2Wq8"}}


def client(server, service, key_id=KEY_ID, secret=SECRET, region="us-east-1"):
    return boto3.client(service, endpoint_url=server.endpoint, region_name=region, aws_access_key_id=key_id,
                        aws_secret_access_key=secret, config=Config(retries={"max_attempts": 1}))


def error_of(call):
    try:
        call()
    except ClientError as error:
        return error.response["ResponseMetadata"]["HTTPStatusCode"], error.response["Error"]["Code"]
    raise AssertionError("the call succeeded; a refusal was expected")


def send(method, url, body=None, headers=None):
    """(status, headers, body text) of one request with urllib."""
    request = urllib.request.Request(url, data=body, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=60) as reply:
            return reply.status, dict(reply.getheaders()), reply.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers.items()), error.read().decode()


def signed_json_request(endpoint, target, body, secret=SECRET):
    """An SQS JSON protocol request signed by botocore's own SigV4 signer."""
    request = AWSRequest(method="POST", url=endpoint + "/", data=json.dumps(body).encode(),
                         headers={"X-Amz-Target": "AmazonSQS." + target,
                                  "Content-Type": "application/x-amz-json-1.0"})
    SigV4Auth(Credentials(KEY_ID, secret), "sqs", "eu-central-1").add_auth(request)
    return send("POST", endpoint + "/", request.body, dict(request.headers.items()))


class HostlessSigV4Auth(SigV4Auth):
    """botocore's signer leaving host out of SignedHeaders."""
    def headers_to_sign(self, request):
        headers = super().headers_to_sign(request)
        del headers["host"]
        return headers


def signed_then_swapped(endpoint, headers, body, sent_body, signer=SigV4Auth, payload_hash=True):
    """(status, headers, text) of `body` signed by botocore — over x-amz-content-sha256 of it when
    `payload_hash`, as the AWS SDK for JavaScript v3 signs — with `sent_body` sent instead."""
    headers = dict(headers)
    if payload_hash:
        headers["X-Amz-Content-SHA256"] = hashlib.sha256(body).hexdigest()
    request = AWSRequest(method="POST", url=endpoint + "/", data=body, headers=headers)
    signer(Credentials(KEY_ID, SECRET), "sqs", "us-east-1").add_auth(request)
    return send("POST", endpoint + "/", sent_body, dict(request.headers.items()))


def code_of(text):
    """The error code of a query XML or JSON protocol answer (None when it is no error)."""
    if text.lstrip().startswith("{"):
        return json.loads(text).get("__type", "").split("#")[-1] or None
    return next((e.text for e in ElementTree.fromstring(text).iter() if e.tag.endswith("Code")), None)


REAL_DATETIME = datetime.datetime


class Shifted(datetime.datetime):
    """datetime whose clock runs `offset` away from the real one (botocore signs with utcnow)."""
    offset = datetime.timedelta(0)

    @classmethod
    def utcnow(cls):
        return REAL_DATETIME.utcnow() + cls.offset

    @classmethod
    def now(cls, tz=None):
        return REAL_DATETIME.now(tz) + cls.offset


class CredentialsScenarios(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.addCleanup(self.folder.cleanup)
        self.credentials_file = os.path.join(self.folder.name, "credentials.json")
        with open(self.credentials_file, "w") as file:
            json.dump(CREDENTIALS, file)
        self.database = os.path.join(self.folder.name, "broker.db")
        self.server = RelaydeskServer(BINARY, "--credentials", self.credentials_file, database=self.database)
        self.server.__enter__()
        self.answers = []   # every answer body, checked for secrets at the end

    def tearDown(self):
        if self.server.process.poll() is None:
            self.server.__exit__(None, None, None)

    def record(self, result):
        self.answers.append(result[2])
        return result

    def bearer(self, method, path, token=TOKEN, body=None, headers=None):
        headers = dict(headers or {})
        if token is not None:
            headers["Authorization"] = "Bearer " + token
        if body is not None:
            headers["Content-Type"] = "application/json"
        return self.record(send(method, self.server.endpoint + path,
                                None if body is None else json.dumps(body).encode(), headers))

    def test_query_protocol_with_boto3_takes_the_right_key_only(self):
        sqs = client(self.server, "sqs")
        url = sqs.create_queue(QueueName="signed")["QueueUrl"]
        sqs.send_message(QueueUrl=url, MessageBody="hello")
        self.assertEqual(sqs.receive_message(QueueUrl=url)["Messages"][0]["Body"], "hello")
        # any region and the scope's own: the broker requires none in particular
        self.assertIn(url, client(self.server, "sqs", region="ap-southeast-2").list_queues()["QueueUrls"])
        self.assertEqual(error_of(lambda: client(self.server, "sqs", key_id="AKIDUNKNOWN").list_queues()),
                         (403, "InvalidClientTokenId"))
        self.assertEqual(error_of(lambda: client(self.server, "sqs", secret="wrong-secret").list_queues()),
                         (403, "SignatureDoesNotMatch"))
        sns = client(self.server, "sns")
        self.assertTrue(sns.create_topic(Name="signed")["TopicArn"].endswith(":signed"))
        self.assertEqual(error_of(lambda: client(self.server, "sns", key_id="AKIDUNKNOWN").create_topic(Name="refused")),
                         (403, "InvalidClientTokenId"))
        self.assertEqual(error_of(lambda: client(self.server, "sns", secret="wrong-secret").create_topic(Name="refused")),
                         (403, "SignatureDoesNotMatch"))
        # nothing was received or created by a refused request
        self.assertEqual([t["TopicArn"].split(":")[-1] for t in sns.list_topics()["Topics"]], ["signed"])

    def test_query_refusals_in_the_query_shape(self):
        body = b"Action=ListQueues&Version=2012-11-05"
        status, _, text = self.record(send("POST", self.server.endpoint + "/", body,
                                           {"Content-Type": "application/x-www-form-urlencoded"}))
        self.assertEqual(status, 403)
        root = ElementTree.fromstring(text)
        self.assertEqual(root.tag, "{http://queue.amazonaws.com/doc/2012-11-05/}ErrorResponse")
        self.assertEqual(next(e.text for e in root.iter() if e.tag.endswith("Code")), "InvalidClientTokenId")

    def test_json_protocol_signed_by_botocore(self):
        status, _, text = self.record(signed_json_request(self.server.endpoint, "CreateQueue", {"QueueName": "json"}))
        self.assertEqual(status, 200, text)
        status, headers, text = self.record(signed_json_request(self.server.endpoint, "ListQueues", {}, "wrong"))
        self.assertEqual(status, 403)
        self.assertEqual(json.loads(text)["__type"].split("#")[-1], "SignatureDoesNotMatch")
        status, _, text = self.record(send("POST", self.server.endpoint + "/", b"{}",
                                           {"X-Amz-Target": "AmazonSQS.ListQueues",
                                            "Content-Type": "application/x-amz-json-1.0"}))
        self.assertEqual((status, json.loads(text)["__type"].split("#")[-1]), (403, "InvalidClientTokenId"))

    def test_body_must_be_the_one_whose_hash_was_signed(self):
        json_headers = {"X-Amz-Target": "AmazonSQS.CreateQueue", "Content-Type": "application/x-amz-json-1.0"}
        form_headers = {"Content-Type": "application/x-www-form-urlencoded"}
        form = "Action=CreateQueue&QueueName=%s&Version=2012-11-05"
        for headers, signed, sent in ((json_headers, b'{"QueueName": "py-aaaa"}', b'{"QueueName": "py-bbbb"}'),
                                      (form_headers, (form % "py-aaaa").encode(), (form % "py-bbbb").encode())):
            status, _, text = self.record(signed_then_swapped(self.server.endpoint, headers, signed, sent))
            self.assertEqual((status, code_of(text)), (400, "XAmzContentSHA256Mismatch"), text)
            self.assertIn("x-amz-content-sha256", text)
            # UNSIGNED-PAYLOAD is for presigned URLs only: SQS and SNS sign their body
            unsigned = dict(headers, **{"X-Amz-Content-SHA256": "UNSIGNED-PAYLOAD"})
            status, _, text = self.record(signed_then_swapped(self.server.endpoint, unsigned, signed, sent, payload_hash=False))
            self.assertEqual((status, code_of(text)), (400, "XAmzContentSHA256Mismatch"), text)
            # the body that was signed passes
            status, _, text = self.record(signed_then_swapped(self.server.endpoint, headers, signed, signed))
            self.assertEqual(status, 200, text)
        names = [url.rsplit("/", 1)[-1] for url in client(self.server, "sqs").list_queues().get("QueueUrls", [])]
        self.assertEqual(names, ["py-aaaa"])

    def test_host_must_be_signed(self):
        headers = {"X-Amz-Target": "AmazonSQS.CreateQueue", "Content-Type": "application/x-amz-json-1.0"}
        body = b'{"QueueName": "hostless"}'
        status, _, text = self.record(signed_then_swapped(self.server.endpoint, headers, body, body,
                                                          signer=HostlessSigV4Auth, payload_hash=False))
        self.assertEqual((status, code_of(text)), (400, "IncompleteSignature"), text)
        self.assertIn("'Host' or ':authority' must be a 'SignedHeader'", text)
        self.assertNotIn("QueueUrls", client(self.server, "sqs").list_queues())

    def test_presigned_url(self):
        request = AWSRequest(method="GET", url=self.server.endpoint + "/?Action=ListQueues&Version=2012-11-05")
        SigV4QueryAuth(Credentials(KEY_ID, SECRET), "sqs", "us-east-1", expires=300).add_auth(request)
        status, _, text = self.record(send("GET", request.url))
        self.assertEqual(status, 200, text)
        status, _, text = self.record(send("GET", request.url.replace("ListQueues", "ListTopics")))
        self.assertEqual(status, 403, text)

    def test_clock_skew_beyond_15_minutes_is_refused(self):
        sqs = client(self.server, "sqs")
        for minutes, expected in ((14, None), (-14, None), (16, "SignatureDoesNotMatch"), (-16, "SignatureDoesNotMatch")):
            Shifted.offset = datetime.timedelta(minutes=minutes)
            with mock.patch.object(botocore.auth.datetime, "datetime", Shifted):
                if expected is None:
                    self.assertIn("ResponseMetadata", sqs.list_queues())
                else:
                    self.assertEqual(error_of(sqs.list_queues), (403, expected), minutes)

    def test_aws_cli_with_right_and_wrong_keys(self):
        def aws(key_id, secret):
            environment = dict(os.environ, AWS_ACCESS_KEY_ID=key_id, AWS_SECRET_ACCESS_KEY=secret,
                               AWS_DEFAULT_REGION="us-east-1", AWS_PAGER="", AWS_MAX_ATTEMPTS="1")
            return subprocess.run(["/usr/bin/aws", "--endpoint-url", self.server.endpoint, "sqs", "create-queue",
                                   "--queue-name", "cli"], env=environment, capture_output=True, text=True, timeout=120)
        right = aws(KEY_ID, SECRET)
        self.assertEqual(right.returncode, 0, right.stderr)
        wrong = aws("AKIDUNKNOWN", SECRET)
        self.assertNotEqual(wrong.returncode, 0)
        self.assertIn("InvalidClientTokenId", wrong.stderr)
        self.assertNotIn(SECRET, wrong.stderr)

    def test_bearer_token_for_native_api_zaqar_and_metrics(self):
        for path in ("/api/v1/queues", "/metrics", "/v2/queues"):
            headers = {"Client-ID": "3381af92-2b9e-11e3-b191-71861300734c"}
            status, reply_headers, text = self.bearer("GET", path, token=None, headers=headers)
            self.assertEqual(status, 401, path)
            self.assertEqual(reply_headers.get("WWW-Authenticate"), "Bearer", path)
            self.assertIn("Unauthorized", text, path)
            self.assertEqual(self.bearer("GET", path, token="not-a-token", headers=headers)[0], 401, path)
            status, _, text = self.bearer("GET", path, headers=headers)
            self.assertIn(status, (200, 204), "%s: %s" % (path, text))
        # Zaqar clients may send X-Auth-Token instead
        status, _, _ = self.record(send("GET", self.server.endpoint + "/v2/queues",
                                        headers={"X-Auth-Token": TOKEN, "Client-ID": "3381af92-2b9e-11e3-b191-71861300734c"}))
        self.assertIn(status, (200, 204))
        # /health stays open (probes carry no credentials)
        self.assertEqual(self.record(send("GET", self.server.endpoint + "/health"))[0], 200)
        # a state change without the token changes nothing
        self.assertEqual(self.bearer("POST", "/api/v1/queues", token=None, body={"name": "sneaky"})[0], 401)
        status, _, text = self.bearer("GET", "/api/v1/queues")
        self.assertNotIn("sneaky", text)

    def test_no_secret_in_answers_exports_or_logs(self):
        sqs = client(self.server, "sqs")
        url = sqs.create_queue(QueueName="sealed")["QueueUrl"]
        sqs.send_message(QueueUrl=url, MessageBody="x")
        handle = sqs.receive_message(QueueUrl=url)["Messages"][0]["ReceiptHandle"]
        sqs.change_message_visibility(QueueUrl=url, ReceiptHandle=handle, VisibilityTimeout=0)
        error_of(lambda: client(self.server, "sqs", secret="wrong-secret").list_queues())
        error_of(lambda: client(self.server, "sqs", key_id="AKIDUNKNOWN").list_queues())
        self.bearer("GET", "/api/v1/queues", token="wrong")
        for path in ("/api/v1/config", "/api/v1/queues", "/api/v1/queues/sealed", "/api/v1/queues/sealed/messages",
                     "/metrics", "/api/v1/metrics", "/health"):
            self.bearer("GET", path)
        self.server.__exit__(None, None, None)
        with sqlite3.connect(self.database) as database:
            seal = database.execute("SELECT value FROM settings WHERE key = 'receipt.seal_key'").fetchone()[0]
        seal = seal if isinstance(seal, bytes) else seal.encode("latin-1")
        forbidden = {"secret": SECRET, "bearer token": TOKEN, "seal key (hex)": seal.hex(),
                     "seal key (HEX)": seal.hex().upper(), "seal key (base64)": base64.b64encode(seal).decode()}
        self.assertEqual(len(self.answers), 8)
        for name, value in forbidden.items():
            for answer in self.answers:
                self.assertNotIn(value, answer, name)
            self.assertNotIn(value, self.server.errors, name + " in the log")
        self.assertNotIn(seal, self.server.errors.encode("utf-8", "surrogateescape"), "seal key bytes in the log")


class WithoutCredentials(unittest.TestCase):
    def test_any_signature_or_none_is_taken(self):
        with RelaydeskServer(BINARY) as server:
            self.assertIn("QueueUrl", client(server, "sqs", key_id="anything", secret="at-all").create_queue(QueueName="q"))
            status, _, text = send("POST", server.endpoint + "/", b"Action=ListQueues&Version=2012-11-05",
                                   {"Content-Type": "application/x-www-form-urlencoded"})
            self.assertEqual(status, 200, text)
            self.assertEqual(send("GET", server.endpoint + "/api/v1/queues")[0], 200)
            self.assertEqual(send("GET", server.endpoint + "/metrics")[0], 200)


class BadCredentialsFile(unittest.TestCase):
    def test_refused_at_start_without_echoing_the_secret(self):
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "credentials.json")
            with open(path, "w") as file:
                json.dump({"accessKeys": {KEY_ID: SECRET}, "bearerToken": [TOKEN]}, file)   # a typo: bearerToken
            run = subprocess.run([BINARY, "serve", "--port", "0", "--amqp-port", "off", "--amqps-port", "off", "--sb-management-port", "off", "--db", ":memory:",
                                  "--credentials", path], capture_output=True, text=True, timeout=60)
            self.assertNotEqual(run.returncode, 0)
            self.assertIn("bearerToken", run.stderr)
            self.assertNotIn(SECRET, run.stderr + run.stdout)
            self.assertNotIn(TOKEN, run.stderr + run.stdout)


if __name__ == "__main__":
    unittest.main()
