// SPDX-License-Identifier: MIT
#pragma once

#include "connections/connection_entities.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

struct pn_message_t;

namespace relaydesk::servicebus_amqp {

// Service Bus messages as Qpid Proton's pn_message encodes them (AMQP 1.0),
// in the window's model types (connection_entities.h).

// A pn_message owned (freed when dropped).
using Message = std::unique_ptr<pn_message_t, void (*)(pn_message_t *)>;
Message newMessage();

std::vector<char> encode(pn_message_t *message);
// False when the bytes are not one AMQP message.
bool decode(const std::vector<char> &bytes, pn_message_t *message);

// An outgoing message: the body as one data section (UTF-8), the attributes
// as string application properties, message id (a new UUID when none), the
// session id (`groupId`), subject and content type in the properties
// section. `messageId` is set to the id sent.
std::vector<char> outgoing(const OutgoingMessage &message, QString *messageId);

// A message as the Messages tab shows it: id, body (a data section or a
// string as text, anything else in Proton's notation), application
// properties, SessionId/Subject/ContentType among the attributes when set,
// the sequence number and enqueued time of the service's annotations, the
// delivery count. `state` as given, else the peeked message's state
// ("available", "deferred", "scheduled").
MessageLine lineOf(const std::vector<char> &bytes, const QString &state);

// A copy to send again (resubmit): the same id, body, properties and
// application properties, without the service's annotations and header.
std::vector<char> resubmitted(const std::vector<char> &bytes);

// Request-response helpers: an application property set as a string, the
// answer's status (status-code or statusCode) and its description and
// condition (status-description/statusDescription, errorCondition).
void putProperty(pn_message_t *message, const char *name, const std::string &value);
std::optional<long> status(pn_message_t *answer);
std::string textProperty(pn_message_t *message, const char *name);

// com.microsoft:peek-message: the request body and the answer's messages.
void putPeekRequest(pn_message_t *request, qint64 fromSequenceNumber, int count);
std::vector<std::vector<char>> peekedMessages(pn_message_t *answer);

} // namespace relaydesk::servicebus_amqp
