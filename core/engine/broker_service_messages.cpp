// SPDX-License-Identifier: MIT
// BrokerService: message batches, visibility, browsing, scheduled messages
// and message move tasks.
#include "engine/broker_service_unit.h"

#include "broker/queues/message_sender.h"
#include "broker/queues/pending_sends.h"
#include "store/database.h"

#include <algorithm>

namespace relaydesk {

using namespace service_unit;

namespace {

template <class V>
bool anySucceeded(const std::vector<BatchEntryResult<V>> &results)
{
    return std::any_of(results.begin(), results.end(), [](const auto &entry) { return entry.ok(); });
}

} // namespace

void BrokerService::sendMessageBatch(std::string queueName, std::vector<BatchEntry<SendRequest>> entries,
                                     QObject *context, BatchReply<SendReceipt> reply)
{
    using Results = std::vector<BatchEntryResult<SendReceipt>>;
    run<Results>(
        m_state,
        [queueName = std::move(queueName), entries = std::move(entries)](
            UnitContext &unit, State &state, std::vector<std::string> &wake) -> Result<Results> {
            auto results = MessageSender(unit.database(), *state.ids, &state.engine.pendingSends())
                               .sendBatch(queueName, entries, unit.now());
            const auto enqueued = results ? std::count_if(results->begin(), results->end(),
                                                          [](const auto &entry) { return entry.ok() && !entry.value->duplicate; })
                                          : 0;
            unit.countQueue(QueueCounter::Sent, queueName, enqueued);
            if (enqueued > 0) {
                reportQueueCounts(unit, queueName);
                wake.push_back(queueName);
            }
            return results;
        },
        context, std::move(reply), nullptr, UnitWrites::MayDefer);
}

void BrokerService::deleteMessageBatch(std::string queueName, std::vector<BatchEntry<std::string>> entries,
                                       QObject *context, BatchReply<bool> reply)
{
    using Results = std::vector<BatchEntryResult<bool>>;
    run<Results>(
        m_state,
        [queueName = std::move(queueName), entries = std::move(entries)](UnitContext &unit, State &state,
                                                                         std::vector<std::string> &) -> Result<Results> {
            auto results =
                MessageReceiver(unit.database(), *state.ids).deleteMessageBatch(queueName, entries, unit.now());
            if (results && anySucceeded(*results)) {
                reportQueueCounts(unit, queueName);
                unit.countQueue(QueueCounter::Deleted, queueName,
                                std::count_if(results->begin(), results->end(), [](const auto &entry) { return entry.ok(); }));
            }
            return results;
        },
        context, std::move(reply));
}

void BrokerService::changeMessageVisibility(std::string queueName, std::string receiptHandle, int visibilityTimeout,
                                            QObject *context, Reply<void> reply)
{
    run<Unit>(
        m_state,
        [queueName = std::move(queueName), receiptHandle = std::move(receiptHandle), visibilityTimeout](
            UnitContext &unit, State &state, std::vector<std::string> &wake) -> Result<Unit> {
            Status changed = MessageReceiver(unit.database(), *state.ids)
                                 .changeVisibility(queueName, receiptHandle, visibilityTimeout, unit.now());
            if (!changed)
                return changed.error();
            reportQueueCounts(unit, queueName);
            wake.push_back(queueName);
            return Unit{};
        },
        context, toStatusReply(std::move(reply)));
}

void BrokerService::changeMessageVisibilityBatch(std::string queueName,
                                                 std::vector<BatchEntry<VisibilityChange>> entries, QObject *context,
                                                 BatchReply<bool> reply)
{
    using Results = std::vector<BatchEntryResult<bool>>;
    run<Results>(
        m_state,
        [queueName = std::move(queueName), entries = std::move(entries)](
            UnitContext &unit, State &state, std::vector<std::string> &wake) -> Result<Results> {
            auto results =
                MessageReceiver(unit.database(), *state.ids).changeVisibilityBatch(queueName, entries, unit.now());
            if (results && anySucceeded(*results)) {
                reportQueueCounts(unit, queueName);
                wake.push_back(queueName);
            }
            return results;
        },
        context, std::move(reply));
}

void BrokerService::browseQueue(std::string queueName, std::optional<std::int64_t> after, int pageSize,
                                QObject *context, Reply<BrowsePage> reply)
{
    browseQueue(std::move(queueName), after, pageSize, std::string(), context, std::move(reply));
}

void BrokerService::browseQueue(std::string queueName, std::optional<std::int64_t> after, int pageSize,
                                std::string search, QObject *context, Reply<BrowsePage> reply)
{
    BrowseRequest request;
    request.after = after;
    request.pageSize = pageSize;
    request.search = std::move(search);
    browseQueue(std::move(queueName), std::move(request), context, std::move(reply));
}

void BrokerService::browseQueue(std::string queueName, BrowseRequest request, QObject *context,
                                Reply<BrowsePage> reply)
{
    readCommitted<BrowsePage>(
        m_state,
        [queueName = std::move(queueName), request = std::move(request)](Database &db, ClockTime now) {
            return relaydesk::browseQueue(db, queueName, now, request);
        },
        context, std::move(reply));
}

void BrokerService::listScheduledMessages(std::string queueName, QObject *context,
                                          Reply<std::vector<ScheduledMessage>> reply)
{
    run<std::vector<ScheduledMessage>>(
        m_state,
        [queueName = std::move(queueName)](UnitContext &unit, State &,
                                           std::vector<std::string> &) -> Result<std::vector<ScheduledMessage>> {
            return message_lifetime::scheduledMessages(unit.database(), queueName, unit.now());
        },
        context, std::move(reply));
}

void BrokerService::cancelScheduledMessage(std::string queueName, std::string messageId, QObject *context,
                                           Reply<void> reply)
{
    run<Unit>(
        m_state,
        [queueName = std::move(queueName), messageId = std::move(messageId)](UnitContext &unit, State &,
                                                                             std::vector<std::string> &) -> Result<Unit> {
            if (Status cancelled =
                    message_lifetime::cancelScheduledMessage(unit.database(), queueName, messageId, unit.now());
                !cancelled)
                return cancelled.error();
            reportQueueCounts(unit, queueName);
            return Unit{};
        },
        context, toStatusReply(std::move(reply)));
}

namespace service_unit {

namespace {

constexpr ClockDuration kMoveRetryDelay{1000};

// Reports what a chunk changed and names the queues whose receives to wake.
void reportMoveChunk(UnitContext &unit, MessageMoveChunk &chunk, std::vector<std::string> &wake)
{
    for (const std::string &queue : chunk.changedQueues)
        reportQueueCounts(unit, queue);   // the dead-letter queue always: its task's progress changed
    if (chunk.moved > 0)
        wake = chunk.changedQueues;
}

void runMoveChunk(const StatePtr &state, const std::string &taskHandle, std::optional<std::int64_t> perSecond)
{
    run<MessageMoveChunk>(
        state,
        [taskHandle](UnitContext &unit, BrokerService::State &state,
                     std::vector<std::string> &wake) -> Result<MessageMoveChunk> {
            auto chunk = message_move_tasks::moveNextChunk(unit.database(), state.identity, taskHandle, unit.now());
            if (chunk)
                reportMoveChunk(unit, *chunk, wake);
            return chunk;
        },
        nullptr,
        [state, taskHandle, perSecond](Result<MessageMoveChunk> chunk) {
            const ClockTime now = state->engine.clock().now();
            if (!chunk) // a store failure: try again a little later
                return scheduleMoveChunk(state, taskHandle, perSecond, now + kMoveRetryDelay);
            if (!chunk->ended)
                scheduleMoveChunk(state, taskHandle, perSecond, now + message_move_tasks::chunkInterval(perSecond));
        });
}

} // namespace

void scheduleMoveChunk(const StatePtr &state, const std::string &taskHandle, std::optional<std::int64_t> perSecond,
                       ClockTime due)
{
    if (state->stopped)
        return;
    ClockScheduler &scheduler = state->engine.scheduler();
    if (const auto old = state->moveChunkTimers.find(taskHandle); old != state->moveChunkTimers.end())
        scheduler.cancel(old->second);
    state->moveChunkTimers[taskHandle] = scheduler.schedule(due, [state, taskHandle, perSecond](ClockTime) {
        state->moveChunkTimers.erase(taskHandle);
        runMoveChunk(state, taskHandle, perSecond);
    });
}

void resumeMoveTasks(const StatePtr &state)
{
    run<std::vector<std::pair<std::string, std::optional<std::int64_t>>>>(
        state,
        [](UnitContext &unit, BrokerService::State &, std::vector<std::string> &) {
            return message_move_tasks::runningTasks(unit.database());
        },
        nullptr,
        [state](Result<std::vector<std::pair<std::string, std::optional<std::int64_t>>>> tasks) {
            if (!tasks)
                return;
            for (const auto &[handle, perSecond] : *tasks)
                scheduleMoveChunk(state, handle, perSecond, state->engine.clock().now());
        });
}

} // namespace service_unit

void BrokerService::startMessageMoveTask(std::string sourceArn, std::optional<std::string> destinationArn,
                                         std::optional<std::int64_t> maxNumberOfMessagesPerSecond, QObject *context,
                                         Reply<std::string> reply)
{
    StatePtr state = m_state;
    run<StartedMessageMoveTask>(
        m_state,
        [sourceArn = std::move(sourceArn), destinationArn = std::move(destinationArn), maxNumberOfMessagesPerSecond](
            UnitContext &unit, State &state, std::vector<std::string> &wake) -> Result<StartedMessageMoveTask> {
            auto started = message_move_tasks::start(unit.database(), state.identity, *state.ids, sourceArn,
                                                     destinationArn, maxNumberOfMessagesPerSecond, unit.now());
            if (started)
                reportMoveChunk(unit, started->first, wake);
            return started;
        },
        context,
        [reply = std::move(reply)](Result<StartedMessageMoveTask> started) {
            if (!started)
                return reply(started.error());
            reply(std::move(started->taskHandle));
        },
        [state, maxNumberOfMessagesPerSecond](const StartedMessageMoveTask &started) {
            if (!started.first.ended)
                scheduleMoveChunk(state, started.taskHandle, maxNumberOfMessagesPerSecond,
                                  state->engine.clock().now()
                                      + message_move_tasks::chunkInterval(maxNumberOfMessagesPerSecond));
        });
}

void BrokerService::listMessageMoveTasks(std::string sourceArn, std::optional<int> maxResults, QObject *context,
                                         Reply<std::vector<MessageMoveTask>> reply)
{
    run<std::vector<MessageMoveTask>>(
        m_state,
        [sourceArn = std::move(sourceArn), maxResults](UnitContext &unit, State &state,
                                                       std::vector<std::string> &) -> Result<std::vector<MessageMoveTask>> {
            return message_move_tasks::list(unit.database(), state.identity, sourceArn, maxResults);
        },
        context, std::move(reply));
}

void BrokerService::cancelMessageMoveTask(std::string taskHandle, QObject *context, Reply<std::int64_t> reply)
{
    run<std::int64_t>(
        m_state,
        [taskHandle](UnitContext &unit, State &,
                                             std::vector<std::string> &) -> Result<std::int64_t> {
            return message_move_tasks::cancel(unit.database(), taskHandle);
        },
        context, std::move(reply), [state = m_state, taskHandle](const std::int64_t &) {
            if (const auto timer = state->moveChunkTimers.find(taskHandle); timer != state->moveChunkTimers.end()) {
                state->engine.scheduler().cancel(timer->second);
                state->moveChunkTimers.erase(timer);
            }
        });
}

} // namespace relaydesk
