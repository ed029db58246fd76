// SPDX-License-Identifier: MIT
#pragma once

#include "broker/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace relaydesk {

class Database;

// Receipt handles (docs/behaviour.md §5.1): "q<queue row id>m<message row id>-<token>~<seal>";
// the receiver makes the token "<receive time, epoch ms>.<IdSource handle>"
// (128 random bits from a cryptographic source), so the stored handle also
// tells when the message was received (the 12-hour visibility cap). The seal
// is HMAC-SHA256 of everything before it under the database's seal key,
// truncated to 32 hexadecimal digits: nobody without the key can make a
// handle that checks, so a handle that was never the broker's — one altered,
// forged or re-sealed for another message — is ReceiptHandleIsInvalid, told
// apart from one that is no longer current (the message was deleted or
// received again). Handles of older releases (an FNV seal of 16 digits, or
// none) are read by their shape alone and count only while current.
// Opaque to clients. Pure functions, thread-safe.
std::string makeReceiptHandle(std::string_view key, std::int64_t queueId, std::int64_t messageRowId,
                              std::string_view token);
// Whether `handle` ends in a seal of this release's form (it may still not check).
bool isSealedReceiptHandle(std::string_view handle);
// The message row a handle names, when it has the shape above, a non-empty
// token, a seal that checks under `key` (if sealed), and names queue
// `queueId`; nothing otherwise.
std::optional<std::int64_t> receiptHandleMessageRow(std::string_view key, std::string_view handle,
                                                    std::int64_t queueId);

// The database's seal key: 32 random bytes made with the schema (migration 16)
// and kept in `settings`, then kept by the connection (Database::memo); never
// exported or shown. Call inside a unit.
Result<std::string> receiptSealKey(Database &db);

} // namespace relaydesk
