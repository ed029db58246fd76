// SPDX-License-Identifier: MIT
#include "engine/broker_service.h"

#include "broker/id_source.h"
#include "broker/message_lifetime.h"
#include "broker/topic_lifetime.h"
#include "engine/broker_engine.h"
#include "engine/clock_scheduler.h"
#include "engine/unit_context.h"
#include "engine/waiter_registry.h"

#include <QMetaObject>
#include <QObject>
#include <QPointer>
#include <QString>

#include <charconv>
#include <optional>
#include <utility>
#include <variant>
#include <vector>

namespace relaydesk {

struct BrokerService::State {
    State(BrokerEngine &engineRef, BrokerIdentity identityValue, std::unique_ptr<IdSource> idSource)
        : engine(engineRef), identity(std::move(identityValue)), ids(std::move(idSource)) {}

    BrokerEngine &engine;
    const BrokerIdentity identity;
    const std::unique_ptr<IdSource> ids; // used inside units only (broker thread)
    // Broker thread only:
    ClockTimerId lifetimeTimer = 0;
    std::optional<ClockTime> lifetimeDue;
    bool stopped = false;
};

namespace {

using StatePtr = std::shared_ptr<BrokerService::State>;
using Unit = std::monostate; // the value of an operation that answers nothing
constexpr ClockDuration kLifetimeRetryDelay{1000};

std::string waitKey(const std::string &queueName) { return "queue:" + queueName; }

EntityChange change(EntityChange::Kind kind, EntityChange::Entity entity, const std::string &name)
{
    return {kind, entity, QString::fromStdString(name)};
}

// What an operation's unit hands to its reply on the broker thread.
template <class T>
struct Outcome {
    T value;
    std::optional<ClockTime> lifetimeDue; // earliest lifetime work after this commit
    std::vector<std::string> wake;        // queues whose waiting receives to retry
};

template <class T>
using Body = std::function<Result<T>(UnitContext &, BrokerService::State &, std::vector<std::string> &wake)>;

void deliver(const QPointer<QObject> &target, bool hasContext, std::function<void()> call)
{
    auto guarded = [call = std::move(call)] {
        try {
            call();
        } catch (...) {
            // replies are caller code: nothing they throw escapes a thread
        }
    };
    if (!hasContext) {
        guarded();
        return;
    }
    if (QObject *object = target.data())
        QMetaObject::invokeMethod(object, std::move(guarded), Qt::QueuedConnection);
}

std::optional<ClockTime> earliest(std::optional<ClockTime> a, std::optional<ClockTime> b)
{
    if (!a)
        return b;
    if (!b)
        return a;
    return std::min(*a, *b);
}

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

void runLifetime(const StatePtr &state);

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

// Any thread: runs `body` as a unit; on the broker thread after the commit,
// moves the lifetime timer, wakes the receives of `wake`, then replies.
template <class T>
void run(const StatePtr &state, Body<T> body, QObject *context, BrokerService::Reply<T> reply)
{
    using Out = Outcome<T>;
    const QPointer<QObject> target(context);
    const bool hasContext = context != nullptr;
    state->engine.execute(
        [state, body = std::move(body)](UnitContext &unit) -> Result<Out> {
            std::vector<std::string> wake;
            Result<T> value = body(unit, *state, wake);
            if (!value)
                return value.error();
            auto due = lifetimeDue(unit.database(), unit.now());
            if (!due)
                return due.error();
            return Out{std::move(value).value(), *due, std::move(wake)};
        },
        nullptr,
        [state, target, hasContext, reply = std::move(reply)](Result<Out> result) {
            auto answer = std::make_shared<std::optional<Result<T>>>();
            if (result) {
                lowerLifetimeTimer(state, result->lifetimeDue);
                for (const std::string &queue : result->wake)
                    state->engine.waiters().notify(waitKey(queue));
                answer->emplace(std::move(result).value().value);
            } else {
                answer->emplace(result.error());
            }
            deliver(target, hasContext, [reply, answer] { reply(std::move(**answer)); });
        });
}

BrokerService::Reply<Unit> toStatusReply(BrokerService::Reply<void> reply)
{
    return [reply = std::move(reply)](Result<Unit> result) { reply(result ? Status() : Status(result.error())); };
}

Result<std::vector<std::string>> allQueueNames(Database &db, const BrokerIdentity &identity)
{
    auto urls = QueueCatalog(db, identity).listQueueUrls("");
    if (!urls)
        return urls.error();
    std::vector<std::string> names;
    for (const std::string &url : *urls) {
        if (auto name = identity.queueNameFromUrl(url))
            names.push_back(std::move(name).value());
    }
    return names;
}

// Expiry (with dead-lettering), idle deletion and deduplication clean-up.
Result<Unit> lifetimeWork(UnitContext &unit, BrokerService::State &state, std::vector<std::string> &wake)
{
    Database &db = unit.database();
    const ClockTime now = unit.now();
    auto expired = message_lifetime::applyExpiryEverywhere(db, now);
    if (!expired)
        return expired.error();
    auto idleQueues = message_lifetime::deleteIdleQueues(db, now);
    if (!idleQueues)
        return idleQueues.error();
    auto idleTopics = topic_lifetime::deleteIdleTopics(db, now);
    if (!idleTopics)
        return idleTopics.error();
    auto idleSubscriptions = topic_lifetime::deleteIdleSubscriptions(db, now);
    if (!idleSubscriptions)
        return idleSubscriptions.error();
    if (auto forgotten = message_lifetime::forgetExpiredDeduplicationIds(db, now); !forgotten)
        return forgotten.error();
    if (auto forgotten = topic_lifetime::forgetExpiredDeduplicationIds(db, now); !forgotten)
        return forgotten.error();
    if (auto forgotten = topic_lifetime::forgetUndeliverablePublishedMessages(db); !forgotten)
        return forgotten.error();

    if (*expired > 0) { // moved to dead-letter queues or deleted: which ones is not reported, so all
        auto names = allQueueNames(db, state.identity);
        if (!names)
            return names.error();
        for (const std::string &name : *names)
            unit.reportChange(change(EntityChange::Kind::CountsChanged, EntityChange::Entity::Queue, name));
        wake = std::move(names).value();
    }
    for (const std::string &name : *idleQueues)
        unit.reportChange(change(EntityChange::Kind::Deleted, EntityChange::Entity::Queue, name));
    for (const std::string &name : *idleTopics)
        unit.reportChange(change(EntityChange::Kind::Deleted, EntityChange::Entity::Topic, name));
    return Unit{};
}

void runLifetime(const StatePtr &state)
{
    if (state->stopped)
        return;
    run<Unit>(state, lifetimeWork, nullptr, [state](Result<Unit> result) {
        if (!result) // a store failure: try again a little later
            lowerLifetimeTimer(state, state->engine.clock().now() + kLifetimeRetryDelay);
    });
}

std::int64_t subscriptionCount(Database &db, const BrokerIdentity &identity, const std::string &topicName)
{
    auto attributes = TopicCatalog(db, identity).topicAttributes(topicName);
    if (!attributes)
        return -1;
    std::int64_t total = 0;
    for (const char *name : {"SubscriptionsConfirmed", "SubscriptionsPending"}) {
        auto found = attributes->find(name);
        std::int64_t count = 0;
        if (found != attributes->end())
            std::from_chars(found->second.data(), found->second.data() + found->second.size(), count);
        total += count;
    }
    return total;
}

// The queues the sqs subscriptions of a topic name (a superset of where a
// publish fanned out to: filter policies are not evaluated again).
Result<std::vector<std::string>> sqsQueuesOf(Database &db, BrokerService::State &state, const std::string &topicName)
{
    std::vector<std::string> queues;
    SubscriptionCatalog subscriptions(db, state.identity, *state.ids);
    std::string token;
    do {
        auto page = subscriptions.listSubscriptions(topicName, token);
        if (!page)
            return page.error();
        for (const SubscriptionSummary &summary : page->subscriptions) {
            if (summary.protocol != "sqs")
                continue;
            if (auto queue = state.identity.queueNameFromArn(summary.endpoint))
                queues.push_back(std::move(queue).value());
        }
        token = page->nextToken;
    } while (!token.empty());
    return queues;
}

// A long-polling receive in progress (broker thread after the first attempt).
struct Poll {
    std::string queueName;
    ReceiveRequest request;
    std::optional<ClockTime> started; // clock time of the first attempt
    std::optional<Result<ReceiveResult>> answer;
    QPointer<QObject> target;
    bool hasContext = false;
    BrokerService::Reply<ReceiveResult> reply;

    void finish(Result<ReceiveResult> result)
    {
        auto shared = std::make_shared<Result<ReceiveResult>>(std::move(result));
        deliver(target, hasContext, [reply = reply, shared] { reply(std::move(*shared)); });
    }
};

Body<ReceiveResult> receiveBody(const std::shared_ptr<Poll> &poll)
{
    return [poll](UnitContext &unit, BrokerService::State &state, std::vector<std::string> &) -> Result<ReceiveResult> {
        if (!poll->started)
            poll->started = unit.now();
        auto received = MessageReceiver(unit.database(), *state.ids).receive(poll->queueName, poll->request, unit.now());
        if (received && !received->messages.empty())
            unit.reportChange(change(EntityChange::Kind::CountsChanged, EntityChange::Entity::Queue, poll->queueName));
        return received;
    };
}

void retryReceive(const StatePtr &state, const std::shared_ptr<Poll> &poll, WaiterRegistry::Finished finished)
{
    run<ReceiveResult>(state, receiveBody(poll), nullptr, [state, poll, finished](Result<ReceiveResult> result) {
        if (!result || !result->messages.empty()) {
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
    state->engine.waiters().waitAsync(
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

} // namespace

BrokerService::BrokerService(BrokerEngine &engine, BrokerIdentity identity, std::unique_ptr<IdSource> ids)
    : m_state(std::make_shared<State>(engine, std::move(identity),
                                      ids ? std::move(ids) : std::make_unique<RandomIdSource>()))
{
    // Arms the lifetime timer for what the database already holds.
    run<Unit>(m_state, [](UnitContext &, State &, std::vector<std::string> &) -> Result<Unit> { return Unit{}; },
              nullptr, [](Result<Unit>) {});
}

BrokerService::~BrokerService()
{
    StatePtr state = m_state;
    state->engine.postAndWait([state] {
        state->stopped = true;
        if (state->lifetimeTimer != 0)
            state->engine.scheduler().cancel(state->lifetimeTimer);
        state->lifetimeTimer = 0;
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

void BrokerService::deleteQueue(std::string name, QObject *context, Reply<void> reply)
{
    run<Unit>(
        m_state,
        [name = std::move(name)](UnitContext &unit, State &state, std::vector<std::string> &wake) -> Result<Unit> {
            if (Status deleted = QueueCatalog(unit.database(), state.identity).deleteQueue(name); !deleted)
                return deleted.error();
            unit.reportChange(change(EntityChange::Kind::Deleted, EntityChange::Entity::Queue, name));
            wake.push_back(name); // its waiting receives find the queue gone
            return Unit{};
        },
        context, toStatusReply(std::move(reply)));
}

void BrokerService::sendMessage(std::string queueName, SendRequest request, QObject *context,
                                Reply<SendReceipt> reply)
{
    run<SendReceipt>(
        m_state,
        [queueName = std::move(queueName), request = std::move(request)](
            UnitContext &unit, State &state, std::vector<std::string> &wake) -> Result<SendReceipt> {
            auto receipt = MessageSender(unit.database(), *state.ids).send(queueName, request, unit.now());
            if (receipt && !receipt->duplicate) {
                unit.reportChange(change(EntityChange::Kind::CountsChanged, EntityChange::Entity::Queue, queueName));
                wake.push_back(queueName);
            }
            return receipt;
        },
        context, std::move(reply));
}

void BrokerService::receiveMessage(std::string queueName, ReceiveRequest request, QObject *context,
                                   Reply<ReceiveResult> reply)
{
    auto poll = std::make_shared<Poll>();
    poll->queueName = std::move(queueName);
    poll->request = std::move(request);
    poll->target = context;
    poll->hasContext = context != nullptr;
    poll->reply = std::move(reply);
    StatePtr state = m_state;
    run<ReceiveResult>(state, receiveBody(poll), nullptr, [state, poll](Result<ReceiveResult> result) {
        const int wait = poll->request.waitTimeSeconds.value_or(0);
        if (!result || !result->messages.empty() || wait <= 0 || state->stopped) {
            poll->finish(std::move(result));
            return;
        }
        startWaiting(state, poll, *result);
    });
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
            return Unit{};
        },
        context, toStatusReply(std::move(reply)));
}

void BrokerService::createTopic(std::string name, AttributeMap attributes, TopicTags tags, QObject *context,
                                Reply<std::string> reply)
{
    run<std::string>(
        m_state,
        [name = std::move(name), attributes = std::move(attributes), tags = std::move(tags)](
            UnitContext &unit, State &state, std::vector<std::string> &) -> Result<std::string> {
            TopicCatalog catalog(unit.database(), state.identity);
            const bool existed = catalog.topicAttributes(name).ok();
            auto arn = catalog.createTopic(name, attributes, tags, unit.now());
            if (arn && !existed)
                unit.reportChange(change(EntityChange::Kind::Created, EntityChange::Entity::Topic, name));
            return arn;
        },
        context, std::move(reply));
}

void BrokerService::subscribe(std::string topicName, std::string protocol, std::string endpoint,
                              AttributeMap attributes, bool autoConfirm, QObject *context,
                              Reply<SubscribeReceipt> reply)
{
    run<SubscribeReceipt>(
        m_state,
        [topicName = std::move(topicName), protocol = std::move(protocol), endpoint = std::move(endpoint),
         attributes = std::move(attributes),
         autoConfirm](UnitContext &unit, State &state, std::vector<std::string> &) -> Result<SubscribeReceipt> {
            const std::int64_t before = subscriptionCount(unit.database(), state.identity, topicName);
            auto receipt = SubscriptionCatalog(unit.database(), state.identity, *state.ids)
                               .subscribe(topicName, protocol, endpoint, attributes, autoConfirm, unit.now());
            if (receipt && subscriptionCount(unit.database(), state.identity, topicName) != before)
                unit.reportChange(
                    change(EntityChange::Kind::Created, EntityChange::Entity::Subscription, receipt->subscriptionArn));
            return receipt;
        },
        context, std::move(reply));
}

void BrokerService::publish(std::string topicName, PublishRequest request, QObject *context,
                            Reply<PublishReceipt> reply)
{
    run<PublishReceipt>(
        m_state,
        [topicName = std::move(topicName), request = std::move(request)](
            UnitContext &unit, State &state, std::vector<std::string> &wake) -> Result<PublishReceipt> {
            auto receipt = TopicPublisher(unit.database(), state.identity, *state.ids)
                               .publish(topicName, request, unit.now());
            if (!receipt || receipt->duplicate)
                return receipt;
            auto queues = sqsQueuesOf(unit.database(), state, topicName);
            if (!queues)
                return queues.error();
            for (const std::string &queue : *queues)
                unit.reportChange(change(EntityChange::Kind::CountsChanged, EntityChange::Entity::Queue, queue));
            wake = std::move(queues).value();
            return receipt;
        },
        context, std::move(reply));
}

} // namespace relaydesk
