// SPDX-License-Identifier: MIT
#include "api/servicebus/management/atom_fixed_properties.h"

#include "api/servicebus/management/atom_description_writer.h"
#include "broker/queues/servicebus_queue.h"

#include <array>

namespace relaydesk {

namespace {

constexpr QStringView kAll = u"QueueDescription TopicDescription SubscriptionDescription";
constexpr QStringView kEntities = u"QueueDescription TopicDescription";

const std::array<FixedProperty, 12> kFixed = {{
    {kEntities, u"MaxSizeInMegabytes", u"1024", u"Relaydesk bounds no entity's size (the disk is the bound)"},
    {kEntities, u"AuthorizationRules", u"", u"entity-level authorization rules are not implemented (keys are the broker's, --credentials)"},
    {kEntities, u"IsAnonymousAccessible", u"false", u"anonymous access is not implemented"},
    {kEntities, u"EnableExpress", u"false", u"express entities are not implemented (every message is stored)"},
    {kEntities, u"MaxMessageSizeInKilobytes", u"256", u"the message size limit is the broker's (the Standard tier's 256 KB)"},
    {kAll, u"Status", u"Active", u"Relaydesk keeps every entity Active (no Disabled, SendDisabled, ReceiveDisabled)"},
    {kAll, u"UserMetadata", u"", u"user metadata is not kept"},
    {kAll, u"EntityAvailabilityStatus", u"Available", u"it is read-only"},
    {u"QueueDescription", u"SupportOrdering", u"true", u"a queue always keeps its order"},
    {u"TopicDescription", u"FilteringMessagesBeforePublishing", u"false", u"it is not implemented"},
    {u"TopicDescription", u"EnableSubscriptionPartitioning", u"false", u"partitioning is not implemented"},
    {u"TopicDescription", u"AutoDeleteOnIdle", u"P10675199DT2H48M5.4775807S",
     u"a topic is never deleted when idle in Relaydesk (its subscriptions may be)"},
}};

} // namespace

std::span<const FixedProperty> fixedProperties() { return kFixed; }

std::optional<FixedProperty> fixedProperty(QStringView kind, QStringView name)
{
    for (const FixedProperty &fixed : kFixed)
        if (fixed.name == name && fixed.kinds.contains(kind))
            return fixed;
    return std::nullopt;
}

Status checkFixedProperty(const FixedProperty &fixed, const AtomElement &given)
{
    bool same = fixed.name == u"AuthorizationRules" ? given.children.empty() : given.text.trimmed() == fixed.value;
    if (!same && fixed.value == QLatin1String(kServiceBusNeverText)) {   // "never" as any SDK spells it
        const auto seconds = parseServiceBusDuration(given.text.trimmed().toStdString());
        same = seconds && *seconds >= kServiceBusNever;
    }
    if (same)
        return {};
    return BrokerError(BrokerErrorCode::InvalidParameterValue,
                       QStringLiteral("%1: only '%2' is accepted: %3 (docs/behaviour.md §8.6).")
                           .arg(fixed.name, fixed.value, fixed.why)
                           .toStdString());
}

} // namespace relaydesk
