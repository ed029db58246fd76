// SPDX-License-Identifier: MIT
#pragma once

#include "broker/clock_time.h"
#include "broker/queues/message_attributes.h"
#include "broker/queues/message_browser.h"

#include <QString>

namespace relaydesk::message_text {

// How the window words a browsed message (the messages table and the
// viewer). Pure functions, any thread.

// "Available", "In flight", "Delayed", "Scheduled", "Expired", "Dead-lettered".
QString stateLabel(MessageState state);
// "1 h 02 min", "4 min 05 s", "12 s", "0 s": a compact, rounded-down span.
QString spanText(ClockDuration span);
// The countdown of the state at `now`: "lock ends in 25 s" (in flight),
// "visible in 10 s" (delayed), "enqueued in 1 h 00 min" (scheduled),
// "expired 5 s ago", "expires in 2 min 00 s" (available or dead-lettered with
// an expiry), or empty when nothing is counting.
QString countdownText(const BrowsedMessage &message, ClockTime now);
// When the countdown next changes its wording, for the one tick timer:
// true when a due time (lock, delay, schedule, expiry) has passed by `now`,
// i.e. the message's state may now be different from the browsed one.
bool stateDue(const BrowsedMessage &message, ClockTime now);
// The body's first line, at most 200 characters, for a table cell.
QString bodyPreview(const std::string &body);
// The body as the viewer shows it: pretty-printed (indent 4, keys in the order sent) when it is a
// JSON object or array, else verbatim. `isJson` tells which.
QString viewerBody(const std::string &body, bool *isJson = nullptr);
// An attribute value as text: String/Number verbatim, Binary as
// "0a 1b … (N bytes)" in hex.
QString attributeValueText(const MessageAttributeValue &value);
// "2026-11-23 21:04:07.123" (UTC) for a clock time.
QString timeText(ClockTime time);
// For a table cell: "21:04:07.123" when `time` is on the UTC day of `now`,
// else "2026-11-22 21:04:07" (the date matters more than the milliseconds).
QString shortTimeText(ClockTime time, ClockTime now);

} // namespace relaydesk::message_text
