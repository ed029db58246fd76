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

// How many messages of a queue are in each state at one clock time (docs/behaviour.md
// §8.4's tree counts). A message counts once among the first four, by the same
// rule as the SQS approximate counts (available: visible now, including an
// expired lock; in flight: locked; delayed: DelaySeconds running; scheduled:
// scheduled enqueue time ahead); deadLettered counts the messages that were
// moved into this queue as dead letters, in any state.
struct QueueCounts {
    std::int64_t available = 0;
    std::int64_t inFlight = 0;
    std::int64_t delayed = 0;
    std::int64_t scheduled = 0;
    std::int64_t deadLettered = 0;

    bool operator==(const QueueCounts &) const = default;
};

// A queue's counts at one clock time, and the earliest time after it at which
// one of its messages becomes available (a delay, schedule or lock ends).
struct QueueDepths {
    QueueCounts counts;
    std::optional<ClockTime> nextVisible;

    bool operator==(const QueueDepths &) const = default;
};

// A queue whose kept counters differed from a full count at start.
struct QueueDepthRepair {
    std::string queue;
    QueueCounts kept;
    QueueCounts counted;
};

// The depths of a queue from counters the store keeps, never from a walk
// over the queue's messages (docs/architecture.md §9).
//
// Each queue's row holds (columns depth_*), as of a clock time called the
// mark: the messages stored, the dead letters among them, and how many are in
// flight, delayed and scheduled AT THE MARK (that state, visible_at_ms after
// the mark). Triggers on `messages` keep them exact in the same statement as
// every delete and change of a message (relaydesk_schema.cpp, migration 9);
// a new message is counted by its only writer, MessageSender, with one
// addSent() per send call instead of a trigger per row (migration 15: the
// trigger was over a third of a batch's store work). Both are in the
// caller's transaction, so group commit makes them as durable as the rows. A state that changes by time alone (a delay, schedule
// or lock ending) is found at read time: the messages whose visible_at_ms lies
// between the mark and now (an index range on messages_by_visible_at) are the
// only ones whose counted state differs between the two — so a read costs
// O(those), never O(the queue). A message sent after the mark is visible from
// its send time, so it is in that range too until the mark passes it: the
// refresh moves the mark to now once the range holds kMarkStep rows, so each
// message is walked a bounded number of times.
//
// Free functions over the caller's Database (its thread). read() and refresh()
// run in a savepoint of their own: the counters and the rows come from one
// commit also on a read-only connection.
namespace queue_depths {

// The refresh moves the mark once the range between it and now holds this many rows.
inline constexpr std::int64_t kMarkStep = 256;

// The depths at `now`: the counters, corrected by the range between the mark
// and `now` (either side of the mark), and the next visibility time (one
// index seek). Reads only. A queue that is not there reads as empty.
Result<QueueDepths> read(Database &db, std::int64_t queueId, ClockTime now);
// read(), then — on a read-write connection, inside the caller's unit — moves
// the mark to `now` when the range walked held kMarkStep rows or more.
Result<QueueDepths> refresh(Database &db, std::int64_t queueId, ClockTime now);
// The depths by a walk over every message of the queue: O(messages). For the
// check at start and for tests; never on a hot path.
Result<QueueDepths> countEveryMessage(Database &db, std::int64_t queueId, ClockTime now);
// New messages of one queue as its counters take them, at the queue's mark.
struct SentTally {
    std::int64_t stored = 0;
    std::int64_t delayed = 0;
    std::int64_t scheduled = 0;
    std::int64_t deadLettered = 0;

    // One message inserted in `state` ("queued" or "scheduled") visible at
    // `visibleAtMs`, with or without a dead-letter reason, counted against the
    // queue's mark `markMs` (the rule the removed insert trigger applied).
    void add(std::string_view state, std::int64_t visibleAtMs, bool deadLetter, std::int64_t markMs);
};
// Adds `tally` to queue `queueId`'s counters and moves its idle clock
// (last_used_ms) to `now` if later — one UPDATE of the queue's row. On a
// read-write connection, inside the unit that inserted the messages.
Status addSent(Database &db, std::int64_t queueId, const SentTally &tally, ClockTime now);
// How many messages the queue stores (its counter; 0 for a queue that is not there).
Result<std::int64_t> storedMessages(Database &db, std::int64_t queueId);

// Sets the queue's counters from a full count, with the mark at `now`.
// O(messages); on a read-write connection, inside the caller's unit.
Status recount(Database &db, std::int64_t queueId, ClockTime now);

// At start: every queue's counters against a full count at `now`. Those that
// differ are rewritten from the count (mark at `now`) and returned, by name;
// so is — silently — a queue whose mark is kMarkStep rows or more behind
// (e.g. just after migration 9), so no read walks far. Nothing is written
// when every queue is right and near its mark. O(messages); inside the
// caller's unit on the write connection.
Result<std::vector<QueueDepthRepair>> recountEveryQueue(Database &db, ClockTime now);

} // namespace queue_depths

} // namespace relaydesk
