// SPDX-License-Identifier: MIT
#pragma once

#include "broker/broker_identity.h"
#include "broker/clock_time.h"
#include "broker/queues/queue_depths.h"
#include "broker/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace relaydesk {

class Database;

struct QueueOverview {
    std::string name;
    bool fifo = false;
    std::optional<std::string> deadLetterQueue; // its redrive target's name
    bool isDeadLetterQueue = false;             // another queue's redrive policy names it
    bool zaqar = false;                         // created through the Zaqar v2 API (docs/behaviour.md §8.5)
    // Service Bus (docs/behaviour.md §8.6): a Service Bus queue or topic
    // subscription (its `servicebus` properties are set); the topic of a
    // subscription ("TOPIC/Subscriptions/NAME"), empty for any other queue;
    // and for a dead-letter sub-queue ("NAME/$DeadLetterQueue") the Service
    // Bus queue or subscription it belongs to, empty for any other queue.
    bool serviceBus = false;
    std::string serviceBusTopic;
    std::string serviceBusDeadLetterOf;
    QueueCounts counts;                         // from the kept counters (broker/queues/queue_depths.h)
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
    // The Zaqar queue whose subscriptions this topic carries (docs/behaviour.md
    // §8.5: "zaqar-QUEUE"); empty for any other topic.
    std::string zaqarQueue;

    bool operator==(const TopicOverview &) const = default;
};

// Every topic, subscription and queue of the broker, by name, with the
// queues' counts: what the window's entity tree shows.
struct EntityOverview {
    std::vector<TopicOverview> topics;               // by name
    std::vector<SubscriptionOverview> subscriptions; // by topic, then ARN
    std::vector<QueueOverview> queues;               // by name
    std::vector<std::string> serviceBusTopics;       // Service Bus topics by name (subscriptions are queues)
    std::optional<ClockTime> nextVisible;            // the earliest over all queues

    bool operator==(const EntityOverview &) const = default;
};

// Reads the overview at `now`. Reads only (works on a read-only connection);
// store failures as InternalError. Thread of `db`. The queues' counts come
// from their kept counters, never a walk over their messages (queue_depths::read).
Result<EntityOverview> readEntityOverview(Database &db, const BrokerIdentity &identity, ClockTime now);
// One queue's overview by name (isDeadLetterQueue and serviceBusDeadLetterOf
// are not worked out: false, empty);
// empty when there is no such queue. Reads only; thread of `db`.
Result<std::optional<QueueOverview>> readQueueOverview(Database &db, const std::string &name, ClockTime now);
// The same on the write connection, inside a unit: may also move the queue's
// depth mark to `now` (queue_depths::refresh), which keeps later reads short.
Result<std::optional<QueueOverview>> refreshQueueOverview(Database &db, const std::string &name, ClockTime now);

} // namespace relaydesk
