// SPDX-License-Identifier: MIT
#include "broker/queues/message_move_task.h"

#include "broker/queues/servicebus_queue.h"

#include "broker/queues/dead_letter_queue.h"
#include "broker/id_source.h"
#include "broker/queues/queue_records.h"
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
    if (!name) {
        // A Service Bus dead-letter sub-queue ("NAME/$DeadLetterQueue"): a
        // redrive target the SQS name rules refuse, moved back from all the same.
        const std::string prefix = identity.queueArn("");
        if (arn.size() <= prefix.size() || arn.substr(0, prefix.size()) != prefix
            || !isServiceBusDeadLetterQueue(arn.substr(prefix.size())))
            return missing;
        name = std::string(arn.substr(prefix.size()));
    }
    Result<std::optional<QueueRecord>> queue = queue_records::find(db, *name);
    if (!queue)
        return queue.error();
    if (!queue->has_value())
        return missing;
    return std::move(**queue);
}

// The queues whose dead letters go to `deadLetterQueue` (its redrive sources).
Result<std::vector<std::string>> sourcesOf(Database &db, const std::string &deadLetterQueue)
{
    return selectColumn<std::string>(db, "SELECT name FROM queues WHERE dead_letter_queue = ? ORDER BY name",
                                     deadLetterQueue);
}

Status endTask(Database &db, std::int64_t id, std::string_view status, const std::optional<std::string> &reason)
{
    return executeStatement(db, "UPDATE message_move_tasks SET status = ?, failure_reason = ? WHERE id = ?",
                            std::string(status), reason, id);
}

// The row of a task, as moveNextChunk needs it.
struct TaskRow {
    std::int64_t id = 0;
    std::string sourceArn;
    std::optional<std::string> destinationArn;
    std::optional<std::int64_t> perSecond;
    std::string status;
    std::int64_t moved = 0;
    std::int64_t toMove = 0;
};

Result<std::optional<TaskRow>> findTask(Database &db, std::string_view taskHandle)
{
    Result<std::optional<CachedStatement>> row = selectRow(
        db,
        "SELECT id, source_arn, destination_arn, max_per_second, status, moved, to_move FROM message_move_tasks "
        "WHERE task_handle = ?",
        taskHandle);
    if (!row)
        return row.error();
    if (!row->has_value())
        return std::optional<TaskRow>();
    CachedStatement &read = **row;
    TaskRow task{read->columnInt64(0), read->columnText(1), read->columnOptionalText(2), read->columnOptionalInt64(3),
                 read->columnText(4),  read->columnInt64(5), read->columnInt64(6)};
    row->reset();
    return std::optional<TaskRow>(std::move(task));
}

} // namespace

ClockDuration chunkInterval(std::optional<std::int64_t> maxNumberOfMessagesPerSecond)
{
    return maxNumberOfMessagesPerSecond ? ClockDuration(std::chrono::seconds(1)) : ClockDuration(0);
}

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
    Result<std::vector<std::string>> sources = sourcesOf(db, source->name);
    if (!sources)
        return sources.error();
    if (sources->empty())
        return BrokerError(Code::InvalidParameterValue, "Source queue must be configured as a Dead Letter Queue.");
    if (destinationArn) {
        Result<QueueRecord> target = queueOfArn(db, identity, *destinationArn, "DestinationArn");
        if (!target)
            return target.error();
        if (target->isFifo() != source->isFifo())
            return BrokerError(Code::InvalidParameterValue,
                               "The destination queue " + target->name + " must be of the same type (FIFO or "
                               "standard) as " + source->name + ".");
    }
    const std::string arn = identity.queueArn(source->name);
    Result<std::optional<std::int64_t>> running = selectOptionalInt64(
        db, "SELECT count(*) FROM message_move_tasks WHERE source_arn = ? AND status = 'RUNNING'", arn);
    if (!running)
        return running.error();
    if (running->value_or(0) > 0)
        return BrokerError(Code::InvalidParameterValue, "A message move task is already running on " + source->name
                                                            + "; cancel it or wait until it ends.");
    Result<std::optional<std::int64_t>> toMove = selectOptionalInt64(
        db, "SELECT count(*) FROM messages WHERE queue_id = ? AND state <> 'scheduled'", source->id);
    if (!toMove)
        return toMove.error();

    StartedMessageMoveTask started;
    started.taskHandle = ids.newMessageId();
    if (Status recorded = executeStatement(
            db,
            "INSERT INTO message_move_tasks (task_handle, source_arn, destination_arn, max_per_second, status, moved, "
            "to_move, started_ms) VALUES (?, ?, ?, ?, 'RUNNING', 0, ?, ?)",
            started.taskHandle, arn, destinationArn, maxNumberOfMessagesPerSecond, toMove->value_or(0),
            toEpochMilliseconds(now));
        !recorded)
        return recorded.error();
    Result<MessageMoveChunk> first = moveNextChunk(db, identity, started.taskHandle, now);
    if (!first)
        return first.error();
    started.first = std::move(first).value();
    return started;
}

Result<MessageMoveChunk> moveNextChunk(Database &db, const BrokerIdentity &identity, std::string_view taskHandle,
                                       ClockTime now)
{
    MessageMoveChunk chunk;
    Result<std::optional<TaskRow>> found = findTask(db, taskHandle);
    if (!found)
        return found.error();
    if (!found->has_value() || (*found)->status != "RUNNING") {
        chunk.ended = true;
        return chunk;
    }
    const TaskRow &task = **found;
    const auto fail = [&](const std::string &reason) -> Result<MessageMoveChunk> {
        if (Status ended = endTask(db, task.id, "FAILED", reason); !ended)
            return ended.error();
        chunk.ended = true;
        return chunk;
    };
    Result<QueueRecord> source = queueOfArn(db, identity, task.sourceArn, "SourceArn");
    if (!source)
        return fail("The dead-letter queue no longer exists.");
    std::optional<std::string> destination;
    if (task.destinationArn) {
        Result<QueueRecord> target = queueOfArn(db, identity, *task.destinationArn, "DestinationArn");
        if (!target)
            return fail("The destination queue no longer exists.");
        destination = target->name;
    }
    chunk.changedQueues.push_back(source->name);
    const std::int64_t limit = std::min(task.perSecond.value_or(kUnratedChunk), task.toMove - task.moved);
    MessageMoveOutcome outcome;
    if (limit > 0) {
        Result<MessageMoveOutcome> moved = moveDeadLettersBack(db, source->name, destination, limit, now);
        if (!moved && moved.error().code == Code::InternalError)
            return moved.error();
        if (!moved)   // the queue is no dead-letter queue any more, or the destination changed kind
            return fail(moved.error().message);
        outcome = *moved;
    }
    chunk.moved = outcome.moved;
    chunk.ended = outcome.moved < limit || task.moved + outcome.moved >= task.toMove;
    if (Status counted = executeStatement(db, "UPDATE message_move_tasks SET moved = moved + ? WHERE id = ?",
                                          outcome.moved, task.id);
        !counted)
        return counted.error();
    if (chunk.ended) {
        const bool failed = outcome.failed > 0;
        if (Status ended = endTask(db, task.id, failed ? "FAILED" : "COMPLETED",
                                   failed ? std::optional<std::string>(kCouldNotDetermineSource) : std::nullopt);
            !ended)
            return ended.error();
    }
    if (outcome.moved == 0)
        return chunk;
    if (destination) {
        chunk.changedQueues.push_back(*destination);
        return chunk;
    }
    Result<std::vector<std::string>> sources = sourcesOf(db, source->name);
    if (!sources)
        return sources.error();
    for (const std::string &name : *sources)
        if (std::find(chunk.changedQueues.begin(), chunk.changedQueues.end(), name) == chunk.changedQueues.end())
            chunk.changedQueues.push_back(name);
    return chunk;
}

Result<std::vector<std::pair<std::string, std::optional<std::int64_t>>>> runningTasks(Database &db)
{
    Result<CachedStatement> select =
        prepareBound(db, "SELECT task_handle, max_per_second FROM message_move_tasks WHERE status = 'RUNNING' ORDER BY id");
    if (!select)
        return select.error();
    std::vector<std::pair<std::string, std::optional<std::int64_t>>> tasks;
    const Status read = forEachRow(**select, [&](Statement &row) {
        tasks.emplace_back(row.columnText(0), row.columnOptionalInt64(1));
    });
    if (!read)
        return read.error();
    return tasks;
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
