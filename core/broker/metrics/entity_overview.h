// SPDX-License-Identifier: MIT
#pragma once

#include "broker/broker_identity.h"
#include "broker/clock_time.h"
#include "broker/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace relaydesk {

class Database;

// How many messages of a queue are in each state at one clock time (docs/behaviour.md
// §8.4's tree counts). A message counts once among the first four, by the same
// rule as the SQS approximate counts (available: visible now, including an
// expired lock; in flight: locked; delayed: DelaySeconds running; scheduled:
// scheduled enqueue time ahead); deadLettered counts the messages that were
// moved into this queue as dead letters, in any state.
struct QueueCounts {
    std::int64_t available = 0;
    std::int64_t inFlight = 0;
    std::int64_t delayed = 0;
    std::int64_t scheduled = 0;
    std::int64_t deadLettered = 0;

    bool operator==(const QueueCounts &) const = default;
};

struct QueueOverview {
    std::string name;
    bool fifo = false;
    std::optional<std::string> deadLetterQueue; // its redrive target's name
    bool isDeadLetterQueue = false;             // another queue's redrive policy names it
    QueueCounts counts;
    std::optional<ClockTime> nextVisible;       // the earliest time a message becomes available

    bool operator==(const QueueOverview &) const = default;
};

struct SubscriptionOverview {
    std::string arn;
    std::string topicName;
    std::string protocol;   // "http", "https", "sqs"
    std::string endpoint;   // URL, or the queue ARN for sqs
    bool pending = false;   // waiting for confirmation
    // Deliveries (http/https; sqs fan-out is immediate): notifications still
    // to deliver, those the attempt log has as delivered, and the newest
    // attempt's outcome ("delivered", "http-5xx", …; empty before any).
    std::int64_t pendingDeliveries = 0;
    std::int64_t delivered = 0;
    std::string lastOutcome;
    std::optional<int> lastHttpStatus;

    bool operator==(const SubscriptionOverview &) const = default;
};

struct TopicOverview {
    std::string name;
    bool fifo = false;

    bool operator==(const TopicOverview &) const = default;
};

// Every topic, subscription and queue of the broker, by name, with the
// queues' counts: what the window's entity tree shows.
struct EntityOverview {
    std::vector<TopicOverview> topics;               // by name
    std::vector<SubscriptionOverview> subscriptions; // by topic, then ARN
    std::vector<QueueOverview> queues;               // by name
    std::optional<ClockTime> nextVisible;            // the earliest over all queues

    bool operator==(const EntityOverview &) const = default;
};

// Reads the overview at `now`. Reads only (works on a read-only connection);
// store failures as InternalError. Thread of `db`.
Result<EntityOverview> readEntityOverview(Database &db, const BrokerIdentity &identity, ClockTime now);
// One queue's overview by name (isDeadLetterQueue is not worked out: false);
// empty when there is no such queue. Reads only; thread of `db`.
Result<std::optional<QueueOverview>> readQueueOverview(Database &db, const std::string &name, ClockTime now);

} // namespace relaydesk
