// SPDX-License-Identifier: MIT
#pragma once

#include "engine/entity_change.h"

#include <QString>
#include <QStringList>

#include <vector>

namespace relaydesk {

// How an attribute is entered in the window.
enum class AttributeInput {
    Integer,           // whole number in [minimum, maximum], typed as text (the broker checks it)
    OptionalSeconds,   // whole seconds ≥ minimum, empty = none (DefaultMessageTimeToLive, AutoDeleteOnIdle)
    Boolean,           // true / false
    Choice,            // one of `choices`
    Text,              // free text
    Json,              // a JSON document, empty = none
    QueueRedrive,      // a queue's RedrivePolicy: dead-letter queue of this broker + maxReceiveCount
    DeadLetterQueue,   // a subscription's RedrivePolicy: {"deadLetterTargetArn": ARN of a queue of this broker}
    ReadOnly,          // shown, never written (Protocol, Endpoint, …)
};

// One row of the attribute table (docs/behaviour.md §5, 6 and the SQS/SNS attribute lists):
// the wire name, how it is entered, its unit, range, default and a one-line
// explanation. The ranges restate core/broker's constants (QueueAttributes,
// RedrivePolicy, …) so the form can say them; the broker still checks every
// value. Plain value type.
struct AttributeDescription {
    QString name;                 // wire name, e.g. "VisibilityTimeout"
    QString label;                // the form's label, with a mnemonic ("&Visibility timeout")
    QString group;                // section of the form ("Receiving", "Lifetime", …)
    AttributeInput input = AttributeInput::Text;
    QString unit;                 // "s", "bytes", "" (shown beside the input)
    qint64 minimum = 0;           // Integer / OptionalSeconds
    qint64 maximum = 0;           // Integer / OptionalSeconds
    QString defaultValue;         // as the wire writes it; empty = none
    QString explanation;          // one line
    QStringList choices;          // Choice: wire values
    bool fifoOnly = false;        // only on FIFO queues / topics
    bool fixedAtCreation = false; // FifoQueue / FifoTopic: chosen when creating, read-only after

    // "0–43 200 s", "≥ 300 s or empty for never", "" — the range as the form says it.
    QString rangeText() const;
};

// The attributes of each kind of entity, in form order. Pure; any thread.
const std::vector<AttributeDescription> &queueAttributeDescriptions();
const std::vector<AttributeDescription> &topicAttributeDescriptions();
const std::vector<AttributeDescription> &subscriptionAttributeDescriptions();
const std::vector<AttributeDescription> &attributeDescriptions(EntityChange::Entity kind);

} // namespace relaydesk
