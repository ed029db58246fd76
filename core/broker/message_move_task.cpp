// SPDX-License-Identifier: MIT
#include "broker/message_move_task.h"

#include "broker/dead_letter_queue.h"
#include "broker/id_source.h"
#include "broker/queue_records.h"
#include "broker/store_calls.h"

#include <algorithm>

namespace relaydesk::message_move_tasks {

namespace {

using Code = BrokerErrorCode;

constexpr std::string_view kCouldNotDetermineSource = "CouldNotDetermineMessageSource";

// The queue an ARN names, when it is one of this broker's existing queues.
Result<QueueRecord> queueOfArn(Database &db, const BrokerIdentity &identity, std::string_view arn,
                               std::string_view parameter)
{
    const BrokerError missing(Code::ResourceNotFound, "The resource that you specified for the " + std::string(parameter)
                                                          + " parameter doesn't exist.");
    Result<std::string> name = identity.queueNameFromArn(arn);
    if (!name)
        return missing;
    Result<std::optional<QueueRecord>> queue = queue_records::find(db, *name);
    if (!queue)
        return queue.error();
    if (!queue->has_value())
        return missing;
    return std::move(**queue);
}

} // namespace

Result<StartedMessageMoveTask> start(Database &db, const BrokerIdentity &identity, IdSource &ids,
                                     std::string_view sourceArn, const std::optional<std::string> &destinationArn,
                                     std::optional<std::int64_t> maxNumberOfMessagesPerSecond, ClockTime now)
{
    if (maxNumberOfMessagesPerSecond
        && (*maxNumberOfMessagesPerSecond < 1 || *maxNumberOfMessagesPerSecond > kMaxMessagesPerSecond))
        return BrokerError(Code::InvalidParameterValue,
                           "Value " + std::to_string(*maxNumberOfMessagesPerSecond)
                               + " for parameter MaxNumberOfMessagesPerSecond is invalid. Reason: must be between 1 "
                                 "and 500.");
    Result<QueueRecord> source = queueOfArn(db, identity, sourceArn, "SourceArn");
    if (!source)
        return source.error();
    Result<std::vector<std::string>> sources =
        selectColumn<std::string>(db, "SELECT name FROM queues WHERE dead_letter_queue = ? ORDER BY name", source->name);
    if (!sources)
        return sources.error();
    if (sources->empty())
        return BrokerError(Code::InvalidParameterValue, "Source queue must be configured as a Dead Letter Queue.");
    std::optional<std::string> destination;
    if (destinationArn) {
        Result<QueueRecord> target = queueOfArn(db, identity, *destinationArn, "DestinationArn");
        if (!target)
            return target.error();
        destination = target->name;
    }
    Result<std::optional<std::int64_t>> toMove = selectOptionalInt64(
        db, "SELECT count(*) FROM messages WHERE queue_id = ? AND state <> 'scheduled'", source->id);
    if (!toMove)
        return toMove.error();

    Result<MessageMoveOutcome> outcome = moveDeadLettersBack(db, source->name, destination, std::nullopt, now);
    if (!outcome)
        return outcome.error();

    StartedMessageMoveTask started;
    started.taskHandle = ids.newMessageId();
    started.moved = outcome->moved;
    const bool failed = outcome->failed > 0;
    if (Status recorded = executeStatement(
            db,
            "INSERT INTO message_move_tasks (task_handle, source_arn, destination_arn, max_per_second, status, moved, "
            "to_move, failure_reason, started_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            started.taskHandle, identity.queueArn(source->name),
            destination ? std::optional<std::string>(identity.queueArn(*destination)) : std::nullopt,
            maxNumberOfMessagesPerSecond, std::string(failed ? "FAILED" : "COMPLETED"), outcome->moved,
            toMove->value_or(0),
            failed ? std::optional<std::string>(kCouldNotDetermineSource) : std::nullopt, toEpochMilliseconds(now));
        !recorded)
        return recorded.error();

    started.changedQueues.push_back(source->name);
    if (destination)
        started.changedQueues.push_back(*destination);
    else
        for (const std::string &name : *sources)
            if (std::find(started.changedQueues.begin(), started.changedQueues.end(), name) == started.changedQueues.end())
                started.changedQueues.push_back(name);
    return started;
}

Result<std::vector<MessageMoveTask>> list(Database &db, const BrokerIdentity &identity, std::string_view sourceArn,
                                          std::optional<int> maxResults)
{
    const int limit = maxResults.value_or(1);
    if (limit < 1 || limit > kMaxListResults)
        return BrokerError(Code::InvalidParameterValue, "Value " + std::to_string(limit)
                                                            + " for parameter MaxResults is invalid. Reason: must be "
                                                              "between 1 and 10.");
    Result<QueueRecord> source = queueOfArn(db, identity, sourceArn, "SourceArn");
    if (!source)
        return source.error();
    Result<CachedStatement> select = prepareBound(
        db,
        "SELECT task_handle, status, source_arn, destination_arn, max_per_second, moved, to_move, failure_reason, "
        "started_ms FROM message_move_tasks WHERE source_arn = ? ORDER BY id DESC LIMIT ?",
        identity.queueArn(source->name), static_cast<std::int64_t>(limit));
    if (!select)
        return select.error();
    std::vector<MessageMoveTask> tasks;
    const Status read = forEachRow(**select, [&](Statement &row) {
        MessageMoveTask task;
        task.status = row.columnText(1);
        if (task.status == "RUNNING")
            task.taskHandle = row.columnText(0);
        task.sourceArn = row.columnText(2);
        task.destinationArn = row.columnOptionalText(3);
        task.maxNumberOfMessagesPerSecond = row.columnOptionalInt64(4);
        task.approximateNumberOfMessagesMoved = row.columnInt64(5);
        task.approximateNumberOfMessagesToMove = row.columnInt64(6);
        task.failureReason = row.columnOptionalText(7);
        task.startedTimestamp = fromEpochMilliseconds(row.columnInt64(8));
        tasks.push_back(std::move(task));
    });
    if (!read)
        return read.error();
    return tasks;
}

Result<std::int64_t> cancel(Database &db, std::string_view taskHandle)
{
    Result<std::optional<CachedStatement>> row =
        selectRow(db, "SELECT id, status, moved FROM message_move_tasks WHERE task_handle = ?", taskHandle);
    if (!row)
        return row.error();
    if (!row->has_value())
        return BrokerError(Code::ResourceNotFound, "The task handle " + std::string(taskHandle) + " doesn't exist.");
    const std::int64_t id = (**row)->columnInt64(0);
    const std::string status = (**row)->columnText(1);
    const std::int64_t moved = (**row)->columnInt64(2);
    row->reset();
    if (status != "RUNNING")
        return BrokerError(Code::ResourceNotFound, "The task " + std::string(taskHandle) + " is " + status
                                                       + " and can no longer be cancelled.");
    if (Status cancelled = executeStatement(db, "UPDATE message_move_tasks SET status = 'CANCELLED' WHERE id = ?", id);
        !cancelled)
        return cancelled.error();
    return moved;
}

} // namespace relaydesk::message_move_tasks
