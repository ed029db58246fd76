// SPDX-License-Identifier: MIT
#pragma once

#include "broker/queues/message_sender.h"
#include "broker/result.h"
#include "broker/servicebus/servicebus_rule_action.h"

namespace proton {
class scalar;
}

namespace relaydesk::amqp_message {

// A rule's value as AMQP writes it: text, boolean, long, double or null.
proton::scalar filterValueAmqp(const FilterValue &value);

// The copy of a stored message a subscription rule's action makes
// (docs/behaviour.md §8.6): the same sections and send fields, its
// application properties set (text, booleans, long, double or null) or
// removed as `changes` says, and its system properties (the properties
// section: message-id, correlation-id, to, reply-to, subject, group-id,
// reply-to-group-id, content-type) set as text or cleared — with the
// SessionId and MessageId of the send. InvalidParameterValue when proton cannot
// read or write the stored sections. Pure, any thread (a
// ServiceBusMessageRewriter).
Result<SendRequest> withPropertyChanges(const SendRequest &message, const ServiceBusPropertyChanges &changes);

} // namespace relaydesk::amqp_message
