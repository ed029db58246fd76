// SPDX-License-Identifier: MIT
#include "broker/dead_letter_queue.h"

#include "broker/echoed_value.h"

#include "broker/queue_records.h"
#include "broker/store_calls.h"

#include <map>
#include <vector>

namespace relaydesk {

namespace {

using Code = BrokerErrorCode;
using queue_records::storeFailure;

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
        "visible_at_ms = :now, receive_count = 0, first_receive_ms = NULL, scheduled_ms = NULL, "
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

    std::vector<std::pair<std::int64_t, std::optional<std::int64_t>>> rows;
    {
        Result<CachedStatement> statement =
            prepareBound(db, "SELECT id, source_queue_id FROM messages WHERE queue_id = ? AND state <> 'scheduled' "
                             "ORDER BY coalesce(sequence_number, 0), id LIMIT ?",
                         dlq->id, maxMessages.value_or(-1));
        if (!statement)
            return statement.error();
        const Status read = forEachRow(**statement, [&](Statement &row) {
            rows.emplace_back(row.columnInt64(0), row.columnOptionalInt64(1));
        });
        if (!read)
            return read.error();
    }

    MessageMoveOutcome outcome;
    std::map<std::int64_t, std::optional<QueueRecord>> sources;
    for (const auto &[rowId, sourceId] : rows) {
        const QueueRecord *target = fixedTarget ? &*fixedTarget : nullptr;
        if (!target && sourceId) {
            if (!sources.contains(*sourceId)) {
                Result<std::optional<QueueRecord>> found = queue_records::findById(db, *sourceId);
                if (!found)
                    return found.error();
                sources[*sourceId] = std::move(found).value();
            }
            if (sources[*sourceId] && sources[*sourceId]->isFifo() == dlq->isFifo())
                target = &*sources[*sourceId];
        }
        if (!target) {
            ++outcome.failed;
            continue;
        }
        if (Status placed = placeInto(db, *target, rowId, std::nullopt, std::nullopt, now); !placed)
            return placed.error();
        ++outcome.moved;
    }
    return outcome;
}

} // namespace relaydesk
