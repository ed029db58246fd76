// SPDX-License-Identifier: MIT
#pragma once

#include "broker/queues/message_browser.h"
#include "broker/queues/message_sender.h"

#include <QByteArray>
#include <QString>

#include <vector>

namespace relaydesk {

// Messages as JSON lines, the file format of the Messages tab's Export… and
// Import… (docs/window.md "Messages"): one JSON object per line, in the SQS
// wire shape —
//   {"MessageId": …, "Body": …,
//    "Attributes": {"SentTimestamp": ms, "ApproximateReceiveCount": n, …},
//    "MessageAttributes": {NAME: {"DataType": …, "StringValue" | "BinaryValue" (base64)}},
//    "MessageGroupId": …, "MessageDeduplicationId": …,   (only when set)
//    "SentTime": ISO 8601 UTC}
// Import reads Body, MessageAttributes, MessageGroupId and
// MessageDeduplicationId; the rest says what the message was. Pure.
namespace message_lines {

// One message as one line (no newline at the end).
QByteArray write(const BrowsedMessage &message);

// What Resend (and Import) send for a message: its body, message attributes,
// group id and deduplication id. To a FIFO queue a message without a group id
// goes to group "default", and one without a deduplication id takes its
// MessageId as one (so it is not refused where content-based deduplication is
// off); to a standard queue neither is sent.
SendRequest resendRequest(const BrowsedMessage &message, bool fifoDestination);

struct ImportLine {
    int line = 0;   // 1-based line of the file
    SendRequest request;
};
struct ImportFile {
    std::vector<ImportLine> messages;
    QStringList errors;   // "line 3: …", one per line that is not a message
};
// Reads a whole file; blank lines are skipped. A line that is not a message
// (not JSON, no Body, a malformed attribute) is an error of its own; the
// other lines are still read.
ImportFile read(const QByteArray &contents);

} // namespace message_lines

} // namespace relaydesk
