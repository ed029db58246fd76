// SPDX-License-Identifier: MIT
#pragma once

#include "broker/clock_time.h"
#include "broker/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace relaydesk {

class Database;

// When the engine must next run the topic-side lifetime work.
struct TopicDueTimes {
    std::optional<ClockTime> nextAutoDelete;       // an idle topic or subscription reaches its AutoDeleteOnIdle
    std::optional<ClockTime> nextDedupExpiry;      // a FIFO topic deduplication id leaves its window
};

// Lifetime rules of topics and subscriptions (docs/behaviour.md §6). Idle means: topic —
// no publish or attribute change (TopicPublisher / TopicCatalog reset
// last_used_ms); subscription — no delivery or receive (fan-out into a queue
// resets it at once; the delivery worker calls markSubscriptionUsed after an
// HTTP/S delivery). Free functions over a Database& inside the caller's
// transaction; same thread. Store failures come back as InternalError.
namespace topic_lifetime {

// Deletes every topic idle for its AutoDeleteOnIdle at `now` (with its
// subscriptions and their pending deliveries); returns their names.
Result<std::vector<std::string>> deleteIdleTopics(Database &db, ClockTime now);
// Deletes every subscription idle for its AutoDeleteOnIdle at `now`;
// returns their UUIDs.
Result<std::vector<std::string>> deleteIdleSubscriptions(Database &db, ClockTime now);
struct IdleSubscription {
    std::string topicName;
    std::string subscriptionId;   // the UUID
};
// deleteIdleSubscriptions, naming each deleted subscription's topic too
// (for its ARN), by topic name and UUID.
Result<std::vector<IdleSubscription>> deleteIdleSubscriptionsOfTopics(Database &db, ClockTime now);
// A receive on the queue with ARN `queueArn` counts as use of every sqs
// subscription delivering into it (docs/behaviour.md §6: idle = no delivery or receive).
Status markQueueSubscriptionsUsed(Database &db, std::string_view queueArn, ClockTime now);
// Drops FIFO topic deduplication ids whose window ended; returns how many.
Result<std::int64_t> forgetExpiredDeduplicationIds(Database &db, ClockTime now);
// Drops published_messages rows no pending delivery refers to any more (their
// subscriptions or topic were deleted); returns how many: at most
// bulk_removal::kBulkChunkRows (a chunk: when it is full, more may be left).
Result<std::int64_t> forgetUndeliverablePublishedMessages(Database &db);
// A delivery to subscription `subscriptionId` happened at `now`.
Status markSubscriptionUsed(Database &db, std::int64_t subscriptionId, ClockTime now);
Result<TopicDueTimes> dueTimes(Database &db);

} // namespace topic_lifetime

} // namespace relaydesk
