// SPDX-License-Identifier: MIT
#pragma once

#include "broker/clock_time.h"
#include "broker/queues/bulk_removal.h"
#include "broker/queues/message_attributes.h"
#include "broker/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace relaydesk {

class Database;
struct QueueRecord;

// A message waiting for its scheduled enqueue time (docs/behaviour.md §6), as listed.
struct ScheduledMessage {
    std::string messageId;
    std::string body;
    MessageAttributes attributes;
    std::optional<std::string> groupId;
    std::optional<std::int64_t> sequenceNumber;
    ClockTime sent{};
    ClockTime scheduledEnqueueTime{};
    std::optional<ClockTime> expiresAt;
};

// When the lifetime timer of the engine must next wake (after the `now` they
// were computed for, or at it while expired messages wait for their chunk;
// empty = nothing pending of that kind). May be early (a locked message's
// expires-at), never late.
struct QueueDueTimes {
    std::optional<ClockTime> nextExpiry;       // a message may reach its expiry (docs/behaviour.md §6, lock included)
    std::optional<ClockTime> nextAutoDelete;   // an idle queue reaches its AutoDeleteOnIdle
};

// Message lifetime of queues (docs/behaviour.md §6): expiry (lazy, per queue on receive,
// or everywhere from the engine's timer), scheduled messages, auto-delete on
// idle, the FIFO deduplication window's clean-up, and the due times. Free
// functions over a Database& inside the caller's transaction; thread of the
// Database; `now` is clock time.
namespace message_lifetime {

// Applies expiry to the messages of `queue` whose expires-at has come and
// that are not locked (in flight with their visibility timeout running):
// dead-lettered with reason TTLExpiredException when the queue has
// DeadLetteringOnMessageExpiration and an existing dead-letter queue,
// deleted otherwise. Returns how many were expired: at most `limit`, the
// earliest expired first (a bulk removal in chunks: bulk_removal.h).
Result<std::int64_t> applyExpiry(Database &db, const QueueRecord &queue, ClockTime now,
                                 std::int64_t limit = bulk_removal::kBulkChunkRows);
// The same for every queue that has such messages, at most `limit` in all.
Result<std::int64_t> applyExpiryEverywhere(Database &db, ClockTime now,
                                           std::int64_t limit = bulk_removal::kBulkChunkRows);

struct ExpiryOutcome {
    std::int64_t expired = 0;
    // The queues that lost an expired message and the dead-letter queues
    // that may have gained one, each once (for change events and wake-ups).
    std::vector<std::string> changedQueues;
    // The limit was reached: more messages may be due; the caller runs
    // another chunk in a unit of its own.
    bool more = false;
};
// applyExpiryEverywhere, telling which queues it changed.
Result<ExpiryOutcome> expireEverywhere(Database &db, ClockTime now, std::int64_t limit = bulk_removal::kBulkChunkRows);

// The scheduled messages of the queue not yet enqueued at `now`, by
// scheduled time. QueueDoesNotExist for an unknown queue.
Result<std::vector<ScheduledMessage>> scheduledMessages(Database &db, std::string_view queueName, ClockTime now);
// Removes a scheduled message before it appears. ResourceNotFound when the
// queue has no such message still scheduled at `now`.
Status cancelScheduledMessage(Database &db, std::string_view queueName, std::string_view messageId, ClockTime now);

// Deletes the queues with AutoDeleteOnIdle whose last use is that long ago
// (at `now` or earlier); returns their names. Their messages go first, in
// chunks (bulk_removal.h): when the chunk's rows ran out before every idle
// queue was gone, `more` (when given) is set and a later call goes on.
Result<std::vector<std::string>> deleteIdleQueues(Database &db, ClockTime now, bool *more = nullptr);

// Forgets FIFO deduplication ids whose 5-minute window has ended.
Result<std::int64_t> forgetExpiredDeduplicationIds(Database &db, ClockTime now);

Result<QueueDueTimes> dueTimes(Database &db, ClockTime now);

} // namespace message_lifetime

} // namespace relaydesk
