// SPDX-License-Identifier: MIT
// BrokerService: topics, subscriptions and publishing.
#include "engine/broker_service_unit.h"

#include "broker/deliveries/pending_delivery_outcome.h"
#include "broker/deliveries/attempt_log.h"
#include "broker/queues/bulk_removal.h"
#include "broker/topics/topic_records.h"
#include "broker/topics/subscription_records.h"
#include "engine/delivery_worker.h"

#include <algorithm>
#include <charconv>

namespace relaydesk {

using namespace service_unit;

namespace {

// One message published, and sent into each queue its fan-out enqueued it into.
void countPublished(UnitContext &unit, const std::string &topicName, const PublishReceipt &receipt)
{
    unit.countTopic(TopicCounter::Published, topicName);
    for (const std::string &queue : receipt.enqueuedInto)
        unit.countQueue(QueueCounter::Sent, queue);
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
// AttemptsLogged for the subscriptions with rows after `before` (a fan-out
// an SQS queue refused is logged by the publish itself).
Status reportAttemptsSince(UnitContext &unit, std::int64_t before)
{
    Result<std::vector<std::string>> arns = attempt_log::subscriptionsLoggedAfter(unit.database(), before);
    if (!arns)
        return arns.error();
    for (const std::string &arn : *arns)
        unit.reportChange(change(EntityChange::Kind::AttemptsLogged, EntityChange::Entity::Subscription, arn));
    return {};
}

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

// A topic change that reports Changed (topic `name`) when it succeeds.
template <class Change>
void changeTopic(const StatePtr &state, std::string name, Change apply, QObject *context,
                 BrokerService::Reply<void> reply)
{
    run<Unit>(
        state,
        [name = std::move(name), apply = std::move(apply)](UnitContext &unit, BrokerService::State &s,
                                                           std::vector<std::string> &) -> Result<Unit> {
            TopicCatalog catalog(unit.database(), s.identity);
            if (Status done = apply(catalog, name, unit.now()); !done)
                return done.error();
            unit.reportChange(change(EntityChange::Kind::Changed, EntityChange::Entity::Topic, name));
            return Unit{};
        },
        context, toStatusReply(std::move(reply)));
}

// A read-only call as a unit; `read(UnitContext &, State &)`.
template <class T, class Read>
void readOnly(const StatePtr &state, Read read, QObject *context, BrokerService::Reply<T> reply)
{
    run<T>(
        state,
        [read = std::move(read)](UnitContext &unit, BrokerService::State &s, std::vector<std::string> &) -> Result<T> {
            return read(unit, s);
        },
        context, std::move(reply));
}

// After a commit that created pending deliveries: wakes the worker, if any.
template <class T>
std::function<void(const T &)> wakeWorker(const StatePtr &state)
{
    return [state](const T &) {
        if (DeliveryWorker *worker = state->worker.load())
            worker->wake();
    };
}

std::string lastArnPart(const std::string &arn)
{
    const auto colon = arn.rfind(':');
    return colon == std::string::npos ? arn : arn.substr(colon + 1);
}

// With a worker: queues the SubscriptionConfirmation of a new pending
// http/https subscription (in the subscribe unit).
Status queueConfirmationOf(UnitContext &unit, BrokerService::State &state, const SubscribeReceipt &receipt)
{
    if (!receipt.pendingConfirmation || state.worker.load() == nullptr)
        return {};
    auto record = subscription_records::findByUuid(unit.database(), lastArnPart(receipt.subscriptionArn));
    if (!record)
        return record.error();
    if (!*record || (*record)->protocol == EndpointProtocol::Sqs)
        return {};
    auto queued = pending_delivery_outcome::queueConfirmation(unit.database(), state.identity, *state.ids,
                                                              (*record)->id, "SubscriptionConfirmation", unit.now());
    if (!queued)
        return queued.error();
    return {};
}

} // namespace

void BrokerService::setDeliveryWorker(DeliveryWorker *worker) { m_state->worker.store(worker); }

void BrokerService::setEnvelopeSigner(EnvelopeSigner sign) { m_state->sign = std::move(sign); }

const EnvelopeSigner &BrokerService::envelopeSigner() const { return m_state->sign; }

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
            if (receipt && subscriptionCount(unit.database(), state.identity, topicName) != before) {
                unit.reportChange(
                    change(EntityChange::Kind::Created, EntityChange::Entity::Subscription, receipt->subscriptionArn));
                if (Status queued = queueConfirmationOf(unit, state, *receipt); !queued)
                    return queued.error();
            }
            return receipt;
        },
        context, std::move(reply), wakeWorker<SubscribeReceipt>(m_state));
}

void BrokerService::publish(std::string topicName, PublishRequest request, QObject *context,
                            Reply<PublishReceipt> reply)
{
    run<PublishReceipt>(
        m_state,
        [topicName = std::move(topicName), request = std::move(request)](
            UnitContext &unit, State &state, std::vector<std::string> &wake) -> Result<PublishReceipt> {
            Result<std::int64_t> logged = attempt_log::newestId(unit.database());
            if (!logged)
                return logged.error();
            auto receipt = TopicPublisher(unit.database(), state.identity, *state.ids, &state.sign)
                               .publish(topicName, request, unit.now());
            if (!receipt || receipt->duplicate)
                return receipt;
            if (Status reported = reportAttemptsSince(unit, *logged); !reported)
                return reported.error();
            countPublished(unit, topicName, *receipt);
            auto queues = sqsQueuesOf(unit.database(), state, topicName);
            if (!queues)
                return queues.error();
            for (const std::string &queue : *queues)
                reportQueueCounts(unit, queue);
            wake = std::move(queues).value();
            return receipt;
        },
        context, std::move(reply), wakeWorker<PublishReceipt>(m_state));
}


void BrokerService::publishBatch(std::string topicName, std::vector<BatchEntry<PublishRequest>> entries,
                                 QObject *context, BatchReply<PublishReceipt> reply)
{
    using Results = std::vector<BatchEntryResult<PublishReceipt>>;
    run<Results>(
        m_state,
        [topicName = std::move(topicName), entries = std::move(entries)](
            UnitContext &unit, State &state, std::vector<std::string> &wake) -> Result<Results> {
            Result<std::int64_t> logged = attempt_log::newestId(unit.database());
            if (!logged)
                return logged.error();
            auto results = TopicPublisher(unit.database(), state.identity, *state.ids, &state.sign)
                               .publishBatch(topicName, entries, unit.now());
            if (!results || std::none_of(results->begin(), results->end(), [](const auto &entry) {
                    return entry.ok() && !entry.value->duplicate;
                }))
                return results;
            if (Status reported = reportAttemptsSince(unit, *logged); !reported)
                return reported.error();
            for (const auto &entry : *results)
                if (entry.ok() && !entry.value->duplicate)
                    countPublished(unit, topicName, *entry.value);
            auto queues = sqsQueuesOf(unit.database(), state, topicName);
            if (!queues)
                return queues.error();
            for (const std::string &queue : *queues)
                reportQueueCounts(unit, queue);
            wake = std::move(queues).value();
            return results;
        },
        context, std::move(reply), wakeWorker<Results>(m_state));
}

namespace {

// Runs `then` on the broker thread after the pending deliveries of the
// subscriptions `ids(db)` lists (read again for each chunk) went in chunks of
// their own (broker/queues/bulk_removal.h), so that the deletion's own unit
// is small.
using SubscriptionIds = std::function<Result<std::vector<std::int64_t>>(Database &)>;
void removePendingInChunks(const StatePtr &state, SubscriptionIds ids, std::function<void(Status)> then)
{
    runChunks(
        state,
        [ids = std::move(ids)](UnitContext &unit, BrokerService::State &, std::vector<std::string> &) -> Result<bool> {
            Result<std::vector<std::int64_t>> list = ids(unit.database());
            if (!list)
                return list.error();
            return bulk_removal::removePendingDeliveries(unit.database(), *list);
        },
        std::move(then));
}

Result<std::vector<std::int64_t>> subscriptionIdsOfTopic(Database &db, const std::string &topic)
{
    std::vector<std::int64_t> ids;
    Result<std::optional<TopicRecord>> record = topic_records::find(db, topic);
    if (!record)
        return record.error();
    if (!*record)
        return ids;
    Result<std::vector<SubscriptionRecord>> subscriptions = subscription_records::ofTopic(db, (*record)->id, false);
    if (!subscriptions)
        return subscriptions.error();
    for (const SubscriptionRecord &subscription : *subscriptions)
        ids.push_back(subscription.id);
    return ids;
}

} // namespace

void BrokerService::deleteTopic(std::string name, QObject *context, Reply<void> reply)
{
    const ReplyTarget target(context);
    removePendingInChunks(
        m_state, [name](Database &db) { return subscriptionIdsOfTopic(db, name); },
        [state = m_state, name, target, reply = std::move(reply)](Status emptied) {
            if (!emptied)
                return deliver(target, [reply, emptied] { reply(emptied); });
            run<Unit>(state, [name](UnitContext &unit, State &s, std::vector<std::string> &) -> Result<Unit> {
            TopicCatalog catalog(unit.database(), s.identity);
            const bool existed = catalog.topicAttributes(name).ok();
            Result<std::vector<std::string>> subscriptions = catalog.subscriptionArns(name);
            if (!subscriptions)
                return subscriptions.error();
            if (Status deleted = catalog.deleteTopic(name); !deleted)
                return deleted.error();
            if (existed)
                unit.reportChange(change(EntityChange::Kind::Deleted, EntityChange::Entity::Topic, name));
            for (const std::string &arn : *subscriptions) // gone with it (ON DELETE CASCADE)
                unit.reportChange(change(EntityChange::Kind::Deleted, EntityChange::Entity::Subscription, arn));
            return Unit{};
        }, nullptr, replyTo(target, reply));
        });
}

void BrokerService::listTopics(std::string nextToken, QObject *context, Reply<TopicPage> reply)
{
    readOnly<TopicPage>(
        m_state,
        [nextToken = std::move(nextToken)](UnitContext &unit, State &state) {
            return TopicCatalog(unit.database(), state.identity).listTopics(nextToken);
        },
        context, std::move(reply));
}

void BrokerService::getTopicAttributes(std::string name, QObject *context, Reply<AttributeMap> reply)
{
    readOnly<AttributeMap>(
        m_state,
        [name = std::move(name)](UnitContext &unit, State &state) {
            return TopicCatalog(unit.database(), state.identity).topicAttributes(name);
        },
        context, std::move(reply));
}

void BrokerService::setTopicAttribute(std::string name, std::string attribute, std::string value, QObject *context,
                                      Reply<void> reply)
{
    changeTopic(
        m_state, std::move(name),
        [attribute = std::move(attribute), value = std::move(value)](TopicCatalog &catalog, const std::string &topic,
                                                                     ClockTime now) {
            return catalog.setTopicAttribute(topic, attribute, value, now);
        },
        context, std::move(reply));
}

void BrokerService::tagTopic(std::string name, TopicTags tags, QObject *context, Reply<void> reply)
{
    changeTopic(
        m_state, std::move(name),
        [tags = std::move(tags)](TopicCatalog &catalog, const std::string &topic, ClockTime) {
            return catalog.tagTopic(topic, tags);
        },
        context, std::move(reply));
}

void BrokerService::untagTopic(std::string name, std::vector<std::string> keys, QObject *context, Reply<void> reply)
{
    changeTopic(
        m_state, std::move(name),
        [keys = std::move(keys)](TopicCatalog &catalog, const std::string &topic, ClockTime) {
            return catalog.untagTopic(topic, keys);
        },
        context, std::move(reply));
}

void BrokerService::listTopicTags(std::string name, QObject *context, Reply<TopicTags> reply)
{
    readOnly<TopicTags>(
        m_state,
        [name = std::move(name)](UnitContext &unit, State &state) {
            return TopicCatalog(unit.database(), state.identity).topicTags(name);
        },
        context, std::move(reply));
}

void BrokerService::confirmSubscription(std::string topicName, std::string token, QObject *context,
                                        Reply<std::string> reply)
{
    run<std::string>(
        m_state,
        [topicName = std::move(topicName), token = std::move(token)](UnitContext &unit, State &state,
                                                                     std::vector<std::string> &) -> Result<std::string> {
            auto arn = SubscriptionCatalog(unit.database(), state.identity, *state.ids)
                           .confirmSubscription(topicName, token);
            if (arn)
                unit.reportChange(change(EntityChange::Kind::Changed, EntityChange::Entity::Subscription, *arn));
            return arn;
        },
        context, std::move(reply), wakeWorker<std::string>(m_state));
}

// The unsubscribe's own unit, once its pending deliveries are gone.
static void unsubscribeUnit(const StatePtr &shared, const std::string &subscriptionArn, BrokerService::Reply<void> reply)
{
    using Removed = std::optional<DeliveryWorker::UnsubscribedEndpoint>;
    run<Removed>(
        shared,
        [subscriptionArn](UnitContext &unit, BrokerService::State &state, std::vector<std::string> &) -> Result<Removed> {
            // The endpoint is read before the row goes (http/https only).
            Removed removed;
            if (state.worker.load() != nullptr) {
                auto record = subscription_records::findByUuid(unit.database(), lastArnPart(subscriptionArn));
                if (record && *record && (*record)->protocol != EndpointProtocol::Sqs)
                    removed = DeliveryWorker::UnsubscribedEndpoint{
                        (*record)->endpoint, state.identity.topicArn((*record)->topicName), subscriptionArn,
                        std::string()};
            }
            if (Status done =
                    SubscriptionCatalog(unit.database(), state.identity, *state.ids).unsubscribe(subscriptionArn);
                !done)
                return done.error();
            unit.reportChange(change(EntityChange::Kind::Deleted, EntityChange::Entity::Subscription, subscriptionArn));
            return removed;
        },
        nullptr,
        [reply = std::move(reply)](Result<Removed> result) { reply(result ? Status() : Status(result.error())); },
        [state = shared](const Removed &removed) {
            DeliveryWorker *worker = state->worker.load();
            if (removed && worker != nullptr)
                worker->sendUnsubscribeConfirmation(*removed);
        });
}

void BrokerService::unsubscribe(std::string subscriptionArn, QObject *context, Reply<void> reply)
{
    const ReplyTarget target(context);
    removePendingInChunks(
        m_state,
        [subscriptionArn](Database &db) -> Result<std::vector<std::int64_t>> {
            auto record = subscription_records::findByUuid(db, lastArnPart(subscriptionArn));
            if (!record)
                return record.error();
            return *record ? std::vector<std::int64_t>{(*record)->id} : std::vector<std::int64_t>{};
        },
        [state = m_state, subscriptionArn, target, reply = std::move(reply)](Status emptied) {
            if (!emptied)
                return deliver(target, [reply, emptied] { reply(emptied); });
            unsubscribeUnit(state, subscriptionArn, [target, reply](Status done) {
                deliver(target, [reply, done] { reply(done); });
            });
        });
}


void BrokerService::listSubscriptions(std::string topicName, std::string nextToken, QObject *context,
                                      Reply<SubscriptionPage> reply)
{
    readOnly<SubscriptionPage>(
        m_state,
        [topicName = std::move(topicName), nextToken = std::move(nextToken)](UnitContext &unit, State &state) {
            return SubscriptionCatalog(unit.database(), state.identity, *state.ids)
                .listSubscriptions(topicName, nextToken);
        },
        context, std::move(reply));
}

void BrokerService::getSubscriptionAttributes(std::string subscriptionArn, QObject *context, Reply<AttributeMap> reply)
{
    readOnly<AttributeMap>(
        m_state,
        [subscriptionArn = std::move(subscriptionArn)](UnitContext &unit, State &state) {
            return SubscriptionCatalog(unit.database(), state.identity, *state.ids)
                .subscriptionAttributes(subscriptionArn);
        },
        context, std::move(reply));
}

void BrokerService::setSubscriptionAttribute(std::string subscriptionArn, std::string attribute, std::string value,
                                             QObject *context, Reply<void> reply)
{
    run<Unit>(
        m_state,
        [subscriptionArn = std::move(subscriptionArn), attribute = std::move(attribute), value = std::move(value)](
            UnitContext &unit, State &state, std::vector<std::string> &) -> Result<Unit> {
            if (Status set = SubscriptionCatalog(unit.database(), state.identity, *state.ids)
                                 .setSubscriptionAttribute(subscriptionArn, attribute, value);
                !set)
                return set.error();
            unit.reportChange(change(EntityChange::Kind::Changed, EntityChange::Entity::Subscription, subscriptionArn));
            return Unit{};
        },
        context, toStatusReply(std::move(reply)));
}

} // namespace relaydesk
