// SPDX-License-Identifier: MIT
#pragma once

#include "broker/clock_time.h"
#include "broker/result.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace relaydesk {

class Database;

// What the Zaqar API (core/api/zaqar) keeps besides the broker's own rows
// (tables zaqar_*, migration 10) and the reads it makes of the broker's
// messages: the Zaqar side of the store's one door. Free
// functions over a Database& inside the caller's unit (the broker thread);
// store failures come back as InternalError.
namespace zaqar_store {

inline constexpr std::string_view kClientIdAttribute = "ZaqarClientId";

// The id of the (standard) queue `name`, or nothing.
Result<std::optional<std::int64_t>> queueId(Database &db, std::string_view name);
// The queue's metadata; {} when it has none.
Result<nlohmann::json> metadata(Database &db, std::int64_t queueId);
Status putMetadata(Database &db, std::int64_t queueId, const nlohmann::json &metadata, const std::string &project);

struct QueueEntry {
    std::string name;
    nlohmann::json metadata;
};
// Standard queues with names after `marker`, by name.
Result<std::vector<QueueEntry>> queuesAfter(Database &db, const std::string &marker, int limit);

// A message as Zaqar shows it.
struct StoredMessage {
    std::int64_t rowId = 0;
    std::string id;
    std::string body;                       // the JSON text of the body
    std::string clientId;
    std::int64_t sentMs = 0;
    std::optional<std::int64_t> expiresMs;
    bool claimed = false;                    // in flight now
    bool delayed = false;                    // not visible yet, not claimed
    std::optional<std::string> receiptHandle;
    std::string claimId;                     // the claim holding it, when claimed through Zaqar
};
// Unexpired messages of the queue after row `afterRowId`, in order, at most `limit`.
Result<std::vector<StoredMessage>> messagesAfter(Database &db, std::int64_t queueId, std::int64_t afterRowId,
                                                 int limit, ClockTime now);
// The queue's newest unexpired message (the last row), if any: one index seek.
Result<std::optional<StoredMessage>> newestMessage(Database &db, std::int64_t queueId, ClockTime now);
Result<std::optional<StoredMessage>> message(Database &db, std::int64_t queueId, std::string_view messageId,
                                             ClockTime now);
// Deletes the message `messageId` of the queue whatever its state; whether it was there.
Result<bool> deleteMessage(Database &db, std::int64_t queueId, std::string_view messageId);

// --- Claims ---
struct Claim {
    std::string id;
    std::int64_t ttl = 0;
    std::int64_t grace = 0;
    std::int64_t updatedMs = 0;
    std::int64_t createdMs = 0;
};
Status insertClaim(Database &db, std::int64_t queueId, const Claim &claim);
Status addClaimedMessage(Database &db, const std::string &claimId, const std::string &messageId,
                         const std::string &receiptHandle);
// A live claim (updated + ttl after now) of the queue, or nothing.
Result<std::optional<Claim>> claim(Database &db, std::int64_t queueId, std::string_view claimId, ClockTime now);
// The receipt handles of the claim's messages that it still holds, by message id.
Result<std::vector<std::pair<std::string, std::string>>> claimedHandles(Database &db, std::string_view claimId,
                                                                        ClockTime now);
// How many claims of the queue are live at `now` (claims in flight).
Result<std::int64_t> liveClaims(Database &db, std::int64_t queueId, ClockTime now);
Status renewClaim(Database &db, std::string_view claimId, std::int64_t ttl, std::int64_t grace, ClockTime now);
Status deleteClaim(Database &db, std::string_view claimId);
// Messages of the claim live at least until `until` (a claim's grace).
Status extendLifetime(Database &db, std::int64_t queueId, const std::vector<std::string> &messageIds,
                      std::int64_t untilMs);

// The messages the queue's claim at `now` moved into dead-letter queue
// `deadLetterQueue` (over _max_claim_count) live `ttl` seconds from now
// (_dead_letter_queue_messages_ttl).
Status setDeadLetterLifetime(Database &db, std::int64_t sourceQueueId, const std::string &deadLetterQueue,
                             std::int64_t ttl, ClockTime now);

// --- Subscriptions (the Zaqar side of an http(s) subscription) ---
struct SubscriptionEntry {
    std::string id;            // the subscription's uuid (its ARN's last part)
    std::int64_t rowId = 0;    // subscriptions.id
    std::string queueName;
    std::string subscriber;
    std::int64_t ttl = 0;
    nlohmann::json options;
    std::int64_t createdMs = 0;
};
Status insertSubscription(Database &db, std::string_view uuid, std::int64_t queueId, const std::string &subscriber,
                          std::int64_t ttl, const nlohmann::json &options, ClockTime now);
// A new ttl counts from `now`, as in Zaqar; a new subscriber is the
// broker subscription's endpoint too.
Status updateSubscription(Database &db, std::int64_t rowId, const std::string &subscriber,
                          std::optional<std::int64_t> ttl, const nlohmann::json &options, ClockTime now);
// The queue's subscriptions after uuid `marker`, by uuid; expired ones left out.
Result<std::vector<SubscriptionEntry>> subscriptionsAfter(Database &db, std::int64_t queueId,
                                                          const std::string &marker, int limit, ClockTime now);
Result<std::optional<SubscriptionEntry>> subscription(Database &db, std::int64_t queueId, std::string_view uuid,
                                                      ClockTime now);
// Whether the queue has a subscription to `subscriber` (expired or not).
Result<bool> hasSubscriber(Database &db, std::int64_t queueId, const std::string &subscriber);
// Whether the queue has a subscription whose ttl has not run out (one index
// seek: a post asks on every call).
Result<bool> hasSubscriptions(Database &db, std::int64_t queueId, ClockTime now);
// The uuids of the queue's subscriptions whose ttl ran out.
Result<std::vector<std::string>> expiredSubscriptions(Database &db, std::int64_t queueId, ClockTime now);

} // namespace zaqar_store

} // namespace relaydesk
