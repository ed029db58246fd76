// SPDX-License-Identifier: MIT
#pragma once

#include "broker/broker_identity.h"
#include "broker/clock_time.h"
#include "broker/result.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

namespace relaydesk {

class IdSource;
class UnitContext;

// How a Zaqar queue is bound to the broker's entities (docs/behaviour.md §8.5):
//  - the queue is the standard queue of the same name, made with a 14-day
//    retention (Zaqar's longest message TTL) and 256 KiB messages; its
//    metadata sits beside it (zaqar_queues);
//  - `_dead_letter_queue` with `_max_claim_count` is the queue's redrive
//    policy (the dead-letter queue is made when missing);
//  - its subscriptions are http(s) subscriptions of the topic
//    `zaqar-NAME` (made with the first subscription), whose DeliveryPolicy
//    is the metadata's `_retry_policy` in the Zaqar form, so the delivery
//    worker runs the Zaqar dialect (§2.3, §3.3, §4.2).
// Free functions inside the caller's unit.
namespace zaqar_binding {

std::string notificationTopic(const std::string &queueName);
// The topic's DeliveryPolicy for queue metadata: {"_retry_policy": …} ({} when it has none).
std::string topicDeliveryPolicy(const nlohmann::json &metadata);

// The queue's id, made (with `metadata`, checked by the caller) when missing;
// `created` says which. Reports Created.
Result<std::int64_t> ensureQueue(UnitContext &unit, const BrokerIdentity &identity, const std::string &name,
                                 const nlohmann::json &metadata, const std::string &project, bool &created);
// Stores `metadata` and applies what the broker keeps of it (redrive
// policy, the notification topic's policy). Reports Changed.
Status applyMetadata(UnitContext &unit, const BrokerIdentity &identity, const std::string &name, std::int64_t queueId,
                     const nlohmann::json &metadata, const std::string &project);
// Ends the queue's subscriptions whose ttl ran out (before a post notifies,
// and before a create looks for an existing subscriber).
Status dropExpiredSubscriptions(UnitContext &unit, const BrokerIdentity &identity, IdSource &ids,
                                const std::string &name, std::int64_t queueId);
// Deletes the queue and its notification topic (with its subscriptions). Reports Deleted.
Status deleteQueue(UnitContext &unit, const BrokerIdentity &identity, const std::string &name);

} // namespace zaqar_binding

} // namespace relaydesk
