// SPDX-License-Identifier: MIT
// The broker's schema. Conventions for every table:
//  - times are clock time (docs/behaviour.md §7) in milliseconds since the Unix epoch, in
//    columns ending in _ms; durations end in _s or _ms by unit;
//  - NULL means "not set" (no expiry, no schedule, never); booleans are 0/1;
//  - JSON columns hold the document as the user gave it (delivery policies
//    in their form, docs/behaviour.md §2.2) or as the broker serialises it (attributes);
//  - entities are referenced by integer id inside the database, by name/ARN
//    only where a row must outlive its entity (the attempt log);
//  - deleting a queue/topic/subscription cascades to what belongs to it.
// Released migrations never change; add migration N+1 at the end of the list.
#include "store/relaydesk_schema.h"

#include "store/schema_migrations.h"

#include <array>

namespace relaydesk {

namespace {

constexpr std::string_view kSchemaV1 = R"sql(
-- settings: broker-wide key/value pairs (region, account, signing key pair,
-- clock mode and virtual time, ...). Values are text (JSON where structured).
CREATE TABLE settings (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;

-- queues: one row per SQS queue (docs/behaviour.md §1, 5). Attributes the broker reads on
-- every send/receive are columns; the rest (Policy, RedriveAllowPolicy, KMS
-- settings, ...) sit in `attributes` as a JSON object. The redrive policy
-- names its dead-letter queue by name (the ARN's last part): the target may be
-- deleted and re-created, as in SQS. next_sequence feeds FIFO SequenceNumber.
CREATE TABLE queues (
    id                       INTEGER PRIMARY KEY,
    name                     TEXT NOT NULL UNIQUE,
    fifo                     INTEGER NOT NULL DEFAULT 0 CHECK (fifo IN (0, 1)),
    visibility_timeout_s     INTEGER NOT NULL DEFAULT 30,
    delay_s                  INTEGER NOT NULL DEFAULT 0,
    retention_s              INTEGER NOT NULL DEFAULT 345600,
    max_message_size         INTEGER NOT NULL DEFAULT 1048576,  -- docs/behaviour.md §10: 1 MiB bodies
    receive_wait_s           INTEGER NOT NULL DEFAULT 0,
    content_based_dedup      INTEGER NOT NULL DEFAULT 0 CHECK (content_based_dedup IN (0, 1)),
    dead_letter_queue        TEXT,                     -- redrive target name; NULL = no redrive policy
    max_receive_count        INTEGER,                  -- with dead_letter_queue
    default_ttl_ms           INTEGER,                  -- NULL = no expiry (docs/behaviour.md §6)
    dead_letter_on_expiry    INTEGER NOT NULL DEFAULT 0 CHECK (dead_letter_on_expiry IN (0, 1)),
    auto_delete_on_idle_ms   INTEGER,                  -- NULL = never
    created_ms               INTEGER NOT NULL,
    last_used_ms             INTEGER NOT NULL,         -- idle clock for auto-delete
    next_sequence            INTEGER NOT NULL DEFAULT 1,
    attributes               TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX queues_by_dead_letter_queue ON queues (dead_letter_queue) WHERE dead_letter_queue IS NOT NULL;

-- queue_tags: cost-allocation tags of a queue (TagQueue / ListQueueTags).
CREATE TABLE queue_tags (
    queue_id INTEGER NOT NULL REFERENCES queues (id) ON DELETE CASCADE,
    key      TEXT NOT NULL,
    value    TEXT NOT NULL,
    PRIMARY KEY (queue_id, key)
) WITHOUT ROWID;

-- topics: one row per SNS topic. delivery_policy is the topic-level policy
-- JSON as given (SNS topic form); other attributes (DisplayName, Policy, ...)
-- in `attributes`. next_sequence feeds FIFO topic SequenceNumber.
CREATE TABLE topics (
    id                       INTEGER PRIMARY KEY,
    name                     TEXT NOT NULL UNIQUE,
    fifo                     INTEGER NOT NULL DEFAULT 0 CHECK (fifo IN (0, 1)),
    content_based_dedup      INTEGER NOT NULL DEFAULT 0 CHECK (content_based_dedup IN (0, 1)),
    delivery_policy          TEXT,
    default_ttl_ms           INTEGER,
    auto_delete_on_idle_ms   INTEGER,
    created_ms               INTEGER NOT NULL,
    last_used_ms             INTEGER NOT NULL,
    next_sequence            INTEGER NOT NULL DEFAULT 1,
    attributes               TEXT NOT NULL DEFAULT '{}'
);

-- topic_tags: tags of a topic (TagResource / ListTagsForResource).
CREATE TABLE topic_tags (
    topic_id INTEGER NOT NULL REFERENCES topics (id) ON DELETE CASCADE,
    key      TEXT NOT NULL,
    value    TEXT NOT NULL,
    PRIMARY KEY (topic_id, key)
) WITHOUT ROWID;

-- subscriptions: a topic's link to an endpoint (docs/behaviour.md §1, 4). uuid is the last
-- part of the subscription ARN. HTTP/S subscriptions start 'pending' with a
-- confirmation token; 'confirmed' ones receive notifications. For protocol
-- 'sqs' the endpoint is the queue ARN. dead_letter_queue is the redrive
-- target's queue name.
CREATE TABLE subscriptions (
    id                       INTEGER PRIMARY KEY,
    uuid                     TEXT NOT NULL UNIQUE,
    topic_id                 INTEGER NOT NULL REFERENCES topics (id) ON DELETE CASCADE,
    protocol                 TEXT NOT NULL CHECK (protocol IN ('http', 'https', 'sqs')),
    endpoint                 TEXT NOT NULL,
    state                    TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'confirmed')),
    confirmation_token       TEXT,
    raw_delivery             INTEGER NOT NULL DEFAULT 0 CHECK (raw_delivery IN (0, 1)),
    delivery_policy          TEXT,                     -- JSON as given (SNS subscription form); NULL = topic's
    filter_policy            TEXT,                     -- JSON; NULL = everything matches
    filter_policy_scope      TEXT NOT NULL DEFAULT 'MessageAttributes',
    dead_letter_queue        TEXT,
    default_ttl_ms           INTEGER,
    auto_delete_on_idle_ms   INTEGER,
    created_ms               INTEGER NOT NULL,
    last_used_ms             INTEGER NOT NULL,
    attributes               TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX subscriptions_by_topic ON subscriptions (topic_id);

-- messages: every message stored in a queue, in every state (docs/behaviour.md §5, 6).
-- message_id is the service's MessageId (kept when a message moves to a
-- dead-letter queue and back, hence unique per queue only). state is the
-- last state the broker wrote: 'queued' (waiting or available, by
-- visible_at_ms), 'inflight' (received; locked by receipt_handle until
-- visible_at_ms), 'scheduled' (scheduled enqueue time not reached; listable,
-- cancellable). Expiry is computed from expires_at_ms, lazily.
-- enqueued_ms is the send time, or the scheduled time for a scheduled
-- message (TTL counts from it: expires_at_ms = enqueued_ms + TTL).
-- dead_letter_reason / source_queue_id are set on a message moved to a
-- dead-letter queue (e.g. 'TTLExpiredException', 'MaxReceiveCountExceeded').
CREATE TABLE messages (
    id                   INTEGER PRIMARY KEY,
    message_id           TEXT NOT NULL,
    queue_id             INTEGER NOT NULL REFERENCES queues (id) ON DELETE CASCADE,
    body                 TEXT NOT NULL,
    attributes           TEXT NOT NULL DEFAULT '{}',   -- message attributes, JSON
    group_id             TEXT,                         -- FIFO MessageGroupId
    dedup_id             TEXT,                         -- FIFO MessageDeduplicationId (or body hash)
    sequence_number      INTEGER,                      -- FIFO SequenceNumber
    sent_ms              INTEGER NOT NULL,             -- SentTimestamp
    scheduled_ms         INTEGER,                      -- scheduled enqueue time; NULL = none
    enqueued_ms          INTEGER NOT NULL,
    visible_at_ms        INTEGER NOT NULL,             -- available once the clock reaches it
    expires_at_ms        INTEGER,                      -- NULL = never
    receive_count        INTEGER NOT NULL DEFAULT 0,
    first_receive_ms     INTEGER,
    receipt_handle       TEXT UNIQUE,                  -- the current lock; NULL when not in flight
    receive_attempt_id   TEXT,                         -- FIFO ReceiveRequestAttemptId of the current lock
    state                TEXT NOT NULL DEFAULT 'queued',
    dead_letter_reason   TEXT,
    source_queue_id      INTEGER REFERENCES queues (id) ON DELETE SET NULL,
    UNIQUE (queue_id, message_id)
);
CREATE INDEX messages_by_visible_at ON messages (queue_id, visible_at_ms);
CREATE INDEX messages_by_group ON messages (queue_id, group_id, sequence_number) WHERE group_id IS NOT NULL;
CREATE INDEX messages_by_expiry ON messages (expires_at_ms) WHERE expires_at_ms IS NOT NULL;
CREATE INDEX messages_by_source_queue ON messages (source_queue_id) WHERE source_queue_id IS NOT NULL;

-- fifo_dedup: FIFO queue deduplication window (docs/behaviour.md §5.2): a send with the
-- same dedup id before expires_ms is accepted but not enqueued, and answered
-- with the first message's MessageId / SequenceNumber — also after that
-- message was deleted, which is why this is a table of its own.
CREATE TABLE fifo_dedup (
    queue_id         INTEGER NOT NULL REFERENCES queues (id) ON DELETE CASCADE,
    dedup_id         TEXT NOT NULL,
    message_id       TEXT NOT NULL,
    sequence_number  INTEGER,
    expires_ms       INTEGER NOT NULL,
    PRIMARY KEY (queue_id, dedup_id)
) WITHOUT ROWID;
CREATE INDEX fifo_dedup_by_expiry ON fifo_dedup (expires_ms);

-- published_messages: a message published to a topic while HTTP/S deliveries
-- of it are pending (fan-out to sqs subscriptions goes to `messages`
-- directly). Kept by name so pending retries survive the topic's deletion;
-- the broker removes a row when its last pending delivery ends.
CREATE TABLE published_messages (
    id                INTEGER PRIMARY KEY,
    message_id        TEXT NOT NULL UNIQUE,             -- the SNS MessageId, same on every retry
    topic_name        TEXT NOT NULL,
    subject           TEXT,
    body              TEXT NOT NULL,
    attributes        TEXT NOT NULL DEFAULT '{}',
    group_id          TEXT,
    dedup_id          TEXT,
    sequence_number   INTEGER,
    published_ms      INTEGER NOT NULL,
    expires_at_ms     INTEGER
);

-- pending_deliveries: the next attempt of one published message to one
-- HTTP/S subscription (docs/behaviour.md §4.5): attempt is the number of that next attempt
-- (0 = first), due_ms when it is due; first_attempt_ms anchors the retry
-- schedule. The delivery worker loads the earliest due rows (index on due_ms).
CREATE TABLE pending_deliveries (
    subscription_id    INTEGER NOT NULL REFERENCES subscriptions (id) ON DELETE CASCADE,
    published_id       INTEGER NOT NULL REFERENCES published_messages (id) ON DELETE CASCADE,
    attempt            INTEGER NOT NULL DEFAULT 0,
    due_ms             INTEGER NOT NULL,
    first_attempt_ms   INTEGER,
    PRIMARY KEY (subscription_id, published_id)
) WITHOUT ROWID;
CREATE INDEX pending_deliveries_by_due ON pending_deliveries (due_ms);
CREATE INDEX pending_deliveries_by_message ON pending_deliveries (published_id);

-- delivery_attempts: the attempt log (docs/behaviour.md §4.4), one row per attempt, in
-- attempt order (id). Keyed by MessageId and subscription ARN as text so the
-- log outlives subscriptions and topics. http_status NULL = no response;
-- error_kind names a timeout/connection error; final is NULL until the
-- delivery ends ('delivered', 'deadLettered', 'discarded').
CREATE TABLE delivery_attempts (
    id                 INTEGER PRIMARY KEY,
    message_id         TEXT NOT NULL,
    subscription_arn   TEXT NOT NULL,
    attempt            INTEGER NOT NULL,
    phase              TEXT NOT NULL,
    planned_ms         INTEGER NOT NULL,
    started_ms         INTEGER NOT NULL,
    duration_ms        INTEGER NOT NULL,
    http_status        INTEGER,
    error_kind         TEXT,
    outcome            TEXT NOT NULL,
    final              TEXT
);
CREATE INDEX delivery_attempts_by_subscription ON delivery_attempts (subscription_arn, id);
CREATE INDEX delivery_attempts_by_message ON delivery_attempts (message_id, id);
)sql";

// v2: FIFO receive walks a queue's messages in SequenceNumber order a page at
// a time to find the heads of the groups not in flight; this index keeps that
// walk from sorting the whole queue on every receive.
constexpr std::string_view kSchemaV2 = R"sql(
CREATE INDEX messages_by_sequence ON messages (queue_id, sequence_number) WHERE sequence_number IS NOT NULL;
)sql";

// Migration 3: FIFO topic deduplication window (docs/behaviour.md §5.2 applied to FIFO
// topics: a publish with a deduplication id seen on the topic within 5
// minutes is answered with the first MessageId and not fanned out again),
// and the expiry of one pending HTTP/S delivery (docs/behaviour.md §6: the smaller of the
// topic's and the subscription's default TTL caps the message's TTL, so it
// can differ per subscription).
constexpr std::string_view kSchemaV3 = R"sql(
CREATE TABLE topic_dedup (
    topic_id        INTEGER NOT NULL REFERENCES topics (id) ON DELETE CASCADE,
    dedup_id        TEXT NOT NULL,
    message_id      TEXT NOT NULL,
    sequence_number INTEGER,
    expires_ms      INTEGER NOT NULL,
    PRIMARY KEY (topic_id, dedup_id)
) WITHOUT ROWID;
CREATE INDEX topic_dedup_by_expiry ON topic_dedup (expires_ms);
ALTER TABLE pending_deliveries ADD COLUMN expires_at_ms INTEGER;
)sql";

// Migration 4: what the delivery worker and move tasks need.
//  - published_messages.kind: what the row is delivered as (docs/behaviour.md §4.1):
//    'Notification', 'SubscriptionConfirmation' or 'UnsubscribeConfirmation'
//    (confirmations are retried by the policy like any delivery).
//  - broker_keys: the broker's RSA key pair and self-signed certificate for
//    notification signatures (docs/behaviour.md §4.1), generated once and kept; one row
//    per purpose ('signing').
//  - message_move_tasks: StartMessageMoveTask / ListMessageMoveTasks (docs/behaviour.md
//    §5.3). A move runs as one transaction, so a task is recorded with its
//    final status and counts.
constexpr std::string_view kSchemaV4 = R"sql(
ALTER TABLE published_messages ADD COLUMN kind TEXT NOT NULL DEFAULT 'Notification';
CREATE TABLE broker_keys (
    purpose            TEXT PRIMARY KEY,
    private_key_pem    TEXT NOT NULL,
    certificate_pem    TEXT NOT NULL,
    created_ms         INTEGER NOT NULL
);
CREATE TABLE message_move_tasks (
    id                 INTEGER PRIMARY KEY,
    task_handle        TEXT NOT NULL UNIQUE,
    source_arn         TEXT NOT NULL,
    destination_arn    TEXT,
    max_per_second     INTEGER,
    status             TEXT NOT NULL,                 -- RUNNING, COMPLETED, CANCELLED, FAILED
    moved              INTEGER NOT NULL DEFAULT 0,
    to_move            INTEGER NOT NULL DEFAULT 0,
    failure_reason     TEXT,
    started_ms         INTEGER NOT NULL
);
CREATE INDEX message_move_tasks_by_source ON message_move_tasks (source_arn, id);
)sql";

// Migration 5: the kind of each attempt in the log ('notification',
// 'subscriptionConfirmation', 'unsubscribeConfirmation'), filterable in
// GET /api/v1/attempts?kind=. Rows logged before it take their message's
// kind when the message is still stored, else 'notification'. A logged
// confirmation ended by the subscription's confirmation now reads
// final = 'confirmed' (earlier rows keep 'discarded').
constexpr std::string_view kSchemaV5 = R"sql(
ALTER TABLE delivery_attempts ADD COLUMN kind TEXT NOT NULL DEFAULT 'notification';
UPDATE delivery_attempts SET kind = CASE p.kind WHEN 'SubscriptionConfirmation' THEN 'subscriptionConfirmation'
                                                WHEN 'UnsubscribeConfirmation' THEN 'unsubscribeConfirmation'
                                                ELSE 'notification' END
FROM published_messages p WHERE p.message_id = delivery_attempts.message_id;
)sql";

// Migration 6: browse (the window's Messages page, GET …/messages) walks a
// queue's messages in storage order from a page token; this index holds them
// as (queue_id, id), so a page of a million-message queue is read without
// sorting the queue.
constexpr std::string_view kSchemaV6 = R"sql(
CREATE INDEX messages_by_queue ON messages (queue_id);
)sql";

// Migration 7: the Deliveries page.
//  - delivery_attempts.redelivery / pending_deliveries.redelivery: which
//    delivery of a message to a subscription an attempt belongs to (0 = the
//    publish's, n = the n-th redelivery; attempt numbers restart in each).
//  - finished_messages: a published message whose last pending delivery
//    ended, kept for redelivery while the attempt log holds a row of it (the
//    log's pruning removes it with its last row).
//  - delivery_attempts_by_outcome: filtering a large log by outcome (the
//    rare outcomes are the ones looked for) without walking all of it.
constexpr std::string_view kSchemaV7 = R"sql(
ALTER TABLE delivery_attempts ADD COLUMN redelivery INTEGER NOT NULL DEFAULT 0;
ALTER TABLE pending_deliveries ADD COLUMN redelivery INTEGER NOT NULL DEFAULT 0;
CREATE TABLE finished_messages (
    id                INTEGER PRIMARY KEY,
    message_id        TEXT NOT NULL UNIQUE,
    topic_name        TEXT NOT NULL,
    subject           TEXT,
    body              TEXT NOT NULL,
    attributes        TEXT NOT NULL DEFAULT '{}',
    group_id          TEXT,
    dedup_id          TEXT,
    sequence_number   INTEGER,
    published_ms      INTEGER NOT NULL,
    kind              TEXT NOT NULL DEFAULT 'Notification'
);
CREATE INDEX delivery_attempts_by_outcome ON delivery_attempts (outcome, id);
)sql";

// Migration 8: filtering a large attempt log by status class (2xx … 5xx, 0 =
// no response) walks an index in row order instead of the whole log: a
// virtual column computed from http_status, and its index.
constexpr std::string_view kSchemaV8 = R"sql(
ALTER TABLE delivery_attempts ADD COLUMN status_class INTEGER GENERATED ALWAYS AS (coalesce(http_status / 100, 0)) VIRTUAL;
CREATE INDEX delivery_attempts_by_status_class ON delivery_attempts (status_class, id);
)sql";

// Migration 9: the queues' depths kept as counters, so the gauges, the
// window's tree and GetQueueAttributes never walk a queue's messages
// (broker/queues/queue_depths.h: the mark, and why the counts are exact at
// any clock time; docs/architecture.md §9). Triggers keep them in the
// transaction of every write to `messages`. They are columns of `queues`, not
// a table of their own: sends and receives already rewrite the queue's row
// (last_used_ms), so the counters mostly add no page to a commit (a table of
// their own added one WAL page, ~4 KiB, to every commit).
constexpr std::string_view kSchemaV9 = R"sql(
-- The queue's counts as of the clock time depth_mark_ms (the mark): every
-- message stored, those in flight / delayed / scheduled at the mark (that
-- state, visible_at_ms after the mark), and the dead letters.
ALTER TABLE queues ADD COLUMN depth_mark_ms INTEGER NOT NULL DEFAULT 0;
ALTER TABLE queues ADD COLUMN depth_stored INTEGER NOT NULL DEFAULT 0;
ALTER TABLE queues ADD COLUMN depth_in_flight INTEGER NOT NULL DEFAULT 0;
ALTER TABLE queues ADD COLUMN depth_delayed INTEGER NOT NULL DEFAULT 0;
ALTER TABLE queues ADD COLUMN depth_scheduled INTEGER NOT NULL DEFAULT 0;
ALTER TABLE queues ADD COLUMN depth_dead_lettered INTEGER NOT NULL DEFAULT 0;
-- The queues stored before, counted at the mark 0 (the epoch): right at any
-- clock time; the broker's check at start moves the marks of full queues.
UPDATE queues SET (depth_stored, depth_in_flight, depth_delayed, depth_scheduled, depth_dead_lettered) =
    (SELECT count(*), count(*) FILTER (WHERE m.state = 'inflight' AND m.visible_at_ms > 0),
            count(*) FILTER (WHERE m.state = 'queued' AND m.visible_at_ms > 0),
            count(*) FILTER (WHERE m.state = 'scheduled' AND m.visible_at_ms > 0),
            count(*) FILTER (WHERE m.dead_letter_reason IS NOT NULL)
     FROM messages m WHERE m.queue_id = queues.id);
-- A message in, out, changed in what the counts read (state, visibility
-- time, dead-letter reason) or moved to another queue (a dead letter, a move
-- task): the difference it makes at the mark, in the statement's transaction.
CREATE TRIGGER queue_depths_message_in AFTER INSERT ON messages BEGIN
    UPDATE queues SET depth_stored = depth_stored + 1,
        depth_in_flight = depth_in_flight + (NEW.state = 'inflight' AND NEW.visible_at_ms > depth_mark_ms),
        depth_delayed = depth_delayed + (NEW.state = 'queued' AND NEW.visible_at_ms > depth_mark_ms),
        depth_scheduled = depth_scheduled + (NEW.state = 'scheduled' AND NEW.visible_at_ms > depth_mark_ms),
        depth_dead_lettered = depth_dead_lettered + (NEW.dead_letter_reason IS NOT NULL)
    WHERE id = NEW.queue_id;
END;
CREATE TRIGGER queue_depths_message_out AFTER DELETE ON messages BEGIN
    UPDATE queues SET depth_stored = depth_stored - 1,
        depth_in_flight = depth_in_flight - (OLD.state = 'inflight' AND OLD.visible_at_ms > depth_mark_ms),
        depth_delayed = depth_delayed - (OLD.state = 'queued' AND OLD.visible_at_ms > depth_mark_ms),
        depth_scheduled = depth_scheduled - (OLD.state = 'scheduled' AND OLD.visible_at_ms > depth_mark_ms),
        depth_dead_lettered = depth_dead_lettered - (OLD.dead_letter_reason IS NOT NULL)
    WHERE id = OLD.queue_id;
END;
CREATE TRIGGER queue_depths_message_changed
AFTER UPDATE OF state, visible_at_ms, dead_letter_reason ON messages WHEN OLD.queue_id = NEW.queue_id BEGIN
    UPDATE queues SET
        depth_in_flight = depth_in_flight + (NEW.state = 'inflight' AND NEW.visible_at_ms > depth_mark_ms)
                                          - (OLD.state = 'inflight' AND OLD.visible_at_ms > depth_mark_ms),
        depth_delayed = depth_delayed + (NEW.state = 'queued' AND NEW.visible_at_ms > depth_mark_ms)
                                      - (OLD.state = 'queued' AND OLD.visible_at_ms > depth_mark_ms),
        depth_scheduled = depth_scheduled + (NEW.state = 'scheduled' AND NEW.visible_at_ms > depth_mark_ms)
                                          - (OLD.state = 'scheduled' AND OLD.visible_at_ms > depth_mark_ms),
        depth_dead_lettered = depth_dead_lettered + (NEW.dead_letter_reason IS NOT NULL)
                                                  - (OLD.dead_letter_reason IS NOT NULL)
    WHERE id = NEW.queue_id;
END;
CREATE TRIGGER queue_depths_message_moved
AFTER UPDATE OF queue_id ON messages WHEN OLD.queue_id <> NEW.queue_id BEGIN
    UPDATE queues SET
        depth_stored = depth_stored + (id = NEW.queue_id) - (id = OLD.queue_id),
        depth_in_flight = depth_in_flight
            + (id = NEW.queue_id AND NEW.state = 'inflight' AND NEW.visible_at_ms > depth_mark_ms)
            - (id = OLD.queue_id AND OLD.state = 'inflight' AND OLD.visible_at_ms > depth_mark_ms),
        depth_delayed = depth_delayed
            + (id = NEW.queue_id AND NEW.state = 'queued' AND NEW.visible_at_ms > depth_mark_ms)
            - (id = OLD.queue_id AND OLD.state = 'queued' AND OLD.visible_at_ms > depth_mark_ms),
        depth_scheduled = depth_scheduled
            + (id = NEW.queue_id AND NEW.state = 'scheduled' AND NEW.visible_at_ms > depth_mark_ms)
            - (id = OLD.queue_id AND OLD.state = 'scheduled' AND OLD.visible_at_ms > depth_mark_ms),
        depth_dead_lettered = depth_dead_lettered
            + (id = NEW.queue_id AND NEW.dead_letter_reason IS NOT NULL)
            - (id = OLD.queue_id AND OLD.dead_letter_reason IS NOT NULL)
    WHERE id IN (OLD.queue_id, NEW.queue_id);
END;
)sql";

// Migration 10: the Zaqar v2 API (docs/behaviour.md §8.5). A Zaqar queue is a
// queue of `queues`; what Zaqar keeps besides: the queue's metadata (JSON as
// the client gave it) and project, claims (a claim is a receive; its messages
// by id and receipt handle) and the Zaqar view of an http(s) subscription of
// the queue's notification topic (subscriber, ttl, options as given).
constexpr std::string_view kSchemaV10 = R"sql(
CREATE TABLE zaqar_queues (
    queue_id   INTEGER PRIMARY KEY REFERENCES queues (id) ON DELETE CASCADE,
    metadata   TEXT NOT NULL DEFAULT '{}',
    project    TEXT
);
CREATE TABLE zaqar_claims (
    claim_id    TEXT PRIMARY KEY,
    queue_id    INTEGER NOT NULL REFERENCES queues (id) ON DELETE CASCADE,
    ttl_s       INTEGER NOT NULL,
    grace_s     INTEGER NOT NULL,
    updated_ms  INTEGER NOT NULL,                 -- made or last renewed; the claim ends at updated_ms + ttl_s
    created_ms  INTEGER NOT NULL
);
CREATE INDEX zaqar_claims_by_queue ON zaqar_claims (queue_id);
CREATE TABLE zaqar_claimed_messages (
    claim_id        TEXT NOT NULL REFERENCES zaqar_claims (claim_id) ON DELETE CASCADE,
    message_id      TEXT NOT NULL,
    receipt_handle  TEXT NOT NULL,
    PRIMARY KEY (claim_id, message_id)
) WITHOUT ROWID;
CREATE INDEX zaqar_claimed_by_handle ON zaqar_claimed_messages (receipt_handle);
CREATE TABLE zaqar_subscriptions (
    subscription_id  INTEGER PRIMARY KEY REFERENCES subscriptions (id) ON DELETE CASCADE,
    queue_id         INTEGER NOT NULL REFERENCES queues (id) ON DELETE CASCADE,
    subscriber       TEXT NOT NULL,
    ttl_s            INTEGER NOT NULL,
    options          TEXT NOT NULL DEFAULT '{}',
    created_ms       INTEGER NOT NULL,
    expires_ms       INTEGER NOT NULL                  -- made or given a new ttl, plus the ttl
);
CREATE INDEX zaqar_subscriptions_by_queue ON zaqar_subscriptions (queue_id);
)sql";

// Migration 11: Service Bus queues (docs/behaviour.md §8.6). A queue whose `servicebus`
// holds its Service Bus properties (the emulator's Config.json form, JSON) is
// a Service Bus queue; its dead-letter sub-queue is the queue named
// "NAME/$DeadLetterQueue". A dead letter keeps the description its receiver
// gave (dead_letter_reason holds the reason).
constexpr std::string_view kSchemaV11 = R"sql(
ALTER TABLE queues ADD COLUMN servicebus TEXT;
ALTER TABLE messages ADD COLUMN dead_letter_description TEXT;
)sql";

// Migration 12: the next auto-delete-on-idle end is an index seek
// (broker/queues/message_lifetime.h dueTimes, asked after every send), not a
// walk over every queue: with 110 000 queues that walk cost each send ~60 ms
// (docs/figures.md "Many entities").
constexpr std::string_view kSchemaV12 = R"sql(
CREATE INDEX queues_by_idle_end ON queues (last_used_ms + auto_delete_on_idle_ms)
    WHERE auto_delete_on_idle_ms IS NOT NULL;
)sql";

// Migration 13: Service Bus sessions and duplicate detection (docs/behaviour.md §8.6).
// A session's messages are those of its queue whose group_id is the
// SessionId; its row holds the state a receiver set and the lock one
// receiver holds (lock_token, until locked_until_ms on the broker clock). A
// message id sent to a queue with duplicate detection is remembered until
// expires_ms (the send plus the queue's window).
constexpr std::string_view kSchemaV13 = R"sql(
CREATE TABLE servicebus_sessions (
    queue_id         INTEGER NOT NULL REFERENCES queues (id) ON DELETE CASCADE,
    session_id       TEXT NOT NULL,
    state            BLOB,
    lock_token       TEXT,
    locked_until_ms  INTEGER NOT NULL DEFAULT 0,
    updated_ms       INTEGER NOT NULL,
    PRIMARY KEY (queue_id, session_id)
) WITHOUT ROWID;
CREATE TABLE servicebus_duplicates (
    queue_id    INTEGER NOT NULL REFERENCES queues (id) ON DELETE CASCADE,
    message_id  TEXT NOT NULL,
    expires_ms  INTEGER NOT NULL,
    PRIMARY KEY (queue_id, message_id)
) WITHOUT ROWID;
)sql";

// Migration 14: Service Bus topics (docs/behaviour.md §8.6, docs/architecture.md). A topic
// keeps its properties (Config.json form, JSON); each subscription is a
// Service Bus queue named "TOPIC/Subscriptions/NAME" (queues.servicebus
// set) with its rules here (a JSON array of Config.json rules), filled
// when the topic is sent to. A deferred Service Bus message keeps
// `deferred` set: ordinary receives pass it over, only a receive by its
// sequence number (its id) takes it.
constexpr std::string_view kSchemaV14 = R"sql(
ALTER TABLE messages ADD COLUMN deferred INTEGER NOT NULL DEFAULT 0;
CREATE TABLE servicebus_topics (
    name       TEXT PRIMARY KEY,
    properties TEXT NOT NULL
);
CREATE TABLE servicebus_subscriptions (
    queue_id INTEGER PRIMARY KEY REFERENCES queues (id) ON DELETE CASCADE,
    topic    TEXT NOT NULL REFERENCES servicebus_topics (name) ON DELETE CASCADE,
    name     TEXT NOT NULL,
    rules    TEXT NOT NULL,
    UNIQUE (topic, name)
);
)sql";

// Migration 15: a new message is counted by its writer (MessageSender: one
// UPDATE of the queue's row per send call, broker/queues/queue_depths.h
// addSent), not by a trigger per inserted row: the trigger rewrote the
// queue's row once per message, over a third of a batch's store work. The
// other three triggers stay (deletes and changes have many writers).
constexpr std::string_view kSchemaV15 = R"sql(
DROP TRIGGER queue_depths_message_in;
)sql";

// Migration 16: the receipt handles' seal key (broker/queues/receipt_handle.h)
// made with the schema, so that it is committed before any receive reads it
// and a connection can keep it (Database::memo) for its life. A database that
// has one keeps it. randomblob() is SQLite's ChaCha20 generator, seeded from
// /dev/urandom.
constexpr std::string_view kSchemaV16 = R"sql(
INSERT OR IGNORE INTO settings (key, value) VALUES ('receipt.seal_key', lower(hex(randomblob(32))));
)sql";

// Migration 17: mock endpoints are part of the user's set-up
// (docs/behaviour.md §4.7): each one's script as written and how many
// requests it has answered since the script was set (where it is in the
// script), so a restart goes on where it was. What they received stays in
// memory. An attempt's `error` says in words what the status or the
// transport failure alone does not (a mock endpoint that does not exist).
constexpr std::string_view kSchemaV17 = R"sql(
CREATE TABLE mock_endpoints (
    name           TEXT PRIMARY KEY,
    script         TEXT NOT NULL,
    request_count  INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;
ALTER TABLE delivery_attempts ADD COLUMN error TEXT;
)sql";

const std::array<Migration, 17> &migrations()
{
    static const std::array<Migration, 17> list = {
        Migration{1, "first broker schema", kSchemaV1, {}},
        Migration{2, "FIFO messages by sequence number", kSchemaV2, {}},
        Migration{3, "FIFO topic deduplication, per-delivery expiry", kSchemaV3, {}},
        Migration{4, "delivery kinds, signing keys, message move tasks", kSchemaV4, {}},
        Migration{5, "attempt kinds", kSchemaV5, {}},
        Migration{6, "messages in storage order per queue (browse)", kSchemaV6, {}},
        Migration{7, "redeliveries, finished messages kept for them, attempts by outcome", kSchemaV7, {}},
        Migration{8, "attempts by status class", kSchemaV8, {}},
        Migration{9, "queue depths as counters", kSchemaV9, {}},
        Migration{10, "Zaqar queues, claims and subscriptions", kSchemaV10, {}},
        Migration{11, "Service Bus queues", kSchemaV11, {}},
        Migration{12, "queues by the end of their idle time", kSchemaV12, {}},
        Migration{13, "Service Bus sessions and duplicate detection", kSchemaV13, {}},
        Migration{14, "Service Bus topics and subscriptions", kSchemaV14, {}},
        Migration{15, "new messages counted by their writer", kSchemaV15, {}},
        Migration{16, "the receipt seal key made with the schema", kSchemaV16, {}},
        Migration{17, "mock endpoints, attempt errors in words", kSchemaV17, {}},
    };
    return list;
}

} // namespace

std::span<const Migration> relaydeskMigrations() { return migrations(); }

} // namespace relaydesk
