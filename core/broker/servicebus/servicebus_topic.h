// SPDX-License-Identifier: MIT
#pragma once

#include "broker/clock_time.h"
#include "broker/queues/message_sender.h"
#include "broker/queues/servicebus_queue.h"
#include "broker/result.h"
#include "broker/servicebus/servicebus_rule.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace relaydesk {

class Database;
class IdSource;
struct BrokerIdentity;

// A subscription of a Service Bus topic (docs/behaviour.md §8.6): a Service Bus queue named
// "TOPIC/Subscriptions/NAME" (with its dead-letter sub-queue) that a send to
// the topic fills with the messages its rules let through. Value type.
struct ServiceBusSubscription {
    std::string name;
    ServiceBusQueueProperties properties;   // properties.name is the queue's name
    std::vector<ServiceBusRule> rules;      // none: it takes nothing
};

// A Service Bus topic with its subscriptions, in the emulator's Config.json
// form: {"Name": …, "Properties": {…}, "Subscriptions": [{"Name": …,
// "Properties": {…}, "Rules": [...]}]}. Value type.
struct ServiceBusTopic {
    std::string name;
    std::optional<std::int64_t> defaultMessageTimeToLive;   // none = no expiry; caps each subscription's
    std::vector<ServiceBusSubscription> subscriptions;
};

inline constexpr std::string_view kServiceBusSubscriptionsPath = "/Subscriptions/";
std::string serviceBusSubscriptionQueue(std::string_view topic, std::string_view subscription);

// Config.json's topic: the name as a queue's; the topic's properties
// (DefaultMessageTimeToLive, DuplicateDetectionHistoryTimeWindow, and
// RequiresDuplicateDetection, EnablePartitioning only off); each
// subscription's name 1–50 of letters, digits, '.', '-', '_', its
// properties as a queue's (plus DeadLetteringOnFilterEvaluationExceptions;
// RequiresDuplicateDetection only off),
// its rules (none given: the $Default rule). InvalidParameterValue naming
// the topic, subscription or rule. Pure.
Result<ServiceBusTopic> parseServiceBusTopic(const nlohmann::json &topic);
Result<ServiceBusSubscription> parseServiceBusSubscription(const ServiceBusTopic &topic, const nlohmann::json &subscription);
nlohmann::json serviceBusTopicJson(const ServiceBusTopic &topic);   // without subscriptions
nlohmann::json serviceBusSubscriptionJson(const ServiceBusSubscription &subscription);

// The copy of a message with its application properties changed as a rule
// action says (the protocol layer's: the broker never reads a message's
// sections). Any thread.
using ServiceBusMessageRewriter =
    std::function<Result<SendRequest>(const SendRequest &message, const ServiceBusPropertyChanges &changes)>;

// The rows of Service Bus topics (servicebus_topics, servicebus_subscriptions;
// migration 12). Inside the caller's transaction; thread of `db`.
namespace servicebus_topics {

// Creates the topic and its subscriptions. True when created; false when
// the same topic exists with the same properties and subscriptions (new
// subscriptions of an existing topic are added); QueueAlreadyExists when a
// queue has its name or a subscription differs.
Result<bool> create(Database &db, const ServiceBusTopic &topic, const BrokerIdentity &identity, ClockTime now);
// Adds one subscription to an existing topic: true when created, false when
// the same exists.
Result<bool> createSubscription(Database &db, const std::string &topic, const ServiceBusSubscription &subscription,
                                const BrokerIdentity &identity, ClockTime now);
// Replaces a subscription's rules; QueueDoesNotExist when there is no such subscription.
Status setRules(Database &db, const std::string &topic, const std::string &subscription,
                const std::vector<ServiceBusRule> &rules);
// A subscription's rules, by name; QueueDoesNotExist when there is no such subscription.
Result<std::vector<ServiceBusRule>> rules(Database &db, const std::string &topic, const std::string &subscription);
// Adds a rule: QueueAlreadyExists when the subscription has one of that name.
Status addRule(Database &db, const std::string &topic, const std::string &subscription, const ServiceBusRule &rule);
// Removes a rule: QueueDoesNotExist when there is none of that name.
Status removeRule(Database &db, const std::string &topic, const std::string &subscription, const std::string &name);
// The topic with its subscriptions; QueueDoesNotExist when there is none.
Result<ServiceBusTopic> find(Database &db, std::string_view name);
Result<std::vector<ServiceBusTopic>> list(Database &db);
// The entity an AMQP address names: a topic, else a queue, subscription or
// dead-letter sub-queue (servicebus_queues::find).
Result<ServiceBusEntity> findEntity(Database &db, std::string_view address);

// A send to the topic (`facts[i]` describes `messages[i]`): each
// subscription takes a message once when one of its rules without an action
// matches it, and a copy for each matching rule with an action, rewritten
// by `rewrite` with the action's changes and the application property
// RuleName (the rule's name). Each copy is sent as to a Service Bus queue
// (routeServiceBusMessage: a session subscription needs a SessionId,
// ForwardTo moves it on). Returns the queues that took messages with how
// many. QueueDoesNotExist when there is no such topic.
Result<std::vector<std::pair<std::string, std::int64_t>>> publish(Database &db, IdSource &ids, std::string_view topic,
                                                                  const std::vector<SendRequest> &messages,
                                                                  const std::vector<ServiceBusMessageFacts> &facts,
                                                                  const ServiceBusMessageRewriter &rewrite,
                                                                  ClockTime now);

} // namespace servicebus_topics

} // namespace relaydesk
