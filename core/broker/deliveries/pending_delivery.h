// SPDX-License-Identifier: MIT
#pragma once

#include "broker/broker_identity.h"
#include "broker/clock_time.h"
#include "broker/queues/message_attributes.h"
#include "broker/result.h"

#include "policy/effective_policy.h"
#include "policy/retry_schedule.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace relaydesk {

class Database;

// One stored pending HTTP/S delivery (table pending_deliveries, docs/behaviour.md §4.5):
// the next attempt (`attempt`, 0 = first) of published message `publishedId`
// to subscription `subscriptionId`, due at `due`. Plain value type.
struct PendingDeliveryKey {
    std::int64_t subscriptionId = 0;
    std::int64_t publishedId = 0;
    auto operator<=>(const PendingDeliveryKey &) const = default;
};

struct PendingDeliveryRow {
    PendingDeliveryKey key;
    std::int64_t attempt = 0;
    ClockTime due{};
};

// What one attempt needs, read from the store just before it is made: the
// pending row, the subscription, the message and the effective policy with
// its schedule (docs/behaviour.md §2.3, 3). Plain value type.
struct DeliveryJob {
    PendingDeliveryKey key;
    std::int64_t attempt = 0;
    ClockTime due{};
    std::optional<ClockTime> firstAttempt;
    std::optional<ClockTime> expiresAt;
    std::int64_t redelivery = 0;             // 0: the publish's delivery; n: the n-th redelivery

    std::string subscriptionArn;
    std::string topicArn;
    std::string endpoint;                    // the URL the POST goes to
    bool rawDelivery = false;
    bool zaqar = false;                      // a Zaqar subscriber (zaqar_notification.h)
    bool confirmed = false;
    std::string confirmationToken;
    std::optional<std::string> deadLetterTargetArn;

    std::string kind;                        // "Notification", "SubscriptionConfirmation", "UnsubscribeConfirmation"
    std::string messageId;
    std::optional<std::string> subject;
    std::string message;
    MessageAttributes attributes;
    ClockTime published{};

    EffectivePolicy effective;
    RetrySchedule schedule;

    bool isConfirmation() const { return kind != "Notification"; }
};

// The HTTP request of one attempt (docs/behaviour.md §4.1): headers in order, the body and
// the envelope (unsigned JSON; empty for raw notifications, which send the
// bare message). The worker signs the envelope and sends it as the body
// unless raw.
struct DeliveryRequest {
    std::vector<std::pair<std::string, std::string>> headers; // without Content-Type
    std::string contentType;
    std::string envelope;
    bool raw = false;
};

// Free functions over a Database& the caller holds inside its transaction;
// same thread. Store failures come back as InternalError.
namespace pending_deliveries {

// A job with only the subscription's part filled in (ARNs, endpoint,
// redrive target, effective policy and its schedule); nothing when the
// subscription is gone.
Result<std::optional<DeliveryJob>> subscriptionPart(Database &db, const BrokerIdentity &identity,
                                                    std::int64_t subscriptionId);
// The earliest `limit` pending deliveries by due time (then key).
Result<std::vector<PendingDeliveryRow>> earliest(Database &db, std::size_t limit);
// The jobs of `keys`, in their order; nothing for a row that is gone
// (delivered, unsubscribed meanwhile). The subscription, topic and policy of
// each subscription are read once.
Result<std::vector<std::optional<DeliveryJob>>> loadJobs(Database &db, const BrokerIdentity &identity,
                                                        const std::vector<PendingDeliveryKey> &keys);

} // namespace pending_deliveries

// Headers, content type and envelope of `job` (docs/behaviour.md §4.1). Pure.
DeliveryRequest describeDeliveryRequest(const DeliveryJob &job, const BrokerIdentity &identity);

} // namespace relaydesk
