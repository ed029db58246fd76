// SPDX-License-Identifier: MIT
#pragma once

#include "broker/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace relaydesk {

class Database;

// Bulk removals in bounded chunks (docs/reliability.md "Bulk removals").
// Every path that removes or moves an unbounded number of rows — expiry,
// purge, auto-delete on idle, the deletion of a queue, topic or subscription
// with its messages — does at most kBulkChunkRows rows in one unit and leaves
// the rest to units of their own, so that no unit grows with the data (its
// savepoint journal, its time on the broker thread) and the units of other
// requests run between the chunks.
namespace bulk_removal {

// At most this many rows are removed or moved in one unit.
constexpr std::int64_t kBulkChunkRows = 2000;

// Removes up to `limit` messages of queue `queueId` — only those with a row
// id up to `upToRowId` when given (the messages that were there when a purge
// began) — and answers how many it removed; fewer than `limit` means none is
// left. Inside the caller's transaction; thread of `db`.
Result<std::int64_t> removeQueueMessages(Database &db, std::int64_t queueId, std::optional<std::int64_t> upToRowId,
                                         std::int64_t limit = kBulkChunkRows);

// Removes up to `limit` messages of the named queues (a name that is not a
// queue is skipped), in the order given; answers whether it removed
// `limit` (then more may be left). What the deletion of an entity calls in
// units of its own before the unit that deletes it.
Result<bool> removeMessagesOfQueues(Database &db, const std::vector<std::string> &queueNames,
                                    std::int64_t limit = kBulkChunkRows);

// Removes up to `limit` pending HTTP/S deliveries of the subscriptions with
// these row ids (a topic's, or one); answers whether it removed `limit`.
Result<bool> removePendingDeliveries(Database &db, const std::vector<std::int64_t> &subscriptionIds,
                                     std::int64_t limit = kBulkChunkRows);

// The highest row id of the messages of queue `queueId` (0 for none): where a
// purge that begins now ends.
Result<std::int64_t> lastMessageRowId(Database &db, std::int64_t queueId);

} // namespace bulk_removal

} // namespace relaydesk
