// SPDX-License-Identifier: MIT
#pragma once

#include "broker/clock_time.h"
#include "broker/queues/servicebus_queue.h"
#include "broker/servicebus/servicebus_rule.h"
#include "broker/servicebus/servicebus_runtime.h"
#include "broker/servicebus/servicebus_topic.h"

#include <QString>

#include <cstdint>

class QXmlStreamWriter;

namespace relaydesk {

// What a topic's description reports at run time: its subscriptions, the
// bytes they hold, and the times (a topic keeps none of its own: its first
// subscription's, else the epoch). Value type.
struct ServiceBusTopicRuntime {
    std::int64_t subscriptions = 0;
    std::int64_t sizeInBytes = 0;
    ClockTime created{};
    ClockTime updated{};
    ClockTime accessed{};
};

// The descriptions of the Service Bus management API as the service writes
// them (api-version 2021-05: its elements, in its order, the runtime counts
// in CountDetails), for the entry content of atom_document.h. The
// properties Relaydesk does not implement are written at their fixed value
// (atom_fixed_properties.h). Pure.
void writeQueueDescription(QXmlStreamWriter &xml, const ServiceBusQueueProperties &queue, const ServiceBusRuntime &runtime);
void writeTopicDescription(QXmlStreamWriter &xml, const ServiceBusTopic &topic, const ServiceBusTopicRuntime &runtime);
void writeSubscriptionDescription(QXmlStreamWriter &xml, const ServiceBusSubscription &subscription,
                                  const ServiceBusRuntime &runtime);
void writeRuleDescription(QXmlStreamWriter &xml, const ServiceBusRule &rule);
// GET /$namespaceinfo: a Standard namespace of `name`.
void writeNamespaceInfo(QXmlStreamWriter &xml, const QString &name, ClockTime created);

// The service's text of "never" (.NET's TimeSpan.MaxValue).
inline constexpr const char *kServiceBusNeverText = "P10675199DT2H48M5.4775807S";

} // namespace relaydesk
