// SPDX-License-Identifier: MIT
#include "broker/queues/message_lifetime.h"

#include "broker/queues/dead_letter_queue.h"
#include "broker/queues/queue_records.h"
#include "broker/store_calls.h"

#include <algorithm>
#include <map>

namespace relaydesk {

} // namespace relaydesk

namespace relaydesk::message_lifetime {

namespace {

using Code = BrokerErrorCode;

} // namespace

namespace {

// Expires these rows of `queue`: each into its dead-letter queue with
// TTLExpiredException when the queue says so and has one, else deleted.
Status expireRows(Database &db, const QueueRecord &queue, const std::vector<std::int64_t> &rowIds, ClockTime now)
{
    for (const std::int64_t rowId : rowIds) {
        bool moved = false;
        if (queue.attributes.deadLetteringOnMessageExpiration) {
            Result<bool> dead = moveToDeadLetterQueue(db, queue, rowId, kTtlExpiredException, now);
            if (!dead)
                return dead.error();
            moved = *dead;
        }
        if (!moved)
            if (Status removed = executeStatement(db, "DELETE FROM messages WHERE id = ?", rowId); !removed)
                return removed;
    }
    return {};
}

} // namespace

// Expiry queries go through messages_by_expiry (only the expired rows), never
// through the queue's own index (every message of the queue).
Result<std::int64_t> applyExpiry(Database &db, const QueueRecord &queue, ClockTime now, std::int64_t limit)
{
    const std::int64_t nowMs = toEpochMilliseconds(now);
    Result<std::vector<std::int64_t>> expired = selectColumn<std::int64_t>(
        db, "SELECT id FROM messages INDEXED BY messages_by_expiry WHERE queue_id = ?1 AND expires_at_ms <= ?2 AND "
            "(state <> 'inflight' OR visible_at_ms <= ?2) ORDER BY expires_at_ms LIMIT ?3",
        queue.id, nowMs, limit);
    if (!expired)
        return expired.error();
    if (Status done = expireRows(db, queue, *expired, now); !done)
        return done.error();
    return static_cast<std::int64_t>(expired->size());
}

Result<std::int64_t> applyExpiryEverywhere(Database &db, ClockTime now, std::int64_t limit)
{
    Result<ExpiryOutcome> outcome = expireEverywhere(db, now, limit);
    if (!outcome)
        return outcome.error();
    return outcome->expired;
}

// One walk of messages_by_expiry, bounded by `limit`: the earliest expired
// rows, whatever their queue (never a scan of every expired row: with a
// million of them that made each chunk cost the whole backlog).
Result<ExpiryOutcome> expireEverywhere(Database &db, ClockTime now, std::int64_t limit)
{
    const std::int64_t nowMs = toEpochMilliseconds(now);
    std::vector<std::int64_t> queueOrder;
    std::map<std::int64_t, std::vector<std::int64_t>> rowsOf;
    std::int64_t found = 0;
    {
        Result<CachedStatement> walk = prepareBound(
            db, "SELECT id, queue_id FROM messages INDEXED BY messages_by_expiry WHERE expires_at_ms <= ?1 AND "
                "(state <> 'inflight' OR visible_at_ms <= ?1) ORDER BY expires_at_ms LIMIT ?2",
            nowMs, limit);
        if (!walk)
            return walk.error();
        const Status read = forEachRow(**walk, [&](Statement &row) {
            const std::int64_t queueId = row.columnInt64(1);
            std::vector<std::int64_t> &rows = rowsOf[queueId];
            if (rows.empty())
                queueOrder.push_back(queueId);
            rows.push_back(row.columnInt64(0));
            ++found;
        });
        if (!read)
            return read.error();
    }
    ExpiryOutcome outcome;
    outcome.more = found == limit;
    const auto note = [&](const std::string &name) {
        if (std::find(outcome.changedQueues.begin(), outcome.changedQueues.end(), name) == outcome.changedQueues.end())
            outcome.changedQueues.push_back(name);
    };
    for (const std::int64_t queueId : queueOrder) {
        Result<std::optional<QueueRecord>> queue = queue_records::findById(db, queueId);
        if (!queue)
            return queue.error();
        if (!queue->has_value())
            continue;
        const std::vector<std::int64_t> &rows = rowsOf[queueId];
        if (Status done = expireRows(db, **queue, rows, now); !done)
            return done.error();
        outcome.expired += static_cast<std::int64_t>(rows.size());
        note((*queue)->name);
        if ((*queue)->attributes.deadLetteringOnMessageExpiration && !(*queue)->deadLetterQueueName().empty())
            note((*queue)->deadLetterQueueName());
    }
    return outcome;
}

Result<std::vector<ScheduledMessage>> scheduledMessages(Database &db, std::string_view queueName, ClockTime now)
{
    Result<QueueRecord> queue = queue_records::require(db, queueName);
    if (!queue)
        return queue.error();
    Result<CachedStatement> statement = prepareBound(
        db, "SELECT message_id, body, attributes, group_id, sequence_number, sent_ms, scheduled_ms, expires_at_ms "
            "FROM messages WHERE queue_id = ? AND scheduled_ms > ? AND state = 'scheduled' ORDER BY scheduled_ms, id",
        queue->id, toEpochMilliseconds(now));
    if (!statement)
        return statement.error();
    std::vector<ScheduledMessage> list;
    const Status read = forEachRow(**statement, [&](Statement &row) {
        ScheduledMessage message;
        message.messageId = row.columnText(0);
        message.body = row.columnText(1);
        message.attributes = queue_records::readMessageAttributes(row.columnText(2));
        message.groupId = row.columnOptionalText(3);
        message.sequenceNumber = row.columnOptionalInt64(4);
        message.sent = fromEpochMilliseconds(row.columnInt64(5));
        message.scheduledEnqueueTime = fromEpochMilliseconds(row.columnInt64(6));
        if (const auto expires = row.columnOptionalInt64(7))
            message.expiresAt = fromEpochMilliseconds(*expires);
        list.push_back(std::move(message));
    });
    if (!read)
        return read.error();
    return list;
}

Status cancelScheduledMessage(Database &db, std::string_view queueName, std::string_view messageId, ClockTime now)
{
    Result<QueueRecord> queue = queue_records::require(db, queueName);
    if (!queue)
        return queue.error();
    if (Status removed = executeStatement(db, "DELETE FROM messages WHERE queue_id = ? AND message_id = ? AND "
                                              "state = 'scheduled' AND scheduled_ms > ?",
                                          queue->id, messageId, toEpochMilliseconds(now));
        !removed)
        return removed;
    if (db.changes() == 0)
        return BrokerError(Code::ResourceNotFound,
                           "No scheduled message " + std::string(messageId) + " in queue " + std::string(queueName) + ".");
    return {};
}

Result<std::vector<std::string>> deleteIdleQueues(Database &db, ClockTime now, bool *more)
{
    const std::int64_t nowMs = toEpochMilliseconds(now);
    Result<std::vector<std::int64_t>> idle = selectColumn<std::int64_t>(
        db, "SELECT id FROM queues WHERE auto_delete_on_idle_ms IS NOT NULL AND last_used_ms + auto_delete_on_idle_ms <= ?1 "
            "ORDER BY name",
        nowMs);
    if (!idle)
        return idle.error();
    std::vector<std::string> names;
    std::int64_t budget = bulk_removal::kBulkChunkRows;
    for (const std::int64_t id : *idle) {
        // Its messages first, in chunks; the queue goes with its last chunk.
        Result<std::int64_t> removed = bulk_removal::removeQueueMessages(db, id, std::nullopt, budget);
        if (!removed)
            return removed.error();
        if (*removed == budget) {
            if (more)
                *more = true;
            break;
        }
        budget -= *removed + 1;
        Result<std::optional<QueueRecord>> queue = queue_records::findById(db, id);
        if (!queue)
            return queue.error();
        if (queue->has_value())
            names.push_back((*queue)->name);
        if (Status deleted = executeStatement(db, "DELETE FROM queues WHERE id = ?", id); !deleted)
            return deleted.error();
        if (budget <= 0) {
            if (more)
                *more = true;
            break;
        }
    }
    return names;
}

Result<std::int64_t> forgetExpiredDeduplicationIds(Database &db, ClockTime now)
{
    if (Status removed = executeStatement(db, "DELETE FROM fifo_dedup WHERE expires_ms <= ?", toEpochMilliseconds(now));
        !removed)
        return removed.error();
    return static_cast<std::int64_t>(db.changes());
}

// Runs after every broker operation, so both expiry queries are index seeks
// on messages_by_expiry, never scans of the messages table: the first
// unexpired expires-at (a message locked past it expires later, when its
// lock ends — then the second query finds it), and the lock ends of the
// locked messages already past their expires-at (few: expiry removes the
// others).
Result<QueueDueTimes> dueTimes(Database &db, ClockTime now)
{
    const std::int64_t nowMs = toEpochMilliseconds(now);
    QueueDueTimes due;
    Result<std::optional<ClockTime>> unexpired = selectOptionalTime(
        db, "SELECT min(expires_at_ms) FROM messages INDEXED BY messages_by_expiry WHERE expires_at_ms > ?1", nowMs);
    if (!unexpired)
        return unexpired.error();
    // Expired messages still there (a bulk expiry between its chunks): due
    // now, and the walk below, over every expired row, is not needed.
    Result<std::optional<std::int64_t>> backlog = selectOptionalInt64(
        db, "SELECT 1 FROM messages INDEXED BY messages_by_expiry WHERE expires_at_ms <= ?1 AND "
            "(state <> 'inflight' OR visible_at_ms <= ?1) LIMIT 1",
        nowMs);
    if (!backlog)
        return backlog.error();
    std::optional<ClockTime> lockEnds;
    if (*backlog) {
        lockEnds = now;
    } else {
        Result<std::optional<ClockTime>> locked = selectOptionalTime(
            db, "SELECT min(visible_at_ms) FROM messages INDEXED BY messages_by_expiry "
                "WHERE expires_at_ms <= ?1 AND state = 'inflight' AND visible_at_ms > ?1",
            nowMs);
        if (!locked)
            return locked.error();
        lockEnds = *locked;
    }
    due.nextExpiry = *unexpired;
    if (lockEnds && (!due.nextExpiry || *lockEnds < *due.nextExpiry))
        due.nextExpiry = lockEnds;
    Result<std::optional<ClockTime>> idle = selectOptionalTime(
        db, "SELECT min(last_used_ms + auto_delete_on_idle_ms) FROM queues INDEXED BY queues_by_idle_end "
            "WHERE auto_delete_on_idle_ms IS NOT NULL "
            "AND last_used_ms + auto_delete_on_idle_ms > ?1",
        nowMs);
    if (!idle)
        return idle.error();
    due.nextAutoDelete = *idle;
    return due;
}

} // namespace relaydesk::message_lifetime
