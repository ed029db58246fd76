// SPDX-License-Identifier: MIT
#pragma once

#include "broker/broker_identity.h"
#include "broker/clock_time.h"
#include "broker/result.h"

#include <cstdint>
#include <string>

namespace relaydesk {

class Database;

// What a redelivery started: the message, its redelivery number (1 for the
// first redelivery; logged in every attempt row of the new delivery, whose
// attempt numbers restart at 0) and when its first attempt is due (now).
struct Redelivery {
    std::string subscriptionArn;
    std::string messageId;
    std::int64_t redelivery = 0;
    ClockTime due{};
};

// Redeliver ("replay"): sends a finished message to an HTTP/S
// subscription again as a new delivery under the subscription's current
// policy. The message must still be stored: published_messages keeps a
// message after its last delivery ended as long as the attempt log holds a
// row of it (both are bounded by the log's retention; see
// pending_delivery_outcome and attempt_log::prune).
//
// Errors: SnsNotFound when the subscription does not exist, or the log has
// no row of this message to it, or the message is no longer stored;
// DeliveryInProgress while a delivery of it to this subscription is still
// pending; SnsInvalidParameter for a subscription that is not HTTP/S or not
// confirmed. Inside the caller's transaction; same thread as db.
namespace redelivery {

Result<Redelivery> start(Database &db, const BrokerIdentity &identity, const std::string &subscriptionArn,
                         const std::string &messageId, ClockTime now);

} // namespace redelivery

} // namespace relaydesk
