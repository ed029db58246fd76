// SPDX-License-Identifier: MIT
// BrokerService: message batches, visibility, browsing, scheduled messages
// and message move tasks.
#include "engine/broker_service_unit.h"

#include "broker/message_sender.h"
#include "store/database.h"

#include <QPointer>
#include <QThreadPool>

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
            auto results = MessageSender(unit.database(), *state.ids).sendBatch(queueName, entries, unit.now());
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
        context, std::move(reply));
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

// A file database is browsed on a pool thread through a read-only connection
// of its own (ARCHITECTURE: browse never waits for or holds up the broker
// thread's write transaction; it sees what is committed). An in-memory one
// has no second connection: it is browsed as a unit.
void BrokerService::browseQueue(std::string queueName, std::optional<std::int64_t> after, int pageSize,
                                QObject *context, Reply<BrowsePage> reply)
{
    browseQueue(std::move(queueName), after, pageSize, std::string(), context, std::move(reply));
}

void BrokerService::browseQueue(std::string queueName, std::optional<std::int64_t> after, int pageSize,
                                std::string search, QObject *context, Reply<BrowsePage> reply)
{
    const std::string &path = m_state->engine.databasePath();
    if (path != ":memory:" && !path.empty()) {
        const QPointer<QObject> target(context);
        const bool hasContext = context != nullptr;
        BrokerEngine &engine = m_state->engine;   // only used without a context (tests, on the broker thread)
        const ClockTime now = engine.clock().now();
        QThreadPool::globalInstance()->start([&engine, path, now, queueName = std::move(queueName), after, pageSize,
                                              search = std::move(search), target, hasContext,
                                              reply = std::move(reply)]() mutable {
            DatabaseOptions options;
            options.mode = OpenMode::ReadOnly;
            options.checkIntegrity = false;   // the writer checked it on open
            auto reader = Database::open(path, options);
            auto page = std::make_shared<std::optional<Result<BrowsePage>>>();
            if (!reader.ok())
                page->emplace(BrokerError(BrokerErrorCode::InternalError, reader.status().message()));
            else
                page->emplace(relaydesk::browseQueue(**reader, queueName, now, after, pageSize, search));
            auto answer = [reply = std::move(reply), page] { reply(std::move(**page)); };
            if (hasContext)
                service_unit::deliver(target, true, std::move(answer));
            else
                engine.post(std::move(answer));   // null context: replies come on the broker thread
        });
        return;
    }
    run<BrowsePage>(
        m_state,
        [queueName = std::move(queueName), after, pageSize, search = std::move(search)](
            UnitContext &unit, State &, std::vector<std::string> &) -> Result<BrowsePage> {
            return relaydesk::browseQueue(unit.database(), queueName, unit.now(), after, pageSize, search);
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

void BrokerService::startMessageMoveTask(std::string sourceArn, std::optional<std::string> destinationArn,
                                         std::optional<std::int64_t> maxNumberOfMessagesPerSecond, QObject *context,
                                         Reply<std::string> reply)
{
    run<std::string>(
        m_state,
        [sourceArn = std::move(sourceArn), destinationArn = std::move(destinationArn), maxNumberOfMessagesPerSecond](
            UnitContext &unit, State &state, std::vector<std::string> &wake) -> Result<std::string> {
            auto started = message_move_tasks::start(unit.database(), state.identity, *state.ids, sourceArn,
                                                     destinationArn, maxNumberOfMessagesPerSecond, unit.now());
            if (!started)
                return started.error();
            if (started->moved > 0) {
                for (const std::string &queue : started->changedQueues)
                    reportQueueCounts(unit, queue);
                wake = std::move(started->changedQueues);
            }
            return std::move(started->taskHandle);
        },
        context, std::move(reply));
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
        [taskHandle = std::move(taskHandle)](UnitContext &unit, State &,
                                             std::vector<std::string> &) -> Result<std::int64_t> {
            return message_move_tasks::cancel(unit.database(), taskHandle);
        },
        context, std::move(reply));
}

} // namespace relaydesk
