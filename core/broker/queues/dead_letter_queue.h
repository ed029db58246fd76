// SPDX-License-Identifier: MIT
#pragma once

#include "broker/clock_time.h"
#include "broker/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace relaydesk {

class Database;
struct QueueRecord;

// The reasons a message is dead-lettered (messages.dead_letter_reason).
inline constexpr std::string_view kMaxReceiveCountExceeded = "MaxReceiveCountExceeded";
inline constexpr std::string_view kTtlExpiredException = "TTLExpiredException";
// A topic subscription's dead letter (docs/behaviour.md §4.5): its delivery policy ran out
// of attempts, or the endpoint (or the subscribed queue) refused the message
// with a permanent failure that is never retried.
inline constexpr std::string_view kDeliveryRetriesExhausted = "DeliveryRetriesExhausted";
inline constexpr std::string_view kDeliveryRefused = "DeliveryRefused";

// Moves one stored message (row id `messageRowId` of queue `source`) to the
// dead-letter queue of `source`'s redrive policy (docs/behaviour.md §5.3, 6): it becomes
// available there at once, unlocked, with receive count 0, `reason` and its
// source recorded, a new SequenceNumber on a FIFO target, and a lifetime of
// the target's TTL cap counted from `now` (a dead letter does not expire
// because it expired at the source). Returns false — and changes nothing —
// when `source` has no redrive policy or its target does not exist now.
// Inside the caller's transaction; thread of `db`.
Result<bool> moveToDeadLetterQueue(Database &db, const QueueRecord &source, std::int64_t messageRowId,
                                   std::string_view reason, ClockTime now);

struct MessageMoveOutcome {
    std::int64_t moved = 0;
    std::int64_t failed = 0;   // left in the dead-letter queue with no queue to go back to (source gone)
};

// One step of StartMessageMoveTask inside the caller's transaction (a task
// moves in chunks, one commit unit each: message_move_tasks): moves up to
// `maxMessages` (all when empty) dead-lettered messages of `deadLetterQueue`
// that can move, oldest first (SequenceNumber on FIFO), back to the queue
// each came from, or all to `destination` when given. Messages whose source
// queue is gone are never taken; `failed` counts those left (when no
// destination is given). Moved messages are available at once with receive
// count 0 and no dead-letter reason. Errors: QueueDoesNotExist
// (ResourceNotFound for a dead-letter queue that is no queue's target and
// no destination given), InvalidParameterValue for a destination of the other
// kind (FIFO vs standard).
Result<MessageMoveOutcome> moveDeadLettersBack(Database &db, std::string_view deadLetterQueue,
                                               const std::optional<std::string> &destination,
                                               std::optional<std::int64_t> maxMessages, ClockTime now);

// The window's redrive of chosen dead letters (docs/window.md "Messages"):
// moves the messages of `deadLetterQueue` with these MessageIds back to the
// queue each came from, as moveDeadLettersBack does for all — available at
// once, receive count 0, no dead-letter reason, a new SequenceNumber on FIFO.
// An id that is not in the queue, is scheduled, or whose source queue is gone
// (or of the other kind) is left where it is and counted in `failed`.
// Errors: QueueDoesNotExist. Inside the caller's transaction; thread of `db`.
struct DeadLetterRedrive {
    std::int64_t moved = 0;
    std::int64_t failed = 0;                 // ids left where they were
    std::vector<std::string> destinations;   // the queues that gained a message, each once
};
Result<DeadLetterRedrive> moveDeadLettersBackById(Database &db, std::string_view deadLetterQueue,
                                                  const std::vector<std::string> &messageIds, ClockTime now);

} // namespace relaydesk
