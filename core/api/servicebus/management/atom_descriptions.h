// SPDX-License-Identifier: MIT
#pragma once

#include "api/servicebus/management/atom_element.h"
#include "broker/queues/servicebus_queue.h"
#include "broker/result.h"
#include "broker/servicebus/servicebus_rule.h"
#include "broker/servicebus/servicebus_topic.h"

#include <string>

namespace relaydesk {

// The descriptions of a PUT to the Service Bus management API (an ATOM
// <entry> whose <content> holds a QueueDescription, TopicDescription,
// SubscriptionDescription or RuleDescription; docs/behaviour.md §8.6
// "Management API"), read into the broker's entities through the emulator's
// Config.json readers (servicebus_queue.h, servicebus_topic.h,
// servicebus_rule.h): the same names, ranges and refusals. What the
// Config.json readers do not know is settled here: the runtime fields the
// service writes back (counts, times) are ignored; the service's properties
// Relaydesk does not implement are accepted only at the value it reports
// (docs/behaviour.md §8.6 lists them) and otherwise refused naming the
// property. Errors are InvalidParameterValue; the entity's name comes from the URL. Pure.
Result<ServiceBusQueueProperties> readQueueDescription(const AtomElement &entry, const std::string &name);
Result<ServiceBusTopic> readTopicDescription(const AtomElement &entry, const std::string &name);
Result<ServiceBusSubscription> readSubscriptionDescription(const AtomElement &entry, const std::string &topic,
                                                           const std::string &name);
Result<ServiceBusRule> readRuleDescription(const AtomElement &entry, const std::string &name);

} // namespace relaydesk
