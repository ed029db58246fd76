// SPDX-License-Identifier: MIT
#pragma once

#include "api/servicebus/amqp_message.h"
#include "broker/servicebus/servicebus_message_facts.h"

namespace relaydesk::amqp_message {

// What subscription rules see of one message (docs/behaviour.md §8.6): the properties
// section as Service Bus names it (message-id → MessageId, correlation-id
// → CorrelationId, to → To, reply-to → ReplyTo, subject → Label,
// content-type → ContentType, group-id → SessionId, reply-to-group-id →
// ReplyToSessionId), the x-opt-partition-key annotation as PartitionKey,
// and the application properties (text, booleans, whole and decimal
// numbers; identifiers and times as text). Only what the message carries is
// present. InvalidParameterValue for bytes that are no AMQP message.
// Pure, any thread.
Result<ServiceBusMessageFacts> filterFacts(const Bytes &message);

} // namespace relaydesk::amqp_message
