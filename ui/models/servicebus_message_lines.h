// SPDX-License-Identifier: MIT
#pragma once

#include "broker/queues/message_sender.h"
#include "models/servicebus_message_model.h"

#include <QByteArray>
#include <QStringList>

#include <vector>

namespace relaydesk::servicebus_message_lines {

// The Service Bus Messages page's export file (docs/window.md "Service
// Bus"): JSON lines, one message a line — the Copy as JSON object
// (serviceBusMessageObject) plus "amqp", the message's AMQP sections as the
// broker stores them (base64), so that an import sends the message exactly
// as it was sent. The SQS export's shape does not fit: it has no content
// type, subject, correlation id or typed properties. Pure, any thread.

QByteArray line(const ServiceBusMessageRow &row);   // with its '\n'

// The send of a stored message again (an import, a resubmit): its sections,
// time to live, session and MessageId as sent (amqp_message::sendRequest),
// enqueued now rather than scheduled again.
Result<SendRequest> resend(const std::string &storedBody);

struct Import {
    std::vector<SendRequest> requests;   // in the file's order
    QStringList errors;                  // "line 2: not a JSON object"
};
// Each non-blank line: from "amqp" when it has one (its sections, time to
// live, session and MessageId as sent; not scheduled again), else from the
// fields a person may write — "body" (required), "contentType", "subject",
// "sessionId", "messageId", "correlationId", "applicationProperties"
// ({name: value} or {name: {"type", "value"}}; values typed as the Send
// dialog types them).
Import read(const QByteArray &file);

} // namespace relaydesk::servicebus_message_lines
