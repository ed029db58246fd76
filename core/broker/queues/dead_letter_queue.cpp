// SPDX-License-Identifier: MIT
#include "broker/queues/dead_letter_queue.h"

#include "broker/echoed_value.h"

#include "broker/queues/queue_records.h"
#include "broker/store_calls.h"

#include <map>
#include <vector>

namespace relaydesk {

namespace {

using Code = BrokerErrorCode;

// Puts message `rowId` into `target` as a fresh available message.
Status placeInto(Database &db, const QueueRecord &target, std::int64_t rowId, std::optional<std::string_view> reason,
                 std::optional<std::int64_t> sourceId, ClockTime now)
{
    const std::int64_t nowMs = toEpochMilliseconds(now);
    std::optional<std::int64_t> sequence;
    if (target.isFifo()) {
        Result<std::int64_t> next = queue_records::takeSequenceNumber(db, target.id);
        if (!next)
            return next.error();
        sequence = *next;
    }
    return executeStatement(
        db,
        "UPDATE messages SET queue_id = :queue, state = 'queued', receipt_handle = NULL, receive_attempt_id = NULL, "
        "visible_at_ms = :now, receive_count = 0, first_receive_ms = NULL, scheduled_ms = NULL, deferred = 0, "
        "sequence_number = :sequence, expires_at_ms = :expires, dead_letter_reason = :reason, "
        "source_queue_id = :source, group_id = CASE WHEN :fifo THEN coalesce(group_id, 'default') ELSE group_id END "
        "WHERE id = :id",
        named(":queue", target.id), named(":now", nowMs), named(":sequence", sequence),
        named(":expires", nowMs + target.attributes.timeToLiveCap() * 1000), named(":reason", reason),
        named(":source", sourceId), named(":fifo", target.isFifo() ? 1 : 0), named(":id", rowId));
}

} // namespace

Result<bool> moveToDeadLetterQueue(Database &db, const QueueRecord &source, std::int64_t messageRowId,
                                   std::string_view reason, ClockTime now)
{
    const std::string targetName = source.deadLetterQueueName();
    if (targetName.empty() || targetName == source.name)
        return false;
    Result<std::optional<QueueRecord>> target = queue_records::find(db, targetName);
    if (!target)
        return target.error();
    if (!target->has_value() || (*target)->isFifo() != source.isFifo())
        return false;
    if (Status placed = placeInto(db, **target, messageRowId, reason, source.id, now); !placed)
        return placed.error();
    return true;
}

Result<MessageMoveOutcome> moveDeadLettersBack(Database &db, std::string_view deadLetterQueue,
                                               const std::optional<std::string> &destination,
                                               std::optional<std::int64_t> maxMessages, ClockTime now)
{
    Result<QueueRecord> dlq = queue_records::require(db, deadLetterQueue);
    if (!dlq)
        return dlq.error();
    std::optional<QueueRecord> fixedTarget;
    if (destination) {
        Result<QueueRecord> target = queue_records::require(db, *destination);
        if (!target)
            return target.error();
        if (target->isFifo() != dlq->isFifo())
            return BrokerError(Code::InvalidParameterValue,
                               "Value " + echoedValue(*destination) + " for parameter DestinationArn is invalid. Reason: the "
                               "destination must be of the same queue type as the source.");
        fixedTarget = std::move(target).value();
    } else {
        StoreResult<std::int64_t> sources =
            db.queryInt64("SELECT count(*) FROM queues WHERE dead_letter_queue = '" + dlq->name + "'");
        if (!sources.ok())
            return storeFailure(sources.status());
        if (*sources == 0)
            return BrokerError(Code::ResourceNotFound, "Source queue must be configured as a Dead Letter Queue.");
    }

    // Only messages that can move are taken (a fixed target, or a source
    // queue of the same kind that still exists), in the queue's own order by
    // an index: SequenceNumber on FIFO, storage order on standard. So a move
    // in chunks never takes the same unmovable message twice.
    const std::string movable =
        fixedTarget ? std::string() : std::string("AND source_queue_id IN (SELECT id FROM queues WHERE fifo = ?) ");
    const std::string order = dlq->isFifo() ? "AND sequence_number IS NOT NULL ORDER BY sequence_number " : "ORDER BY id ";
    const std::string select =
        "SELECT id, source_queue_id FROM messages WHERE queue_id = ? AND state <> 'scheduled' " + movable + order + "LIMIT ?";
    std::vector<std::pair<std::int64_t, std::optional<std::int64_t>>> rows;
    {
        Result<CachedStatement> statement =
            fixedTarget ? prepareBound(db, select, dlq->id, maxMessages.value_or(-1))
                        : prepareBound(db, select, dlq->id, std::int64_t(dlq->isFifo() ? 1 : 0), maxMessages.value_or(-1));
        if (!statement)
            return statement.error();
        const Status read = forEachRow(**statement, [&](Statement &row) {
            rows.emplace_back(row.columnInt64(0), row.columnOptionalInt64(1));
        });
        if (!read)
            return read.error();
    }

    MessageMoveOutcome outcome;
    std::map<std::int64_t, QueueRecord> sources;
    for (const auto &[rowId, sourceId] : rows) {
        const QueueRecord *target = fixedTarget ? &*fixedTarget : nullptr;
        if (!target) {
            if (!sources.contains(*sourceId)) {
                Result<std::optional<QueueRecord>> found = queue_records::findById(db, *sourceId);
                if (!found)
                    return found.error();
                sources.emplace(*sourceId, std::move(**found));   // it exists: the query asked for that
            }
            target = &sources.at(*sourceId);
        }
        if (Status placed = placeInto(db, *target, rowId, std::nullopt, std::nullopt, now); !placed)
            return placed.error();
        ++outcome.moved;
    }
    if (!fixedTarget) {
        Result<std::optional<std::int64_t>> left = selectOptionalInt64(
            db,
            "SELECT count(*) FROM messages WHERE queue_id = ? AND state <> 'scheduled' AND (source_queue_id IS NULL "
            "OR source_queue_id NOT IN (SELECT id FROM queues WHERE fifo = ?))",
            dlq->id, std::int64_t(dlq->isFifo() ? 1 : 0));
        if (!left)
            return left.error();
        outcome.failed = left->value_or(0);
    }
    return outcome;
}

Result<DeadLetterRedrive> moveDeadLettersBackById(Database &db, std::string_view deadLetterQueue,
                                                  const std::vector<std::string> &messageIds, ClockTime now)
{
    Result<QueueRecord> dlq = queue_records::require(db, deadLetterQueue);
    if (!dlq)
        return dlq.error();
    DeadLetterRedrive outcome;
    std::map<std::int64_t, QueueRecord> sources;
    for (const std::string &messageId : messageIds) {
        Result<std::optional<CachedStatement>> row = selectRow(
            db,
            "SELECT id, source_queue_id FROM messages WHERE queue_id = ? AND message_id = ? AND state <> 'scheduled' "
            "AND source_queue_id IN (SELECT id FROM queues WHERE fifo = ?)",
            dlq->id, messageId, std::int64_t(dlq->isFifo() ? 1 : 0));
        if (!row)
            return row.error();
        if (!*row) {
            ++outcome.failed;
            continue;
        }
        const std::int64_t rowId = (**row)->columnInt64(0);
        const std::int64_t sourceId = (**row)->columnInt64(1);
        row->reset();
        if (!sources.contains(sourceId)) {
            Result<std::optional<QueueRecord>> found = queue_records::findById(db, sourceId);
            if (!found)
                return found.error();
            sources.emplace(sourceId, std::move(**found));   // it exists: the query asked for that
            outcome.destinations.push_back(sources.at(sourceId).name);
        }
        if (Status placed = placeInto(db, sources.at(sourceId), rowId, std::nullopt, std::nullopt, now); !placed)
            return placed.error();
        ++outcome.moved;
    }
    return outcome;
}

} // namespace relaydesk
