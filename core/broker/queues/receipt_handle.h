// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace relaydesk {

// Receipt handles (docs/behaviour.md §5.1): "q<queue row id>m<message row id>-<token>~<seal>";
// the receiver makes the token "<receive time, epoch ms>.<IdSource id>", so
// the stored handle also tells when the message was received (the 12-hour
// visibility cap); the seal is 16 hexadecimal digits checking everything
// before it. Naming the queue and message, and the seal, let the broker
// tell a handle that was never its own — including one with a character
// changed (ReceiptHandleIsInvalid) — from one that is no
// longer current (the message was deleted or received again). Handles made
// before seals existed (no "~<seal>") are read by their shape alone.
// Opaque to clients. Pure functions, thread-safe.
std::string makeReceiptHandle(std::int64_t queueId, std::int64_t messageRowId, std::string_view token);
// Whether `handle` ends in a seal (it may still not check).
bool isSealedReceiptHandle(std::string_view handle);
// The message row a handle names, when it has the shape above, a non-empty
// token, a seal that checks (if sealed), and names queue `queueId`; nothing
// otherwise.
std::optional<std::int64_t> receiptHandleMessageRow(std::string_view handle, std::int64_t queueId);

} // namespace relaydesk
