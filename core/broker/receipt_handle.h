// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace relaydesk {

// Receipt handles (SPEC 5.1): "q<queue row id>m<message row id>-<token>";
// the receiver makes the token "<receive time, epoch ms>.<IdSource id>", so
// the stored handle also tells when the message was received (the 12-hour
// visibility cap). Naming the queue and message lets the broker
// tell a handle that was never its own (ReceiptHandleIsInvalid) from one
// that is no longer current (the message was deleted or received again).
// Opaque to clients. Pure functions, thread-safe.
std::string makeReceiptHandle(std::int64_t queueId, std::int64_t messageRowId, std::string_view token);
// The message row a handle names, when it has the shape above, a non-empty
// token, and names queue `queueId`; nothing otherwise.
std::optional<std::int64_t> receiptHandleMessageRow(std::string_view handle, std::int64_t queueId);

} // namespace relaydesk
