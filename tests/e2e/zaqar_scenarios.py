# SPDX-License-Identifier: MIT
"""The Zaqar v2 API (docs/behaviour.md §8.5) end to end with Debian's
python3-zaqarclient against `relaydesk serve` (virtual clock, --jitter 0):
queues with metadata (create, list with paging, JSON-patch update, stats,
purge, delete), messages (post, list with echo and include_claimed, get by
ids, delete by id and ids, pop), claims (create, get, renew, release, delete
with claim_id), the reserved metadata, a restart keeping metadata, claims
and subscriptions, the errors Zaqar answers, and subscriptions to an HTTP
endpoint on a thread: Zaqar's notification body, the blueprint's retry
example at its exact times, a 4xx ending at once, and a queue whose
ignore_subscription_override wins over the subscription's policy."""
import datetime
import json
import os
import tempfile
import threading
import unittest
import urllib.error
import urllib.request
import uuid
import warnings
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from zaqarclient.queues import client as zaqar_client
from zaqarclient.transport import errors as zaqar_errors

from delivery_scenarios import verify_signature
from relaydesk_harness import RelaydeskServer, binary_from_environment

BINARY = binary_from_environment()

# The Zaqar retry-policy blueprint's worked example (docs/behaviour.md §3.3).
BLUEPRINT = {"retries_with_no_delay": 3, "minimum_delay_retries": 3, "minimum_delay": 5, "maximum_delay": 60,
             "maximum_delay_retries": 3, "retry_backoff_function": "linear"}
# Its attempts: the first, 3 immediate, 3 five seconds apart, backoff 5, 10, … 60, 3 sixty seconds apart.
BLUEPRINT_OFFSETS = [0, 0, 0, 0, 5, 10, 15] + [15 + sum(range(5, 5 * k + 1, 5)) for k in range(1, 13)] + \
                    [405 + 60, 405 + 120, 405 + 180]


def seconds(text):
    return datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").timestamp()


class Endpoint:
    """An HTTP subscriber on a thread answering every POST with `status`."""

    def __init__(self, status):
        self.received = []   # (headers, parsed body)
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                endpoint.received.append((dict(self.headers), json.loads(body)))
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = "http://127.0.0.1:%d/hook" % self.server.server_address[1]

    def close(self):
        self.server.shutdown()
        self.server.server_close()


class ZaqarScenarios(unittest.TestCase):
    def setUp(self):
        # The client opens a connection per request and leaves it to the collector.
        warnings.simplefilter("ignore", ResourceWarning)
        warnings.simplefilter("ignore", DeprecationWarning)   # its use of distutils
        self.server = RelaydeskServer(BINARY, "--jitter", "0").__enter__()
        self.addCleanup(self.server.__exit__, None, None, None)
        self.client = self.zaqar()

    def zaqar(self, project="demo"):
        return zaqar_client.Client(self.server.endpoint, version=2,
                                   conf={"auth_opts": {"backend": "noauth", "options": {"os_project_id": project}}})

    def raw(self, method, path, body=None, headers=None, content_type="application/json"):
        """A request under /v2 as curl sends it: (status, parsed body or None, headers)."""
        data = None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
        sent = {"Client-ID": str(uuid.uuid4())}
        if data is not None:
            sent["Content-Type"] = content_type
        sent.update(headers or {})
        request = urllib.request.Request(self.server.endpoint + "/v2" + path, data=data, method=method, headers=sent)
        try:
            with urllib.request.urlopen(request, timeout=60) as reply:
                text = reply.read()
                return reply.status, json.loads(text) if text else None, reply.headers
        except urllib.error.HTTPError as error:
            text = error.read()
            return error.code, json.loads(text) if text else None, error.headers

    def attempts(self, queue):
        status, reply = self.server.api("GET", "/attempts?topicArn=arn:aws:sns:us-east-1:000000000000:zaqar-" + queue)
        self.assertEqual(status, 200, reply)
        return reply["attempts"]

    # --- service and queues ---

    def test_service_homeDocumentPingHealth(self):
        self.assertTrue(self.client.ping())
        self.assertEqual(self.client.health(), {"catalog_reachable": True, "storage_reachable": True})
        self.assertIn("rel/queues", self.client.homedoc()["resources"])

    def test_queues_createWithMetadata_listPaged_patch_stats_delete(self):
        status, _, headers = self.raw("PUT", "/queues/orders", {"color": "red", "_default_message_ttl": 120})
        self.assertEqual((status, headers["Location"]), (201, "/v2/queues/orders"))
        self.assertEqual(self.raw("PUT", "/queues/orders", {"color": "blue"})[0], 204)   # kept as it was
        for name in ("alpha", "beta"):
            self.client.queue(name, force_create=True)
        queue = self.client.queue("orders", auto_create=False)
        self.assertEqual(queue.metadata(force_reload=True),
                         {"color": "red", "_default_message_ttl": 120, "_max_messages_post_size": 262144,
                          "_default_message_delay": 0})
        queue.metadata(new_meta={"color": "green", "size": 3})   # JSON patch: replace, add, remove
        self.assertEqual(queue.metadata(force_reload=True),
                         {"color": "green", "size": 3, "_default_message_ttl": 3600,
                          "_max_messages_post_size": 262144, "_default_message_delay": 0})
        listing, _ = self.client.queues(limit=2)
        self.assertEqual([q.name for q in listing.stream()], ["alpha", "beta", "orders"])   # follows the next links
        detailed, count = self.client.queues(detailed=True, with_count=True)
        self.assertEqual(count, 3)
        self.assertEqual(next(q for q in detailed if q.name == "orders").metadata()["size"], 3)
        self.assertEqual(queue.stats["messages"], {"free": 0, "claimed": 0, "total": 0})
        queue.delete()
        self.assertEqual(sorted(q.name for q in self.client.queues()[0]), ["alpha", "beta"])
        # As Zaqar: an unknown queue's metadata is the defaults, its stats zero.
        self.assertEqual(self.raw("GET", "/queues/orders")[1]["_default_message_ttl"], 3600)

    def test_queueErrors_inZaqarShape(self):
        status, body, _ = self.raw("GET", "/queues", headers={"Client-ID": ""})
        self.assertEqual((status, body["title"]), (400, "Missing header value"))
        status, body, _ = self.raw("GET", "/queues", headers={"Client-ID": "not-a-uuid"})
        self.assertEqual((status, body["description"]), (400, "Malformed hexadecimal UUID."))
        self.assertEqual(self.raw("PUT", "/queues/bad.name")[0], 400)
        self.assertEqual(self.raw("PUT", "/queues/" + "q" * 65)[0], 400)
        status, body, _ = self.raw("PUT", "/queues/ttl", {"_default_message_ttl": 30})
        self.assertEqual((status, body["title"]), (400, "Invalid API request"))
        self.assertEqual(self.raw("PUT", "/queues/p", {"_retry_policy": {"minimum_delay": "5"}})[0], 400)
        # Retries are bounded (100 in all, SNS's limit; Zaqar sets none), also where the phases' sum overflows.
        for policy in ({"retries_with_no_delay": 1000000}, {"retries_with_no_delay": 2 ** 31 - 1},
                       {"retries_with_no_delay": 2 ** 31 - 1, "minimum_delay_retries": 2 ** 31 - 1}):
            status, body, _ = self.raw("PUT", "/queues/p", {"_retry_policy": policy})
            self.assertEqual(status, 400, policy)
            self.assertIn("at most 100", body["description"])
            status, body, _ = self.raw("POST", "/queues/p/subscriptions",
                                       {"subscriber": "http://127.0.0.1:9/h", "options": {"_retry_policy": policy}})
            self.assertEqual(status, 400, policy)
        self.assertEqual(self.raw("GET", "/queues/orders")[0], 200)
        # PATCH: only the JSON-patch type; a missing key to replace is a conflict; unknown queue 404.
        self.client.queue("orders", force_create=True)
        change = [{"op": "replace", "path": "/metadata/ghost", "value": 1}]
        self.assertEqual(self.raw("PATCH", "/queues/orders", change)[0], 415)
        patch_type = "application/openstack-messaging-v2.0-json-patch"
        self.assertEqual(self.raw("PATCH", "/queues/orders", change, content_type=patch_type)[0], 409)
        self.assertEqual(self.raw("PATCH", "/queues/nowhere", change, content_type=patch_type)[0], 404)
        with self.assertRaises(zaqar_errors.MalformedRequest):
            list(self.client.queues(limit=21)[0])
        # The browser boundary holds under /v2 too, in Zaqar's shape; only JSON bodies pass.
        status, body, _ = self.raw("POST", "/queues/orders/messages", {"messages": [{"body": 1}]},
                                   headers={"Origin": "http://evil.example"})
        self.assertEqual((status, sorted(body)), (403, ["description", "title"]))
        status, body, _ = self.raw("GET", "/queues", headers={"Host": "rebound.example:9911"})
        self.assertEqual(status, 421)
        self.assertIn("--allow-host rebound.example", body["description"])
        self.assertEqual(self.raw("POST", "/queues/orders/messages", b"messages", content_type="text/plain")[0], 415)
        self.assertEqual(self.client.queue("orders", auto_create=False).stats["messages"]["total"], 0)

    def test_versions_atTheRoot_withoutClientId(self):
        """GET / answers Zaqar's versions document (300) without a Client-ID,
        so discovery (keystoneauth with an endpoint override) finds /v2/."""
        request = urllib.request.Request(self.server.endpoint + "/", method="GET")
        with self.assertRaises(urllib.error.HTTPError) as caught:   # urllib raises on 300
            urllib.request.urlopen(request, timeout=60)
        self.assertEqual(caught.exception.code, 300)
        versions = json.loads(caught.exception.read())["versions"]
        self.assertEqual([(v["id"], v["status"]) for v in versions], [("2", "CURRENT")])
        self.assertEqual(versions[0]["links"], [{"href": "/v2/", "rel": "self"}])
        self.assertEqual(self.raw("GET", "", headers={"Client-ID": ""})[0], 400)   # /v2 itself wants one, as Zaqar

    # --- messages and claims ---

    def test_messages_markerNotAPosition_emptyPage(self):
        """A marker that is no storage position (the OpenStack SDK sends a
        message id) lists nothing, as Zaqar's storage does, instead of 400."""
        queue = self.client.queue("paged", force_create=True)
        posted = queue.post([{"body": 1}, {"body": 2}])
        first_id = posted["resources"][0].rsplit("/", 1)[1]
        for marker in (first_id, "not-a-number"):
            status, body, _ = self.raw("GET", "/queues/paged/messages?echo=true&marker=" + marker)
            self.assertEqual((status, body), (200, {"messages": [], "links": []}), marker)
        status, body, _ = self.raw("GET", "/queues/paged/messages?echo=true")
        self.assertEqual([m["body"] for m in body["messages"]], [1, 2])
        status, body, _ = self.raw("GET", "/queues/paged/messages?echo=true&marker=-4")   # int() takes it
        self.assertEqual([m["body"] for m in body["messages"]], [1, 2])

    def test_claims_limitOnlyAnInteger(self):
        """A claim's limit: the query's as Zaqar reads it; one in the body
        must be an integer 1-20 (a string is refused) and claims nothing."""
        queue = self.client.queue("limits", force_create=True)
        queue.post([{"body": i} for i in range(4)])
        for wrong in ({"ttl": 60, "limit": "5"}, {"ttl": 60, "limit": 0}, {"ttl": 60, "limit": 21}):
            status, body, _ = self.raw("POST", "/queues/limits/claims", wrong)
            self.assertEqual(status, 400, wrong)
            self.assertIn("limit", body["description"].lower(), wrong)
        self.assertEqual(queue.stats["messages"]["claimed"], 0)
        status, body, _ = self.raw("POST", "/queues/limits/claims", {"ttl": 60, "limit": 3})
        self.assertEqual((status, len(body["messages"])), (201, 3))


    def test_messages_postListEchoGetDeletePop(self):
        queue = self.client.queue("jobs", force_create=True)
        posted = queue.post([{"body": {"n": 1}, "ttl": 300}, {"body": "two"}, {"body": [3], "delay": 60}])
        self.assertEqual(len(posted["resources"]), 3)
        self.assertTrue(all(href.startswith("/v2/queues/jobs/messages/") for href in posted["resources"]))
        self.assertEqual([m.body for m in queue.messages()], [])   # echo off: not one's own
        mine = list(queue.messages(echo=True))
        self.assertEqual([(m.body, m.ttl) for m in mine], [({"n": 1}, 300), ("two", 3600), ([3], 3600)])
        other = self.zaqar("other").queue("jobs", auto_create=False)
        self.assertEqual([m.body for m in other.messages()], [{"n": 1}, "two", [3]])   # another client sees them
        self.assertEqual(queue.message(mine[1].id).body, "two")
        self.assertEqual(sorted(json.dumps(m.body) for m in queue.messages(mine[0].id, mine[1].id)),
                         ['"two"', '{"n": 1}'])
        with self.assertRaises(zaqar_errors.ResourceNotFound):
            queue.message("00000000-0000-0000-0000-000000000000")
        queue.delete_messages(mine[1].id)
        popped = queue.pop(1)
        self.assertEqual([m.body for m in popped], [{"n": 1}])
        self.assertEqual(queue.stats["messages"]["total"], 0)   # the delayed one is not counted yet
        self.server.advance(60)
        self.assertEqual(queue.stats["messages"]["free"], 1)
        with self.assertRaises(zaqar_errors.MalformedRequest):
            queue.post({"body": 1, "ttl": 59})
        with self.assertRaises(zaqar_errors.MalformedRequest):
            queue.post([{"body": i} for i in range(21)])
        status, body, _ = self.raw("POST", "/queues/jobs/messages", {"messages": [{"body": "x" * (256 * 1024)}]})
        self.assertEqual((status, body["description"][:36]), (400, "Message collection size is too large"))
        # Posting to a queue that does not exist makes it.
        self.client.queue("lazy", auto_create=False).post({"body": 1})
        self.assertIn("lazy", [q.name for q in self.client.queues()[0]])

    def test_claims_claimGetRenewReleaseDelete_andGraceLifetime(self):
        queue = self.client.queue("work", force_create=True)
        queue.post([{"body": n, "ttl": 60} for n in range(5)])
        claim = queue.claim(ttl=120, grace=300, limit=3)
        claimed = list(claim)
        self.assertEqual([m.body for m in claimed], [0, 1, 2])
        self.assertTrue(all(m.claim_id == claim.id for m in claimed))
        self.assertEqual(queue.stats["messages"], {**queue.stats["messages"], "claimed": 3, "free": 2})
        self.assertEqual([m.body for m in queue.messages(echo=True)], [3, 4])
        self.assertEqual(len(list(queue.messages(echo=True, include_claimed=True))), 5)
        again = queue.claim(id=claim.id)
        self.assertEqual((again.ttl, [m.body for m in again]), (120, [0, 1, 2]))
        # A claimed message is deleted only with its claim.
        status, body, _ = self.raw("DELETE", "/queues/work/messages/" + claimed[0].id)
        self.assertEqual((status, body["title"]), (403, "Unable to delete"))
        claimed[0].delete()
        # The grace keeps the claimed messages past their own ttl of 60 s.
        self.server.advance(100)
        self.assertEqual(queue.stats["messages"], {**queue.stats["messages"], "claimed": 2, "free": 0})
        again.update(ttl=200, grace=60)
        self.server.advance(150)
        self.assertEqual(queue.stats["messages"]["claimed"], 2)
        again.delete()   # release
        self.assertEqual(queue.stats["messages"], {**queue.stats["messages"], "claimed": 0, "free": 2})
        with self.assertRaises(zaqar_errors.ResourceNotFound):
            queue.claim(id=claim.id).ttl
        with self.assertRaises(zaqar_errors.MalformedRequest):
            queue.claim(ttl=10)
        self.assertEqual(list(self.client.queue("empty", force_create=True).claim(ttl=60)), [])
        self.assertEqual([m.body for m in queue.claim(ttl=60, limit=20)], [1, 2])

    def test_reservedMetadata_claimCountDeadLetters_defaultDelay(self):
        status, body, _ = self.raw("PUT", "/queues/tasks", {"_max_claim_count": 2, "_dead_letter_queue": "tasks-dlq",
                                                            "_dead_letter_queue_messages_ttl": 120,
                                                            "_default_message_delay": 30})
        self.assertEqual(status, 201, body)
        queue = self.client.queue("tasks", auto_create=False)
        queue.post({"body": "poison"})
        # The queue's default delay: not listed (the queue sets _default_message_delay) nor claimable for 30 s.
        self.assertEqual(list(queue.messages(echo=True)), [])
        self.assertEqual(list(queue.claim(ttl=60)), [])
        self.server.advance(30)
        for _ in range(2):   # claimed twice, released twice
            claim = queue.claim(ttl=60)
            self.assertEqual([m.body for m in claim], ["poison"])
            claim.delete()
        # A third claim finds it past _max_claim_count: it moved to the dead-letter queue (made for it).
        self.assertEqual(list(queue.claim(ttl=60)), [])
        self.assertEqual(queue.stats["messages"]["total"], 0)
        dead = self.client.queue("tasks-dlq", auto_create=False)
        self.assertEqual([m.body for m in dead.messages(echo=True)], ["poison"])
        self.server.advance(119)   # _dead_letter_queue_messages_ttl: it lives 120 s there
        self.assertEqual([m.body for m in dead.messages(echo=True)], ["poison"])
        self.server.advance(1)
        self.assertEqual(list(dead.messages(echo=True)), [])

    def test_purge_messagesAndSubscriptions(self):
        queue = self.client.queue("purged", force_create=True)
        queue.post([{"body": 1}, {"body": 2}])
        self.client.subscription("purged", subscriber="http://127.0.0.1:9/hook", ttl=3600)
        queue.purge(resource_types=["messages"])
        self.assertEqual(queue.stats["messages"]["total"], 0)
        self.assertEqual(len(list(self.client.subscriptions("purged"))), 1)
        queue.purge()
        self.assertEqual(list(self.client.subscriptions("purged")), [])

    def test_restart_keepsMetadataClaimsAndSubscriptions(self):
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        database = os.path.join(folder.name, "zaqar.db")
        with RelaydeskServer(BINARY, database=database) as first:
            self.server = first
            client = self.zaqar()
            queue = client.queue("kept", force_create=True)
            queue.metadata(new_meta={"owner": "ops"})
            queue.post([{"body": "a"}, {"body": "b"}])
            claim = queue.claim(ttl=600, limit=1)
            claimed = list(claim)
            subscription = client.subscription("kept", subscriber="http://127.0.0.1:9/kept", ttl=3600)
        with RelaydeskServer(BINARY, database=database) as second:
            self.server = second
            client = self.zaqar()
            queue = client.queue("kept", auto_create=False)
            self.assertEqual(queue.metadata(force_reload=True)["owner"], "ops")
            self.assertEqual(queue.stats["messages"], {**queue.stats["messages"], "claimed": 1, "free": 1})
            self.assertEqual([m.body for m in queue.claim(id=claim.id)], ["a"])
            # Deleted with the claim it was given before the restart.
            self.assertEqual(self.raw("DELETE", "/queues/kept/messages/%s?claim_id=%s" % (claimed[0].id, claim.id))[0], 204)
            self.assertEqual(queue.stats["messages"]["total"], 1)
            self.assertEqual([s.id for s in client.subscriptions("kept")], [subscription.id])

    # --- subscriptions and notifications ---

    def test_subscriptions_listGetUpdateDelete(self):
        self.client.queue("news", force_create=True)
        first = self.client.subscription("news", subscriber="http://127.0.0.1:9/a", ttl=600,
                                         options={"_retry_policy": BLUEPRINT})
        self.client.subscription("news", subscriber="https://127.0.0.1:9/b", ttl=3600)
        listed = {s.subscriber: s for s in self.client.subscriptions("news")}
        self.assertEqual(sorted(listed), ["http://127.0.0.1:9/a", "https://127.0.0.1:9/b"])
        got = self.client.subscription("news", id=first.id, auto_create=False)
        got.ensure_exists()
        self.assertEqual((got.ttl, got.options, got.confirmed), (600, {"_retry_policy": BLUEPRINT}, True))
        got.update({"ttl": 1200, "subscriber": "http://127.0.0.1:9/c"})
        got.ensure_exists()
        self.assertEqual((got.ttl, got.subscriber), (1200, "http://127.0.0.1:9/c"))
        status, body, _ = self.raw("POST", "/queues/news/subscriptions", {"subscriber": "http://127.0.0.1:9/c"})
        self.assertEqual(status, 409, body)
        for wrong in ({"subscriber": "mailto:a@example.com"}, {"subscriber": "http://x/", "ttl": 10},
                      {"subscriber": "http://x/", "options": {"_retry_policy": {"minimum_delay": 0}}}):
            self.assertEqual(self.raw("POST", "/queues/news/subscriptions", wrong)[0], 400, wrong)
        # No subscriber at link-local or metadata addresses, "this network", with
        # user info, or on the broker's own API (its mock endpoints excepted).
        own = self.server.endpoint
        refused = ["http://169.254.169.254/latest/meta-data/", "http://metadata.google.internal/",
                   "http://[fe80::1]/", "http://0/", "http://2852039166/", "http://user:secret@127.0.0.1:9/x",
                   own + "/api/v1/queues", own + "/v2/queues"]
        for subscriber in refused:
            status, body, _ = self.raw("POST", "/queues/news/subscriptions", {"subscriber": subscriber})
            self.assertEqual(status, 400, subscriber)
            self.assertTrue(body["description"].startswith("The subscriber"), body)
        status, _, _ = self.raw("PATCH", "/queues/news/subscriptions/" + first.id,
                                {"subscriber": "http://169.254.169.254/"})
        self.assertEqual(status, 400)
        self.assertEqual(self.raw("POST", "/queues/news/subscriptions", {"subscriber": own + "/_mock/hook"})[0], 201)
        self.assertEqual(self.raw("POST", "/queues/news/subscriptions", {"subscriber": "http://10.1.2.3/h"})[0], 201)
        self.assertEqual(sorted(s.subscriber for s in self.client.subscriptions("news")),
                         sorted(["http://10.1.2.3/h", "http://127.0.0.1:9/c", own + "/_mock/hook",
                                 "https://127.0.0.1:9/b"]))
        for added in ("http://10.1.2.3/h", own + "/_mock/hook"):
            next(s for s in self.client.subscriptions("news") if s.subscriber == added).delete()
        got.delete()
        self.assertEqual([s.subscriber for s in self.client.subscriptions("news")], ["https://127.0.0.1:9/b"])
        with self.assertRaises(zaqar_errors.ResourceNotFound):
            self.client.subscription("news", id=first.id, auto_create=False).ensure_exists()
        # A subscription's ttl ends it; a new ttl counts from when it was given.
        self.server.advance(3000)
        remaining = self.client.subscriptions("news")
        next(remaining).update({"ttl": 1200})
        self.server.advance(1000)
        self.assertEqual([s.subscriber for s in self.client.subscriptions("news")], ["https://127.0.0.1:9/b"])
        self.server.advance(200)
        self.assertEqual(list(self.client.subscriptions("news")), [])

    def test_notification_blueprintPolicy_22AttemptsAtItsTimes(self):
        endpoint = Endpoint(503)
        self.addCleanup(endpoint.close)
        queue = self.client.queue("alerts", force_create=True)
        self.client.subscription("alerts", subscriber=endpoint.url, ttl=3600, options={"_retry_policy": BLUEPRINT})
        queue.post({"body": {"event": "created"}, "ttl": 3600})
        self.server.advance(0)
        headers, body = endpoint.received[0]
        self.assertEqual(body, {"body": {"event": "created"}, "ttl": 3600, "queue_name": "alerts",
                                "Message_Type": "Notification"})
        self.assertEqual(headers["Content-Type"], "application/json")
        self.assertEqual(len(endpoint.received), 4)   # the first and 3 immediate retries
        for offset in sorted(set(BLUEPRINT_OFFSETS))[1:]:
            self.server.advance(offset - self.elapsed(queue="alerts") - 1)
            before = len(self.attempts("alerts"))
            self.server.advance(1)
            self.assertEqual(len(self.attempts("alerts")), before + 1, "no attempt at %d s" % offset)
        attempts = self.attempts("alerts")
        start = seconds(attempts[0]["plannedAt"])
        self.assertEqual([round(seconds(a["plannedAt"]) - start) for a in attempts], BLUEPRINT_OFFSETS)
        self.assertEqual(len(attempts), 22)
        self.assertEqual([a["phase"] for a in attempts[:5]], ["initial", "immediate", "immediate", "immediate",
                                                               "preBackoff"])
        self.assertTrue(all(a["httpStatus"] == 503 and a["outcome"] == "retryable" for a in attempts))
        self.assertEqual([a["final"] for a in attempts].count("discarded"), 1)
        self.assertEqual(len(endpoint.received), 22)

    def elapsed(self, queue):
        """Clock seconds since the first attempt of the queue's deliveries."""
        status, clock = self.server.api("GET", "/clock")
        return round(clock["nowMs"] / 1000 - seconds(self.attempts(queue)[0]["plannedAt"]))

    def test_notification_4xxEndsAtOnce_5xxRetried(self):
        refusing = Endpoint(404)
        self.addCleanup(refusing.close)
        queue = self.client.queue("refused", force_create=True)
        self.client.subscription("refused", subscriber=refusing.url, ttl=3600, options={"_retry_policy": BLUEPRINT})
        queue.post({"body": 1})
        self.server.advance(600)
        attempts = self.attempts("refused")
        self.assertEqual([(a["httpStatus"], a["outcome"], a["final"]) for a in attempts],
                         [(404, "permanent", "discarded")])
        self.assertEqual(len(refusing.received), 1)

    def test_notification_queueIgnoresSubscriptionOverride(self):
        endpoint = Endpoint(500)
        self.addCleanup(endpoint.close)
        queue_policy = {"retries_with_no_delay": 1, "minimum_delay_retries": 0, "minimum_delay": 5,
                        "maximum_delay": 5, "maximum_delay_retries": 0, "ignore_subscription_override": True}
        status, body, _ = self.raw("PUT", "/queues/strict", {"_retry_policy": queue_policy})
        self.assertEqual(status, 201, body)
        self.client.subscription("strict", subscriber=endpoint.url, ttl=3600, options={"_retry_policy": BLUEPRINT})
        self.client.queue("strict", auto_create=False).post({"body": 1})
        self.server.advance(600)
        attempts = self.attempts("strict")
        start = seconds(attempts[0]["plannedAt"])
        # The queue's policy: the first attempt, 1 immediate retry, 1 backoff retry of 5 s.
        self.assertEqual([round(seconds(a["plannedAt"]) - start) for a in attempts], [0, 0, 5])
        self.assertEqual(attempts[-1]["final"], "discarded")
        # Without the flag the subscription's own policy applies again.
        queue = self.client.queue("strict", auto_create=False)
        queue.metadata(new_meta={"_retry_policy": {**queue_policy, "ignore_subscription_override": False}})
        queue.post({"body": 2})
        self.server.advance(600)
        self.assertEqual(len(self.attempts("strict")), 3 + 22)

    def test_post_fannedOutToAnSqsSubscription_signed(self):
        """The queue's notification topic is an SNS topic: an sqs subscription
        made on it over SNS gets each post's envelope, signed as AWS signs it."""
        self.client.subscription("fanned", subscriber="http://127.0.0.1:9/h", ttl=3600)   # makes the topic
        sqs, sns = self.server.client("sqs"), self.server.client("sns")
        url = sqs.create_queue(QueueName="copies")["QueueUrl"]
        arn = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
        sns.subscribe(TopicArn="arn:aws:sns:us-east-1:000000000000:zaqar-fanned", Protocol="sqs", Endpoint=arn)
        self.client.queue("fanned", auto_create=False).post({"body": {"n": 1}})
        envelope = json.loads(sqs.receive_message(QueueUrl=url)["Messages"][0]["Body"])
        certificate = urllib.request.urlopen(envelope["SigningCertURL"], timeout=60).read()
        verify_signature(envelope, certificate)


if __name__ == "__main__":
    unittest.main(verbosity=2)
