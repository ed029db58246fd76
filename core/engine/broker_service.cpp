// SPDX-License-Identifier: MIT
#include "engine/broker_service.h"

#include "broker/queues/bulk_removal.h"
#include "broker/queues/message_lifetime.h"
#include "broker/queues/pending_sends.h"
#include "broker/topics/topic_lifetime.h"
#include "engine/broker_service_unit.h"
#include "engine/sanitizer_handoff.h"

#include <QThreadPool>

#include <algorithm>

namespace relaydesk {

namespace service_unit {

constexpr ClockDuration kLifetimeRetryDelay{1000};

void deliver(const ReplyTarget &target, std::function<void()> call)
{
    auto guarded = [call = std::move(call)] {
        try {
            call();
        } catch (...) {
            // replies are caller code: nothing they throw escapes a thread
        }
    };
    target.post(std::move(guarded));
}

void startOnPool(std::function<void()> work)
{
    sanitizer_handoff::startOnPool(*QThreadPool::globalInstance(), std::move(work));
}

namespace {

std::optional<ClockTime> earliest(std::optional<ClockTime> a, std::optional<ClockTime> b)
{
    if (!a)
        return b;
    if (!b)
        return a;
    return std::min(*a, *b);
}

void runLifetime(const StatePtr &state);

} // namespace

Result<std::optional<ClockTime>> lifetimeDue(Database &db, ClockTime now)
{
    auto queues = message_lifetime::dueTimes(db, now);
    if (!queues)
        return queues.error();
    auto topics = topic_lifetime::dueTimes(db);
    if (!topics)
        return topics.error();
    return earliest(earliest(queues->nextExpiry, queues->nextAutoDelete),
                    earliest(topics->nextAutoDelete, topics->nextDedupExpiry));
}

// Broker thread: keeps the one lifetime entry at the earliest due time
// reported. It is only ever moved earlier; when it fires, the lifetime unit
// reports the real next time (a due time that went away just fires early).
void lowerLifetimeTimer(const StatePtr &state, std::optional<ClockTime> due)
{
    if (!due || state->stopped || (state->lifetimeDue && *state->lifetimeDue <= *due))
        return;
    ClockScheduler &scheduler = state->engine.scheduler();
    if (state->lifetimeTimer != 0)
        scheduler.cancel(state->lifetimeTimer);
    state->lifetimeDue = due;
    state->lifetimeTimer = scheduler.schedule(*due, [state](ClockTime) {
        state->lifetimeTimer = 0;
        state->lifetimeDue.reset();
        runLifetime(state);
    });
}

void requestLifetimeCheck(const StatePtr &state)
{
    if (state->lifetimeCheckQueued || state->stopped)
        return;
    state->lifetimeCheckQueued = true;
    state->engine.execute(
        [](Database &db, ClockTime now) { return lifetimeDue(db, now); }, nullptr,
        [state](Result<std::optional<ClockTime>> due) {
            state->lifetimeCheckQueued = false;
            if (due)
                lowerLifetimeTimer(state, *due);
        });
}

namespace {

// Expiry (with dead-lettering), idle deletion and deduplication clean-up,
// each bulk removal a chunk (broker/queues/bulk_removal.h). Answers whether
// a chunk was full: then more is due now, in a unit of its own.
Result<bool> lifetimeWork(UnitContext &unit, BrokerService::State &state, std::vector<std::string> &wake)
{
    Database &db = unit.database();
    const ClockTime now = unit.now();
    auto expired = message_lifetime::expireEverywhere(db, now);
    if (!expired)
        return expired.error();
    bool more = expired->more;
    auto idleQueues = message_lifetime::deleteIdleQueues(db, now, &more);
    if (!idleQueues)
        return idleQueues.error();
    auto idleTopics = topic_lifetime::deleteIdleTopics(db, now);
    if (!idleTopics)
        return idleTopics.error();
    auto idleSubscriptions = topic_lifetime::deleteIdleSubscriptionsOfTopics(db, now);
    if (!idleSubscriptions)
        return idleSubscriptions.error();
    if (auto forgotten = message_lifetime::forgetExpiredDeduplicationIds(db, now); !forgotten)
        return forgotten.error();
    if (auto forgotten = topic_lifetime::forgetExpiredDeduplicationIds(db, now); !forgotten)
        return forgotten.error();
    if (auto forgotten = topic_lifetime::forgetUndeliverablePublishedMessages(db); !forgotten)
        return forgotten.error();
    else if (*forgotten >= bulk_removal::kBulkChunkRows)
        more = true;

    for (const std::string &name : expired->changedQueues) // lost an expired message, or gained a dead letter
        reportQueueCounts(unit, name);
    wake = std::move(expired->changedQueues);
    for (const std::string &name : *idleQueues) {
        unit.reportChange(change(EntityChange::Kind::Deleted, EntityChange::Entity::Queue, name));
        wake.push_back(name); // their waiting receives find the queue gone
    }
    for (const std::string &name : *idleTopics)
        unit.reportChange(change(EntityChange::Kind::Deleted, EntityChange::Entity::Topic, name));
    for (const topic_lifetime::IdleSubscription &idle : *idleSubscriptions)
        unit.reportChange(change(EntityChange::Kind::Deleted, EntityChange::Entity::Subscription,
                                 state.identity.subscriptionArn(idle.topicName, idle.subscriptionId)));
    return more;
}

void runLifetime(const StatePtr &state)
{
    if (state->stopped)
        return;
    run<bool>(state, lifetimeWork, nullptr, [state](Result<bool> result) {
        if (!result) // a store failure: try again a little later
            lowerLifetimeTimer(state, state->engine.clock().now() + kLifetimeRetryDelay);
        else if (*result) // the next chunk, after the units already waiting
            lowerLifetimeTimer(state, state->engine.clock().now());
    });
}

// A long-polling receive in progress (broker thread after the first attempt).
struct Poll {
    std::string queueName;
    ReceiveRequest request;
    std::optional<ClockTime> started; // clock time of the first attempt
    std::optional<Result<ReceiveResult>> answer;
    ReplyTarget target;
    BrokerService::Reply<ReceiveResult> reply;
    WaiterId waiter = 0;                   // broker thread: set while it waits
    QMetaObject::Connection contextGone;   // the context's destroyed() → withdraw()

    // The reply context is gone (the client's connection closed): the receive
    // is withdrawn and takes nothing more.
    bool withdrawn() const { return target.gone(); }

    void finish(Result<ReceiveResult> result)
    {
        QObject::disconnect(contextGone);
        auto shared = std::make_shared<Result<ReceiveResult>>(std::move(result));
        deliver(target, [reply = reply, shared] { reply(std::move(*shared)); });
    }
};

Body<ReceiveResult> receiveBody(const std::shared_ptr<Poll> &poll)
{
    return [poll](UnitContext &unit, BrokerService::State &state,
                  std::vector<std::string> &wake) -> Result<ReceiveResult> {
        if (!poll->started)
            poll->started = unit.now();
        if (poll->withdrawn())
            return ReceiveResult{};
        auto received = MessageReceiver(unit.database(), *state.ids).receive(poll->queueName, poll->request, unit.now());
        if (!received)
            return received;
        if (!received->messages.empty() || !received->deadLetterQueue.empty())
            reportQueueCounts(unit, poll->queueName);
        unit.countQueue(QueueCounter::Received, poll->queueName, std::int64_t(received->messages.size()));
        if (!received->deadLetterQueue.empty()) {
            reportQueueCounts(unit, received->deadLetterQueue);
            wake.push_back(received->deadLetterQueue);
        }
        // A receive is use of the sqs subscriptions delivering here (docs/behaviour.md §6).
        if (Status used = topic_lifetime::markQueueSubscriptionsUsed(unit.database(),
                                                                     state.identity.queueArn(poll->queueName), unit.now());
            !used)
            return used.error();
        return received;
    };
}

void retryReceive(const StatePtr &state, const std::shared_ptr<Poll> &poll, WaiterRegistry::Finished finished)
{
    run<ReceiveResult>(state, receiveBody(poll), nullptr, [state, poll, finished](Result<ReceiveResult> result) {
        if (!result || !result->messages.empty() || poll->withdrawn()) {
            poll->answer.emplace(std::move(result));
            finished(true);
            return;
        }
        if (result->nextVisibleAt && !state->stopped) { // wake again when the next message shows
            const std::string key = waitKey(poll->queueName);
            state->engine.scheduler().schedule(*result->nextVisibleAt,
                                               [state, key](ClockTime) { state->engine.waiters().notify(key); });
        }
        finished(false);
    });
}

void startWaiting(const StatePtr &state, const std::shared_ptr<Poll> &poll, const ReceiveResult &first)
{
    const ClockTime deadline = *poll->started + std::chrono::seconds(*poll->request.waitTimeSeconds);
    poll->waiter = state->engine.waiters().waitAsync(
        waitKey(poll->queueName), deadline,
        [state, poll](WaiterRegistry::Finished finished) { retryReceive(state, poll, std::move(finished)); },
        [poll](WaitOutcome outcome) {
            switch (outcome) {
            case WaitOutcome::Satisfied:
                poll->finish(poll->answer ? std::move(*poll->answer) : Result<ReceiveResult>(ReceiveResult{}));
                return;
            case WaitOutcome::DeadlineReached:
                poll->finish(ReceiveResult{});
                return;
            case WaitOutcome::Cancelled:
                poll->finish(BrokerError(BrokerErrorCode::InternalError, "the receive was cancelled"));
                return;
            }
        },
        first.nextVisibleAt);
}

// Any thread: when the receive's context goes (the client disconnected), a
// receive that waits ends at once, without an answer, and no longer counts
// as waiting (docs/behaviour.md §5.1). One that has not started waiting yet
// sees the context gone at its next step.
void withdrawWhenContextGoes(const StatePtr &state, const std::shared_ptr<Poll> &poll, QObject *context)
{
    const std::weak_ptr<BrokerService::State> weakState = state;
    const std::weak_ptr<Poll> weakPoll = poll;
    poll->contextGone = QObject::connect(context, &QObject::destroyed, [weakState, weakPoll] {
        if (const StatePtr alive = weakState.lock()) {
            alive->engine.post([weakState, weakPoll] {
                const StatePtr stillAlive = weakState.lock();
                const std::shared_ptr<Poll> gone = weakPoll.lock();
                if (stillAlive && gone && gone->waiter != 0)
                    stillAlive->engine.waiters().cancel(gone->waiter); // its reply goes nowhere
            });
        }
    });
}

} // namespace

} // namespace service_unit

using namespace service_unit;

BrokerService::BrokerService(BrokerEngine &engine, BrokerIdentity identity, std::unique_ptr<IdSource> ids)
    : m_state(std::make_shared<State>(engine, std::move(identity),
                                      ids ? std::move(ids) : std::make_unique<RandomIdSource>()))
{
    // Arms the lifetime timer for what the database already holds.
    run<Unit>(m_state, [](UnitContext &, State &, std::vector<std::string> &) -> Result<Unit> { return Unit{}; },
              nullptr, [](Result<Unit>) {});
    resumeMoveTasks(m_state);
    resumePurges(m_state);
}

BrokerService::~BrokerService()
{
    StatePtr state = m_state;
    state->engine.postAndWait([state] {
        state->stopped = true;
        if (state->lifetimeTimer != 0)
            state->engine.scheduler().cancel(state->lifetimeTimer);
        state->lifetimeTimer = 0;
        for (const auto &[handle, timer] : state->moveChunkTimers)
            state->engine.scheduler().cancel(timer);
        state->moveChunkTimers.clear();
    });
}

void BrokerService::createQueue(std::string name, AttributeMap attributes, QueueTags tags, QObject *context,
                                Reply<std::string> reply)
{
    run<std::string>(
        m_state,
        [name = std::move(name), attributes = std::move(attributes), tags = std::move(tags)](
            UnitContext &unit, State &state, std::vector<std::string> &) -> Result<std::string> {
            QueueCatalog catalog(unit.database(), state.identity);
            const bool existed = catalog.queueUrl(name).ok();
            auto url = catalog.createQueue(name, attributes, tags, unit.now());
            if (url && !existed)
                unit.reportChange(change(EntityChange::Kind::Created, EntityChange::Entity::Queue, name));
            return url;
        },
        context, std::move(reply));
}

void BrokerService::emptyQueuesInChunks(QueueLister queues, std::function<void(Status)> then)
{
    runChunks(
        m_state,
        [queues = std::move(queues)](UnitContext &unit, State &, std::vector<std::string> &) -> Result<bool> {
            Result<std::vector<std::string>> names = queues(unit.database());
            if (!names)
                return names.error();
            Result<bool> more = bulk_removal::removeMessagesOfQueues(unit.database(), *names);
            if (more)
                for (const std::string &name : *names)
                    reportQueueCounts(unit, name);
            return more;
        },
        std::move(then));
}

// The queue's messages go first, in chunks; then the queue in a small unit.
void BrokerService::deleteQueue(std::string name, QObject *context, Reply<void> reply)
{
    const ReplyTarget target(context);
    emptyQueuesInChunks(
        [name](Database &) { return Result<std::vector<std::string>>(std::vector<std::string>{name}); },
        [state = m_state, name, target, reply = std::move(reply)](Status emptied) {
            if (!emptied)
                return deliver(target, [reply, emptied] { reply(emptied); });
            run<Unit>(
                state,
                [name](UnitContext &unit, State &s, std::vector<std::string> &wake) -> Result<Unit> {
                    if (Status deleted = QueueCatalog(unit.database(), s.identity).deleteQueue(name); !deleted)
                        return deleted.error();
                    unit.reportChange(change(EntityChange::Kind::Deleted, EntityChange::Entity::Queue, name));
                    wake.push_back(name); // its waiting receives find the queue gone
                    return Unit{};
                },
                nullptr, replyTo(target, reply));
        });
}

void BrokerService::sendMessage(std::string queueName, SendRequest request, QObject *context,
                                Reply<SendReceipt> reply)
{
    run<SendReceipt>(
        m_state,
        [queueName = std::move(queueName), request = std::move(request)](
            UnitContext &unit, State &state, std::vector<std::string> &wake) -> Result<SendReceipt> {
            auto receipt = MessageSender(unit.database(), *state.ids, &state.engine.pendingSends())
                               .send(queueName, request, unit.now());
            if (receipt && !receipt->duplicate) {
                unit.reportChange(change(EntityChange::Kind::CountsChanged, EntityChange::Entity::Queue, queueName));
                unit.countQueue(QueueCounter::Sent, queueName);
                wake.push_back(queueName);
            }
            return receipt;
        },
        context, std::move(reply), nullptr, UnitWrites::MayDefer);
}

void BrokerService::receiveMessage(std::string queueName, ReceiveRequest request, QObject *context,
                                   Reply<ReceiveResult> reply)
{
    auto poll = std::make_shared<Poll>();
    poll->queueName = std::move(queueName);
    poll->request = std::move(request);
    poll->target = ReplyTarget(context);
    poll->reply = std::move(reply);
    StatePtr state = m_state;
    if (context)
        withdrawWhenContextGoes(state, poll, context);
    run<ReceiveResult>(state, receiveBody(poll), nullptr, [state, poll](Result<ReceiveResult> result) {
        const int wait = poll->request.waitTimeSeconds.value_or(0);
        if (!result || !result->messages.empty() || wait <= 0 || state->stopped || poll->withdrawn()) {
            poll->finish(std::move(result));
            return;
        }
        startWaiting(state, poll, *result);
    });
}

void BrokerService::waitingReceives(std::string queueName, QObject *context, Reply<std::size_t> reply)
{
    run<std::size_t>(
        m_state,
        [queueName = std::move(queueName)](UnitContext &unit, State &state,
                                           std::vector<std::string> &) -> Result<std::size_t> {
            if (auto url = QueueCatalog(unit.database(), state.identity).queueUrl(queueName); !url)
                return url.error();
            return state.engine.waiters().waitingCount(waitKey(queueName)); // the unit runs on the broker thread
        },
        context, std::move(reply));
}

void BrokerService::deleteMessage(std::string queueName, std::string receiptHandle, QObject *context,
                                  Reply<void> reply)
{
    run<Unit>(
        m_state,
        [queueName = std::move(queueName), receiptHandle = std::move(receiptHandle)](
            UnitContext &unit, State &state, std::vector<std::string> &) -> Result<Unit> {
            Status deleted =
                MessageReceiver(unit.database(), *state.ids).deleteMessage(queueName, receiptHandle, unit.now());
            if (!deleted)
                return deleted.error();
            unit.reportChange(change(EntityChange::Kind::CountsChanged, EntityChange::Entity::Queue, queueName));
            unit.countQueue(QueueCounter::Deleted, queueName);
            return Unit{};
        },
        context, toStatusReply(std::move(reply)));
}

} // namespace relaydesk
