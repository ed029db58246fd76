// SPDX-License-Identifier: MIT
#pragma once

#include "broker/queues/servicebus_queue.h"
#include "broker/result.h"

#include <string>
#include <string_view>
#include <vector>

namespace relaydesk {

class Database;
struct BrokerIdentity;

// What the window changes on Service Bus entities besides creating them
// (docs/window.md "Service Bus"): deleting queues, topics and subscriptions
// with their dead-letter sub-queues, and updating the properties the
// service lets change. Inside the caller's transaction; thread of `db`.
namespace servicebus_admin {

// Deletes the Service Bus queue `name` (not a subscription) and its
// dead-letter sub-queue with their messages. The broker queues deleted;
// QueueDoesNotExist when there is no such queue.
Result<std::vector<std::string>> deleteQueue(Database &db, std::string_view name);
// Deletes the topic, its subscriptions and their sub-queues. The broker
// queues deleted; QueueDoesNotExist when there is no such topic.
Result<std::vector<std::string>> deleteTopic(Database &db, std::string_view name);
// Deletes one subscription of a topic and its sub-queue. The broker queues
// deleted; QueueDoesNotExist when there is no such subscription.
Result<std::vector<std::string>> deleteSubscription(Database &db, std::string_view topic, std::string_view subscription);

// Replaces the properties of the Service Bus queue or subscription
// `properties.name` (a subscription by its queue name
// "TOPIC/Subscriptions/NAME"), and its broker queue's attributes to match
// (serviceBusQueueAttributes). As the service: RequiresSession and
// RequiresDuplicateDetection are fixed at creation (InvalidParameterValue
// naming them); QueueDoesNotExist when there is no such entity.
Status updateQueue(Database &db, const ServiceBusQueueProperties &properties, const BrokerIdentity &identity,
                   ClockTime now);

} // namespace servicebus_admin

} // namespace relaydesk
