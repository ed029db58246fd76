// SPDX-License-Identifier: MIT
#include "broker/queues/queue_depths.h"

#include "broker/store_calls.h"
#include "store/transaction.h"

#include <algorithm>

namespace relaydesk::queue_depths {

namespace {

constexpr std::string_view kCounters = "SELECT depth_mark_ms, depth_stored, depth_in_flight, depth_delayed,"
                                       " depth_scheduled, depth_dead_lettered FROM queues WHERE id = ?";
// The messages whose visible_at_ms lies in (?2, ?3]: visible at ?3, not at ?2.
constexpr std::string_view kBetween =
    "SELECT count(*), count(*) FILTER (WHERE state = 'inflight'), count(*) FILTER (WHERE state = 'queued'),"
    " count(*) FILTER (WHERE state = 'scheduled')"
    " FROM messages INDEXED BY messages_by_visible_at WHERE queue_id = ?1 AND visible_at_ms > ?2 AND visible_at_ms <= ?3";
constexpr std::string_view kNextVisible =
    "SELECT min(visible_at_ms) FROM messages INDEXED BY messages_by_visible_at WHERE queue_id = ? AND visible_at_ms > ?";
constexpr std::string_view kMoveMark =
    "UPDATE queues SET depth_mark_ms = ?, depth_in_flight = ?, depth_delayed = ?, depth_scheduled = ? WHERE id = ?";
// One walk over the queue's rows, every count at once.
constexpr std::string_view kFullCount =
    "SELECT count(*), count(*) FILTER (WHERE visible_at_ms <= :now),"
    " count(*) FILTER (WHERE visible_at_ms > :now AND state = 'inflight'),"
    " count(*) FILTER (WHERE visible_at_ms > :now AND state = 'queued'),"
    " count(*) FILTER (WHERE visible_at_ms > :now AND state = 'scheduled'),"
    " count(*) FILTER (WHERE dead_letter_reason IS NOT NULL),"
    " min(visible_at_ms) FILTER (WHERE visible_at_ms > :now)"
    " FROM messages WHERE queue_id = :queue";
constexpr std::string_view kRewrite =
    "UPDATE queues SET depth_mark_ms = ?, depth_stored = ?, depth_in_flight = ?, depth_delayed = ?,"
    " depth_scheduled = ?, depth_dead_lettered = ? WHERE id = ?";

// A queue's counters: the counts at the mark.
struct Counters {
    std::int64_t markMs = 0;
    std::int64_t stored = 0;
    std::int64_t inFlight = 0;
    std::int64_t delayed = 0;
    std::int64_t scheduled = 0;
    std::int64_t deadLettered = 0;
};

// A full count: the depths and every message stored.
struct FullCount {
    QueueDepths depths;
    std::int64_t stored = 0;
};

// What read() worked out: the depths, the counters moved to now, and how
// many rows the range between the mark and now held.
struct Reading {
    QueueDepths depths;
    Counters atNow;
    std::int64_t walked = 0;
};

Result<std::optional<Counters>> readCounters(Database &db, std::int64_t queueId)
{
    auto row = selectRow(db, kCounters, queueId);
    if (!row)
        return row.error();
    if (!*row)
        return std::optional<Counters>();
    Statement &statement = ***row;
    return std::optional<Counters>(Counters{statement.columnInt64(0), statement.columnInt64(1), statement.columnInt64(2),
                                            statement.columnInt64(3), statement.columnInt64(4),
                                            statement.columnInt64(5)});
}

Result<FullCount> countFully(Database &db, std::int64_t queueId, std::int64_t nowMs)
{
    auto row = selectRow(db, kFullCount, named(":now", nowMs), named(":queue", queueId));
    if (!row)
        return row.error();
    FullCount full;
    if (!*row)
        return full;
    Statement &statement = ***row;
    full.stored = statement.columnInt64(0);
    full.depths.counts = QueueCounts{statement.columnInt64(1), statement.columnInt64(2), statement.columnInt64(3),
                                     statement.columnInt64(4), statement.columnInt64(5)};
    if (const auto next = statement.columnOptionalInt64(6))
        full.depths.nextVisible = fromEpochMilliseconds(*next);
    return full;
}

// The queue's counters from a full count, the mark at `nowMs`.
Status rewrite(Database &db, std::int64_t queueId, std::int64_t nowMs, const FullCount &full)
{
    const QueueCounts &counted = full.depths.counts;
    return executeStatement(db, kRewrite, nowMs, full.stored, counted.inFlight, counted.delayed, counted.scheduled,
                            counted.deadLettered, queueId);
}

// Moves `counters` from their mark to `nowMs`: a message with visible_at_ms
// in (mark, now] was invisible at the mark and is available now; in
// (now, mark] the other way round. Returns the rows of that range.
Result<std::int64_t> moveToNow(Database &db, std::int64_t queueId, Counters &counters, std::int64_t nowMs)
{
    if (counters.markMs == nowMs)
        return std::int64_t(0);
    const bool forward = nowMs > counters.markMs;
    auto row = selectRow(db, kBetween, queueId, std::min(counters.markMs, nowMs), std::max(counters.markMs, nowMs));
    if (!row)
        return row.error();
    if (!*row)
        return std::int64_t(0);
    Statement &range = ***row;
    const std::int64_t sign = forward ? -1 : 1; // forward: they left the invisible counts
    counters.inFlight += sign * range.columnInt64(1);
    counters.delayed += sign * range.columnInt64(2);
    counters.scheduled += sign * range.columnInt64(3);
    counters.markMs = nowMs;
    return range.columnInt64(0);
}

// A queue that is not there reads as empty.
Result<Reading> readAt(Database &db, std::int64_t queueId, std::int64_t nowMs)
{
    Reading reading;
    Result<std::optional<Counters>> counters = readCounters(db, queueId);
    if (!counters)
        return counters.error();
    if (!*counters)
        return reading;
    Counters &at = **counters;
    Result<std::int64_t> walked = moveToNow(db, queueId, at, nowMs);
    if (!walked)
        return walked.error();
    reading.walked = *walked;
    reading.depths.counts = QueueCounts{at.stored - at.inFlight - at.delayed - at.scheduled, at.inFlight, at.delayed,
                                        at.scheduled, at.deadLettered};
    Result<std::optional<ClockTime>> next = selectOptionalTime(db, kNextVisible, queueId, nowMs);
    if (!next)
        return next.error();
    reading.depths.nextVisible = *next;
    reading.atNow = at;
    return reading;
}

// readAt() inside a savepoint of its own (one snapshot on any connection);
// `keep` runs inside it too, before it is released.
template <class Keep>
Result<QueueDepths> readInSavepoint(Database &db, std::int64_t queueId, ClockTime now, Keep keep)
{
    StoreResult<Savepoint> savepoint = Savepoint::begin(db, "queue_depths");
    if (!savepoint.ok())
        return storeFailure(savepoint.status());
    Result<Reading> reading = readAt(db, queueId, toEpochMilliseconds(now));
    if (!reading)
        return reading.error();
    if (Status kept = keep(*reading); !kept)
        return kept.error();
    if (StoreStatus released = savepoint->release(); !released.ok())
        return storeFailure(released);
    return reading->depths;
}

} // namespace

Result<QueueDepths> read(Database &db, std::int64_t queueId, ClockTime now)
{
    return readInSavepoint(db, queueId, now, [](const Reading &) { return Status(); });
}

Result<QueueDepths> refresh(Database &db, std::int64_t queueId, ClockTime now)
{
    return readInSavepoint(db, queueId, now, [&](const Reading &reading) -> Status {
        if (reading.walked < kMarkStep)
            return {};
        const Counters &at = reading.atNow;
        return executeStatement(db, kMoveMark, at.markMs, at.inFlight, at.delayed, at.scheduled, queueId);
    });
}

Result<QueueDepths> countEveryMessage(Database &db, std::int64_t queueId, ClockTime now)
{
    Result<FullCount> full = countFully(db, queueId, toEpochMilliseconds(now));
    if (!full)
        return full.error();
    return full->depths;
}

Result<std::int64_t> storedMessages(Database &db, std::int64_t queueId)
{
    Result<std::optional<std::int64_t>> stored =
        selectOptionalInt64(db, "SELECT depth_stored FROM queues WHERE id = ?", queueId);
    if (!stored)
        return stored.error();
    return stored->value_or(0);
}

void SentTally::add(std::string_view state, std::int64_t visibleAtMs, bool deadLetter, std::int64_t markMs)
{
    ++stored;
    const bool afterMark = visibleAtMs > markMs;
    delayed += state == "queued" && afterMark;
    scheduled += state == "scheduled" && afterMark;
    deadLettered += deadLetter;
}

Status addSent(Database &db, std::int64_t queueId, const SentTally &tally, ClockTime now)
{
    return executeStatement(db,
                            "UPDATE queues SET last_used_ms = max(last_used_ms, ?), depth_stored = depth_stored + ?, "
                            "depth_delayed = depth_delayed + ?, depth_scheduled = depth_scheduled + ?, "
                            "depth_dead_lettered = depth_dead_lettered + ? WHERE id = ?",
                            toEpochMilliseconds(now), tally.stored, tally.delayed, tally.scheduled,
                            tally.deadLettered, queueId);
}

Status recount(Database &db, std::int64_t queueId, ClockTime now)
{
    const std::int64_t nowMs = toEpochMilliseconds(now);
    Result<FullCount> full = countFully(db, queueId, nowMs);
    if (!full)
        return full.error();
    return rewrite(db, queueId, nowMs, *full);
}

Result<std::vector<QueueDepthRepair>> recountEveryQueue(Database &db, ClockTime now)
{
    const std::int64_t nowMs = toEpochMilliseconds(now);
    std::vector<std::pair<std::int64_t, std::string>> queues;
    {
        auto statement = prepareBound(db, "SELECT id, name FROM queues ORDER BY name");
        if (!statement)
            return statement.error();
        const Status walked =
            forEachRow(**statement, [&](Statement &row) { queues.emplace_back(row.columnInt64(0), row.columnText(1)); });
        if (!walked)
            return walked.error();
    }
    std::vector<QueueDepthRepair> repairs;
    for (const auto &[id, name] : queues) {
        Result<Reading> kept = readAt(db, id, nowMs);
        if (!kept)
            return kept.error();
        Result<FullCount> full = countFully(db, id, nowMs);
        if (!full)
            return full.error();
        const bool differs = kept->atNow.stored != full->stored || kept->depths.counts != full->depths.counts;
        if (differs)
            repairs.push_back(QueueDepthRepair{name, kept->depths.counts, full->depths.counts});
        if (differs || kept->walked >= kMarkStep)
            if (Status written = rewrite(db, id, nowMs, *full); !written)
                return written.error();
    }
    return repairs;
}

} // namespace relaydesk::queue_depths
