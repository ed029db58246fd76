// SPDX-License-Identifier: MIT
#include "widgets/attribute_descriptions.h"

#include "broker/attribute_text.h"
#include "broker/queues/queue_attributes.h"
#include "broker/queues/redrive_policy.h"
#include "broker/topics/topic_attributes.h"
#include "policy/policy_report.h"

#include <QCoreApplication>
#include <QLocale>

namespace relaydesk {
namespace {

using In = AttributeInput;
using Q = QueueAttributes;

QString tr(const char *text)
{
    return QCoreApplication::translate("AttributeDescriptions", text);
}

// The window's one number format (as charts/chart_style.h groupedNumber): the system's locale.
QString grouped(qint64 value)
{
    return QLocale().toString(value);
}

QString seconds(qint64 value)
{
    return QString::fromStdString(durationText(value));
}

AttributeDescription row(QString name, QString label, QString group, In input, QString explanation)
{
    AttributeDescription d;
    d.name = std::move(name);
    d.label = std::move(label);
    d.group = std::move(group);
    d.input = input;
    d.explanation = std::move(explanation);
    return d;
}

AttributeDescription integer(QString name, QString label, QString group, QString unit, qint64 low, qint64 high,
                             qint64 fallback, QString explanation)
{
    AttributeDescription d = row(std::move(name), std::move(label), std::move(group), In::Integer, std::move(explanation));
    d.unit = std::move(unit);
    d.minimum = low;
    d.maximum = high;
    d.defaultValue = QString::number(fallback);
    return d;
}

AttributeDescription lifetime(QString name, QString label, QString group, qint64 low, QString explanation)
{
    AttributeDescription d = row(std::move(name), std::move(label), std::move(group), In::OptionalSeconds,
                                 std::move(explanation));
    d.unit = QStringLiteral("s");
    d.minimum = low;
    d.maximum = kMaxLifetimeSeconds;
    return d;
}

AttributeDescription boolean(QString name, QString label, QString group, bool fallback, QString explanation)
{
    AttributeDescription d = row(std::move(name), std::move(label), std::move(group), In::Boolean, std::move(explanation));
    d.defaultValue = fallback ? QStringLiteral("true") : QStringLiteral("false");
    return d;
}

AttributeDescription fifoOnly(AttributeDescription d)
{
    d.fifoOnly = true;
    return d;
}

AttributeDescription fixedAtCreation(AttributeDescription d)
{
    d.fixedAtCreation = true;
    return d;
}

AttributeDescription choice(QString name, QString label, QString group, QStringList choices, QString explanation)
{
    AttributeDescription d = row(std::move(name), std::move(label), std::move(group), In::Choice, std::move(explanation));
    d.defaultValue = choices.value(0);
    d.choices = std::move(choices);
    return d;
}

std::vector<AttributeDescription> buildQueue()
{
    const QString receiving = tr("Receiving");
    const QString storing = tr("Storing");
    const QString deadLetters = tr("Dead letters");
    const QString lifetime_ = tr("Lifetime");
    const QString fifo = tr("FIFO");
    const QString stored = tr("Access and encryption (stored, not enforced)");
    std::vector<AttributeDescription> rows = {
        fixedAtCreation(boolean(QStringLiteral("FifoQueue"), tr("&FIFO queue"), fifo, false,
                                tr("Strict order within a message group and deduplication; fixed when the queue is created."))),
        integer(QStringLiteral("VisibilityTimeout"), tr("Visi&bility timeout"), receiving, QStringLiteral("s"), 0,
                Q::kMaxVisibilityTimeout, 30, tr("How long a received message stays hidden (locked) before it returns.")),
        integer(QStringLiteral("ReceiveMessageWaitTimeSeconds"), tr("Receive &wait time"), receiving, QStringLiteral("s"),
                0, Q::kMaxReceiveWaitTime, 0, tr("How long a receive waits for a message when the queue is empty (long polling).")),
        integer(QStringLiteral("DelaySeconds"), tr("&Delivery delay"), storing, QStringLiteral("s"), 0,
                Q::kMaxDelaySeconds, 0, tr("Every new message stays invisible this long after it is sent.")),
        integer(QStringLiteral("MessageRetentionPeriod"), tr("&Retention period"), storing, QStringLiteral("s"),
                Q::kMinRetentionPeriod, Q::kMaxRetentionPeriod, 345'600,
                tr("A message is removed this long after it was sent, received or not.")),
        integer(QStringLiteral("MaximumMessageSize"), tr("Maximum message &size"), storing, QStringLiteral("bytes"),
                Q::kMinMaximumMessageSize, Q::kMaxMaximumMessageSize, 262'144,
                tr("A larger message body is refused when it is sent.")),
        row(QStringLiteral("RedrivePolicy"), tr("Dead-letter &queue"), deadLetters, In::QueueRedrive,
            tr("After this many receives without a delete, the next receive moves the message to the dead-letter queue.")),
        row(QStringLiteral("RedriveAllowPolicy"), tr("Redrive &allow policy"), deadLetters, In::Json,
            tr("Which queues may use this queue as their dead-letter queue, e.g. {\"redrivePermission\":\"allowAll\"}.")),
        lifetime(QStringLiteral("DefaultMessageTimeToLive"), tr("Default &time to live"), lifetime_, 1,
                 tr("A message without its own TTL expires this long after it is enqueued; a longer TTL is lowered to it.")),
        boolean(QStringLiteral("DeadLetteringOnMessageExpiration"), tr("Dead-letter on e&xpiry"), lifetime_, false,
                tr("Expired messages move to the dead-letter queue (reason TTLExpiredException) instead of being dropped.")),
        lifetime(QStringLiteral("AutoDeleteOnIdle"), tr("Auto-delete when &idle"), lifetime_, kMinAutoDeleteOnIdleSeconds,
                 tr("The queue is deleted after this long without a send, receive or attribute change.")),
        fifoOnly(boolean(QStringLiteral("ContentBasedDeduplication"), tr("&Content-based deduplication"), fifo, false,
                         tr("Without a deduplication id, the SHA-256 of the body is used; repeats within 5 min are dropped."))),
        fifoOnly(choice(QStringLiteral("DeduplicationScope"), tr("Deduplication sco&pe"), fifo,
                        {QStringLiteral("queue"), QStringLiteral("messageGroup")},
                        tr("Whether deduplication ids are unique in the whole queue or per message group."))),
        fifoOnly(choice(QStringLiteral("FifoThroughputLimit"), tr("Throughput &limit"), fifo,
                        {QStringLiteral("perQueue"), QStringLiteral("perMessageGroupId")},
                        tr("Stored for SDKs (Relaydesk has no quotas); perMessageGroupId needs scope messageGroup."))),
        row(QStringLiteral("Policy"), tr("Access p&olicy"), stored, In::Json,
            tr("An IAM policy document, stored and returned as given.")),
        row(QStringLiteral("KmsMasterKeyId"), tr("&KMS key id"), stored, In::Text, tr("Stored and returned as given.")),
        integer(QStringLiteral("KmsDataKeyReusePeriodSeconds"), tr("KMS data key re&use"), stored, QStringLiteral("s"),
                Q::kMinKmsDataKeyReusePeriod, Q::kMaxKmsDataKeyReusePeriod, 300, tr("Stored and returned as given.")),
        boolean(QStringLiteral("SqsManagedSseEnabled"), tr("SQS-managed &encryption"), stored, true,
                tr("Stored and returned as given.")),
    };
    return rows;
}

std::vector<AttributeDescription> buildTopic()
{
    const QString general = tr("General");
    const QString lifetime_ = tr("Lifetime");
    const QString fifo = tr("FIFO");
    const QString stored = tr("Access and encryption (stored, not enforced)");
    AttributeDescription display = row(QStringLiteral("DisplayName"), tr("&Display name"), general, In::Text,
                                       tr("A readable name, at most %1 characters.").arg(TopicAttributes::kMaxDisplayNameLength));
    AttributeDescription signature = choice(QStringLiteral("SignatureVersion"), tr("&Signature version"), general,
                                            {QStringLiteral("1"), QStringLiteral("2")},
                                            tr("How HTTP/S notifications are signed: 1 = SHA1withRSA, 2 = SHA256withRSA."));
    return {
        fixedAtCreation(boolean(QStringLiteral("FifoTopic"), tr("&FIFO topic"), fifo, false,
                                tr("Ordered, deduplicated fan-out (to FIFO queues); fixed when the topic is created."))),
        display,
        signature,
        lifetime(QStringLiteral("DefaultMessageTimeToLive"), tr("Default &time to live"), lifetime_, 1,
                 tr("Messages fanned out to queues expire this long after publishing; the subscription's may be smaller.")),
        lifetime(QStringLiteral("AutoDeleteOnIdle"), tr("Auto-delete when &idle"), lifetime_, kMinAutoDeleteOnIdleSeconds,
                 tr("The topic is deleted after this long without a publish or attribute change.")),
        fifoOnly(boolean(QStringLiteral("ContentBasedDeduplication"), tr("&Content-based deduplication"), fifo, false,
                         tr("Without a deduplication id, the SHA-256 of the message is used; repeats within 5 min are dropped."))),
        row(QStringLiteral("Policy"), tr("Access p&olicy"), stored, In::Json,
            tr("An IAM policy document, stored and returned as given.")),
        row(QStringLiteral("KmsMasterKeyId"), tr("&KMS key id"), stored, In::Text, tr("Stored and returned as given.")),
    };
}

std::vector<AttributeDescription> buildSubscription()
{
    const QString endpoint = tr("Endpoint");
    const QString delivery = tr("Delivery");
    const QString lifetime_ = tr("Lifetime");
    return {
        row(QStringLiteral("Protocol"), tr("Protocol"), endpoint, In::ReadOnly, tr("Fixed when subscribing.")),
        row(QStringLiteral("Endpoint"), tr("Endpoint"), endpoint, In::ReadOnly, tr("Where messages are delivered; fixed when subscribing.")),
        row(QStringLiteral("PendingConfirmation"), tr("Pending confirmation"), endpoint, In::ReadOnly,
            tr("true until the endpoint confirms; nothing is delivered before.")),
        boolean(QStringLiteral("RawMessageDelivery"), tr("&Raw message delivery"), delivery, false,
                tr("Deliver the message body as published, without the SNS JSON envelope.")),
        row(QStringLiteral("FilterPolicy"), tr("&Filter policy"), delivery, In::Json,
            tr("Only messages whose attributes match are delivered, e.g. {\"kind\": [\"order\"]}; empty = all.")),
        row(QStringLiteral("RedrivePolicy"), tr("Dead-letter &queue"), delivery, In::DeadLetterQueue,
            tr("Messages that cannot be delivered after every retry go to this queue.")),
        lifetime(QStringLiteral("DefaultMessageTimeToLive"), tr("Default &time to live"), lifetime_, 1,
                 tr("Messages fanned out through this subscription expire this long after publishing (the smaller of topic and subscription).")),
        lifetime(QStringLiteral("AutoDeleteOnIdle"), tr("Auto-delete when &idle"), lifetime_, kMinAutoDeleteOnIdleSeconds,
                 tr("The subscription is deleted after this long without a delivery or receive.")),
    };
}

} // namespace

QString AttributeDescription::rangeText() const
{
    const QString unitText = unit.isEmpty() ? QString() : QLatin1Char(' ') + unit;
    switch (input) {
    case In::Integer: {
        QString text = tr("%1–%2%3").arg(grouped(minimum), grouped(maximum), unitText);
        if (unit == QLatin1String("s") && maximum >= 3600)
            text += tr(" (up to %1)").arg(seconds(maximum));
        return text;
    }
    case In::OptionalSeconds:
        return tr("≥ %1%2, empty for none").arg(grouped(minimum), unitText);
    case In::QueueRedrive:
        return tr("max receives %1–%2").arg(QueueRedrivePolicy::kMinMaxReceiveCount).arg(QueueRedrivePolicy::kMaxMaxReceiveCount);
    case In::Boolean:
    case In::Choice:
    case In::Text:
    case In::Json:
    case In::DeadLetterQueue:
    case In::ReadOnly:
        break;
    }
    return {};
}

const std::vector<AttributeDescription> &queueAttributeDescriptions()
{
    static const std::vector<AttributeDescription> rows = buildQueue();
    return rows;
}

const std::vector<AttributeDescription> &topicAttributeDescriptions()
{
    static const std::vector<AttributeDescription> rows = buildTopic();
    return rows;
}

const std::vector<AttributeDescription> &subscriptionAttributeDescriptions()
{
    static const std::vector<AttributeDescription> rows = buildSubscription();
    return rows;
}

const std::vector<AttributeDescription> &attributeDescriptions(EntityChange::Entity kind)
{
    switch (kind) {
    case EntityChange::Entity::Queue:
        return queueAttributeDescriptions();
    case EntityChange::Entity::Topic:
        return topicAttributeDescriptions();
    case EntityChange::Entity::Subscription:
        break;
    }
    return subscriptionAttributeDescriptions();
}

} // namespace relaydesk
