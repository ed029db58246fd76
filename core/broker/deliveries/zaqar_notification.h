// SPDX-License-Identifier: MIT
#pragma once

#include "broker/deliveries/pending_delivery.h"
#include "broker/result.h"

#include <cstdint>

namespace relaydesk {

class Database;

// Deliveries to the subscriptions of the Zaqar API (docs/behaviour.md §8.5): an http(s)
// subscription with a row in zaqar_subscriptions is a Zaqar subscriber, and
// is sent what Zaqar's webhook task sends — the message as published (the
// Zaqar notification JSON: body, ttl, queue_name, Message_Type) as the body,
// Content-Type application/json, no SNS headers, nothing signed. Its policy
// and failure classification are the Zaqar dialect's through its Zaqar-form
// DeliveryPolicy (§2.3, §4.2), like any subscription's.
namespace zaqar_notification {

// Whether subscription `subscriptionId` is a Zaqar subscriber. Thread of `db`.
Result<bool> isZaqarSubscription(Database &db, std::int64_t subscriptionId);

// The request of a Zaqar notification. Pure.
DeliveryRequest describe(const DeliveryJob &job);

} // namespace zaqar_notification

} // namespace relaydesk
