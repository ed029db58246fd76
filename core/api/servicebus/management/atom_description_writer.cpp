// SPDX-License-Identifier: MIT
#include "api/servicebus/management/atom_description_writer.h"

#include "api/servicebus/management/atom_document.h"
#include "api/servicebus/management/atom_fixed_properties.h"

#include <QXmlStreamWriter>

#include <optional>
#include <variant>

namespace relaydesk {

namespace {

constexpr const char *kCountsNamespace = "http://schemas.microsoft.com/netservices/2011/06/servicebus";
constexpr const char *kSchemaNamespace = "http://www.w3.org/2001/XMLSchema";

QString boolText(bool value) { return value ? QStringLiteral("true") : QStringLiteral("false"); }
QString timeText(ClockTime time) { return QString::fromStdString(formatIso8601(time)); }
QString durationText(const std::optional<std::int64_t> &seconds)
{
    return seconds ? QString::fromStdString(serviceBusDurationText(*seconds)) : QLatin1String(kServiceBusNeverText);
}

void text(QXmlStreamWriter &xml, const char *name, const QString &value)
{
    xml.writeTextElement(QLatin1String(name), value);
}

void number(QXmlStreamWriter &xml, const char *name, std::int64_t value) { text(xml, name, QString::number(value)); }

// The fixed value of `name` in descriptions of `kind`.
void fixed(QXmlStreamWriter &xml, QStringView kind, const char *name)
{
    const std::optional<FixedProperty> property = fixedProperty(kind, QString::fromLatin1(name));
    if (!property)
        return;
    if (property->value.isEmpty())
        xml.writeEmptyElement(QLatin1String(name));
    else
        text(xml, name, property->value.toString());
}

void beginDescription(QXmlStreamWriter &xml, const char *name)
{
    xml.writeStartElement(QLatin1String(name));
    xml.writeDefaultNamespace(QLatin1String(kServiceBusConnectNamespace));
    xml.writeNamespace(QLatin1String(kSchemaInstanceNamespace), QStringLiteral("i"));
}

void times(QXmlStreamWriter &xml, ClockTime created, ClockTime updated, ClockTime accessed)
{
    text(xml, "CreatedAt", timeText(created));
    text(xml, "UpdatedAt", timeText(updated));
    text(xml, "AccessedAt", timeText(accessed));
}

// CountDetails with its own prefix, as the service writes it (the SDKs read the prefix).
void countDetails(QXmlStreamWriter &xml, std::int64_t active, std::int64_t deadLetters, std::int64_t scheduled)
{
    xml.writeStartElement(QStringLiteral("CountDetails"));
    xml.writeNamespace(QLatin1String(kCountsNamespace), QStringLiteral("d2p1"));
    const std::pair<const char *, std::int64_t> counts[] = {{"ActiveMessageCount", active},
                                                           {"DeadLetterMessageCount", deadLetters},
                                                           {"ScheduledMessageCount", scheduled},
                                                           {"TransferMessageCount", 0},
                                                           {"TransferDeadLetterMessageCount", 0}};
    for (const auto &[name, count] : counts)
        xml.writeTextElement(QLatin1String(kCountsNamespace), QLatin1String(name), QString::number(count));
    xml.writeEndElement();
}

std::int64_t active(const QueueCounts &counts) { return counts.available + counts.inFlight + counts.delayed; }
std::int64_t stored(const ServiceBusRuntime &runtime)
{
    return active(runtime.counts) + runtime.counts.scheduled + runtime.deadLetters;
}

void typedValue(QXmlStreamWriter &xml, const char *name, const FilterValue &value)
{
    xml.writeStartElement(QLatin1String(name));
    xml.writeNamespace(QLatin1String(kSchemaNamespace), QStringLiteral("d6p1"));
    QString type = QStringLiteral("string");
    QString shown;
    if (const auto *flag = std::get_if<bool>(&value)) {
        type = QStringLiteral("boolean");
        shown = boolText(*flag);
    } else if (const auto *whole = std::get_if<std::int64_t>(&value)) {
        type = QStringLiteral("long");
        shown = QString::number(*whole);
    } else if (const auto *real = std::get_if<double>(&value)) {
        type = QStringLiteral("double");
        shown = QString::number(*real, 'g', 17);
    } else if (const auto *string = std::get_if<std::string>(&value)) {
        shown = QString::fromStdString(*string);
    }
    xml.writeAttribute(QLatin1String(kSchemaInstanceNamespace), QStringLiteral("type"), QStringLiteral("d6p1:") + type);
    xml.writeCharacters(shown);
    xml.writeEndElement();
}

void filter(QXmlStreamWriter &xml, const ServiceBusRule &rule)
{
    xml.writeStartElement(QStringLiteral("Filter"));
    if (rule.filter == ServiceBusRule::Filter::Sql) {
        xml.writeAttribute(QLatin1String(kSchemaInstanceNamespace), QStringLiteral("type"), QStringLiteral("SqlFilter"));
        text(xml, "SqlExpression", QString::fromStdString(rule.sqlExpression));
        number(xml, "CompatibilityLevel", 20);
    } else {
        xml.writeAttribute(QLatin1String(kSchemaInstanceNamespace), QStringLiteral("type"),
                           QStringLiteral("CorrelationFilter"));
        for (const char *field : {"CorrelationId", "MessageId", "To", "ReplyTo", "Label", "SessionId",
                                  "ReplyToSessionId", "ContentType"}) {
            const auto found = rule.correlation.find(field);
            if (found != rule.correlation.end())
                if (const auto *value = std::get_if<std::string>(&found->second))
                    text(xml, field, QString::fromStdString(*value));
        }
        xml.writeStartElement(QStringLiteral("Properties"));
        for (const auto &[key, value] : rule.correlationProperties) {
            xml.writeStartElement(QStringLiteral("KeyValueOfstringanyType"));
            text(xml, "Key", QString::fromStdString(key));
            typedValue(xml, "Value", value);
            xml.writeEndElement();
        }
        xml.writeEndElement();
    }
    xml.writeEndElement();
}

void action(QXmlStreamWriter &xml, const ServiceBusRule &rule)
{
    xml.writeStartElement(QStringLiteral("Action"));
    if (rule.action.empty()) {
        xml.writeAttribute(QLatin1String(kSchemaInstanceNamespace), QStringLiteral("type"),
                           QStringLiteral("EmptyRuleAction"));
    } else {
        xml.writeAttribute(QLatin1String(kSchemaInstanceNamespace), QStringLiteral("type"), QStringLiteral("SqlRuleAction"));
        text(xml, "SqlExpression", QString::fromStdString(rule.action.sqlExpression));
        number(xml, "CompatibilityLevel", 20);
    }
    xml.writeEndElement();
}

} // namespace

void writeQueueDescription(QXmlStreamWriter &xml, const ServiceBusQueueProperties &queue, const ServiceBusRuntime &runtime)
{
    constexpr QStringView kind = u"QueueDescription";
    beginDescription(xml, "QueueDescription");
    text(xml, "LockDuration", QString::fromStdString(serviceBusDurationText(queue.lockDuration)));
    fixed(xml, kind, "MaxSizeInMegabytes");
    text(xml, "RequiresDuplicateDetection", boolText(queue.requiresDuplicateDetection));
    text(xml, "RequiresSession", boolText(queue.requiresSession));
    text(xml, "DefaultMessageTimeToLive", durationText(queue.defaultMessageTimeToLive));
    text(xml, "DeadLetteringOnMessageExpiration", boolText(queue.deadLetteringOnMessageExpiration));
    text(xml, "DuplicateDetectionHistoryTimeWindow", QString::fromStdString(serviceBusDurationText(queue.duplicateDetectionWindow)));
    number(xml, "MaxDeliveryCount", queue.maxDeliveryCount);
    text(xml, "EnableBatchedOperations", boolText(true));
    number(xml, "SizeInBytes", runtime.sizeInBytes);
    number(xml, "MessageCount", stored(runtime));
    fixed(xml, kind, "IsAnonymousAccessible");
    fixed(xml, kind, "AuthorizationRules");
    fixed(xml, kind, "Status");
    if (!queue.forwardTo.empty())
        text(xml, "ForwardTo", QString::fromStdString(queue.forwardTo));
    times(xml, runtime.created, runtime.updated, runtime.accessed);
    fixed(xml, kind, "SupportOrdering");
    countDetails(xml, active(runtime.counts), runtime.deadLetters, runtime.counts.scheduled);
    text(xml, "AutoDeleteOnIdle", durationText(queue.autoDeleteOnIdle));
    text(xml, "EnablePartitioning", boolText(false));
    fixed(xml, kind, "EntityAvailabilityStatus");
    if (!queue.forwardDeadLetteredMessagesTo.empty())
        text(xml, "ForwardDeadLetteredMessagesTo", QString::fromStdString(queue.forwardDeadLetteredMessagesTo));
    fixed(xml, kind, "EnableExpress");
    fixed(xml, kind, "MaxMessageSizeInKilobytes");
    xml.writeEndElement();
}

void writeTopicDescription(QXmlStreamWriter &xml, const ServiceBusTopic &topic, const ServiceBusTopicRuntime &runtime)
{
    constexpr QStringView kind = u"TopicDescription";
    beginDescription(xml, "TopicDescription");
    text(xml, "DefaultMessageTimeToLive", durationText(topic.defaultMessageTimeToLive));
    fixed(xml, kind, "MaxSizeInMegabytes");
    text(xml, "RequiresDuplicateDetection", boolText(false));
    text(xml, "DuplicateDetectionHistoryTimeWindow", QStringLiteral("PT10M"));
    text(xml, "EnableBatchedOperations", boolText(true));
    number(xml, "SizeInBytes", runtime.sizeInBytes);
    fixed(xml, kind, "FilteringMessagesBeforePublishing");
    fixed(xml, kind, "IsAnonymousAccessible");
    fixed(xml, kind, "AuthorizationRules");
    fixed(xml, kind, "Status");
    times(xml, runtime.created, runtime.updated, runtime.accessed);
    text(xml, "SupportOrdering", boolText(true));
    countDetails(xml, 0, 0, 0);
    number(xml, "SubscriptionCount", runtime.subscriptions);
    fixed(xml, kind, "AutoDeleteOnIdle");
    text(xml, "EnablePartitioning", boolText(false));
    fixed(xml, kind, "EntityAvailabilityStatus");
    fixed(xml, kind, "EnableSubscriptionPartitioning");
    fixed(xml, kind, "EnableExpress");
    fixed(xml, kind, "MaxMessageSizeInKilobytes");
    xml.writeEndElement();
}

void writeSubscriptionDescription(QXmlStreamWriter &xml, const ServiceBusSubscription &subscription,
                                  const ServiceBusRuntime &runtime)
{
    constexpr QStringView kind = u"SubscriptionDescription";
    const ServiceBusQueueProperties &queue = subscription.properties;
    beginDescription(xml, "SubscriptionDescription");
    text(xml, "LockDuration", QString::fromStdString(serviceBusDurationText(queue.lockDuration)));
    text(xml, "RequiresSession", boolText(queue.requiresSession));
    text(xml, "DefaultMessageTimeToLive", durationText(queue.defaultMessageTimeToLive));
    text(xml, "DeadLetteringOnMessageExpiration", boolText(queue.deadLetteringOnMessageExpiration));
    text(xml, "DeadLetteringOnFilterEvaluationExceptions", boolText(false));
    number(xml, "MessageCount", stored(runtime));
    number(xml, "MaxDeliveryCount", queue.maxDeliveryCount);
    text(xml, "EnableBatchedOperations", boolText(true));
    fixed(xml, kind, "Status");
    if (!queue.forwardTo.empty())
        text(xml, "ForwardTo", QString::fromStdString(queue.forwardTo));
    times(xml, runtime.created, runtime.updated, runtime.accessed);
    countDetails(xml, active(runtime.counts), runtime.deadLetters, runtime.counts.scheduled);
    text(xml, "AutoDeleteOnIdle", durationText(queue.autoDeleteOnIdle));
    if (!queue.forwardDeadLetteredMessagesTo.empty())
        text(xml, "ForwardDeadLetteredMessagesTo", QString::fromStdString(queue.forwardDeadLetteredMessagesTo));
    fixed(xml, kind, "EntityAvailabilityStatus");
    xml.writeEndElement();
}

void writeRuleDescription(QXmlStreamWriter &xml, const ServiceBusRule &rule)
{
    beginDescription(xml, "RuleDescription");
    filter(xml, rule);
    action(xml, rule);
    text(xml, "Name", QString::fromStdString(rule.name));
    xml.writeEndElement();
}

void writeNamespaceInfo(QXmlStreamWriter &xml, const QString &name, ClockTime created)
{
    beginDescription(xml, "NamespaceInfo");
    text(xml, "CreatedTime", timeText(created));
    text(xml, "MessagingSKU", QStringLiteral("Standard"));
    text(xml, "ModifiedTime", timeText(created));
    text(xml, "Name", name);
    text(xml, "NamespaceType", QStringLiteral("Messaging"));
    xml.writeEndElement();
}

} // namespace relaydesk
