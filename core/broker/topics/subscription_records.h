// SPDX-License-Identifier: MIT
#pragma once

#include "broker/clock_time.h"
#include "broker/result.h"
#include "broker/topics/subscription_attributes.h"

#include "policy/policy_validation.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace relaydesk {

class Database;

// One row of the `subscriptions` table with its topic's name. The settable
// attributes are stored as columns (what fan-out reads: raw delivery, filter
// and delivery policy text, lifetime) and as the GetSubscriptionAttributes
// map in the `attributes` JSON (the whole truth, read back through
// parseSubscriptionAttributes). Plain value type.
struct SubscriptionRecord {
    std::int64_t id = 0;
    std::string uuid;                 // last part of the subscription ARN
    std::int64_t topicId = 0;
    std::string topicName;
    EndpointProtocol protocol = EndpointProtocol::Http;
    std::string endpoint;
    bool confirmed = false;
    std::string confirmationToken;    // empty once confirmed or for sqs
    SubscriptionAttributes attributes;
    ClockTime created{};
    ClockTime lastUsed{};             // idle clock of auto-delete (docs/behaviour.md §6): delivery or receive
};

// The row mapping of subscriptions. Free functions over a Database& the
// caller holds inside its transaction; same thread. Store failures come back
// as InternalError.
namespace subscription_records {

Result<std::optional<SubscriptionRecord>> findByUuid(Database &db, std::string_view uuid);
// The subscriptions of a topic, by id; `confirmedOnly` skips pending ones.
Result<std::vector<SubscriptionRecord>> ofTopic(Database &db, std::int64_t topicId, bool confirmedOnly);
// At most `limit` subscriptions with id > afterId, by id; topicId 0 = every topic.
Result<std::vector<SubscriptionRecord>> page(Database &db, std::int64_t topicId, std::int64_t afterId,
                                             std::size_t limit);
// Inserts `record` (id, created and lastUsed are set from `now`); returns the id.
Result<std::int64_t> insert(Database &db, const SubscriptionRecord &record, ClockTime now);
// Rewrites the attribute columns and JSON of subscription `id`.
Status updateAttributes(Database &db, std::int64_t id, const SubscriptionAttributes &attributes);
// state = 'confirmed', token cleared.
Status confirm(Database &db, std::int64_t id);
Status remove(Database &db, std::int64_t id);
// Sets last_used_ms = now (a delivery or receive, docs/behaviour.md §6).
Status touch(Database &db, std::int64_t id, ClockTime now);

} // namespace subscription_records

} // namespace relaydesk
