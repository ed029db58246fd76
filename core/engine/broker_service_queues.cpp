// SPDX-License-Identifier: MIT
// BrokerService: the queue catalog operations (URL, listing, attributes,
// tags, dead-letter sources, purge).
#include "broker/queues/purge_progress.h"
#include "engine/broker_service_unit.h"

namespace relaydesk {

using namespace service_unit;

namespace {

// A read-only catalog call as a unit.
template <class T, class Read>
void readCatalog(const StatePtr &state, Read read, QObject *context, BrokerService::Reply<T> reply)
{
    run<T>(
        state,
        [read = std::move(read)](UnitContext &unit, BrokerService::State &s, std::vector<std::string> &) -> Result<T> {
            QueueCatalog catalog(unit.database(), s.identity);
            return read(catalog, unit.now());
        },
        context, std::move(reply));
}

// A catalog change that reports Changed (queue `name`) when it succeeds.
template <class Change>
void changeCatalog(const StatePtr &state, std::string name, Change apply, QObject *context,
                   BrokerService::Reply<void> reply)
{
    run<Unit>(
        state,
        [name = std::move(name), apply = std::move(apply)](UnitContext &unit, BrokerService::State &s,
                                                           std::vector<std::string> &) -> Result<Unit> {
            QueueCatalog catalog(unit.database(), s.identity);
            if (Status done = apply(catalog, name, unit.now()); !done)
                return done.error();
            unit.reportChange(change(EntityChange::Kind::Changed, EntityChange::Entity::Queue, name));
            return Unit{};
        },
        context, toStatusReply(std::move(reply)));
}

} // namespace

void BrokerService::getQueueUrl(std::string name, QObject *context, Reply<std::string> reply)
{
    readCatalog<std::string>(
        m_state, [name = std::move(name)](QueueCatalog &catalog, ClockTime) { return catalog.queueUrl(name); },
        context, std::move(reply));
}

void BrokerService::listQueues(std::string prefix, std::optional<std::size_t> maxResults, std::string nextToken,
                               QObject *context, Reply<QueuePage> reply)
{
    readCatalog<QueuePage>(
        m_state,
        [prefix = std::move(prefix), maxResults, nextToken = std::move(nextToken)](QueueCatalog &catalog, ClockTime) {
            return catalog.listQueues(prefix, maxResults, nextToken);
        },
        context, std::move(reply));
}

void BrokerService::getQueueAttributes(std::string name, std::vector<std::string> attributeNames, QObject *context,
                                       Reply<AttributeMap> reply)
{
    readCatalog<AttributeMap>(
        m_state,
        [name = std::move(name), attributeNames = std::move(attributeNames)](QueueCatalog &catalog, ClockTime now) {
            return catalog.queueAttributes(name, attributeNames, now);
        },
        context, std::move(reply));
}

void BrokerService::setQueueAttributes(std::string name, AttributeMap changes, QObject *context, Reply<void> reply)
{
    changeCatalog(
        m_state, std::move(name),
        [changes = std::move(changes)](QueueCatalog &catalog, const std::string &queue, ClockTime now) {
            return catalog.setQueueAttributes(queue, changes, now);
        },
        context, std::move(reply));
}

void BrokerService::tagQueue(std::string name, QueueTags tags, QObject *context, Reply<void> reply)
{
    changeCatalog(
        m_state, std::move(name),
        [tags = std::move(tags)](QueueCatalog &catalog, const std::string &queue, ClockTime) {
            return catalog.tagQueue(queue, tags);
        },
        context, std::move(reply));
}

void BrokerService::untagQueue(std::string name, std::vector<std::string> keys, QObject *context, Reply<void> reply)
{
    changeCatalog(
        m_state, std::move(name),
        [keys = std::move(keys)](QueueCatalog &catalog, const std::string &queue, ClockTime) {
            return catalog.untagQueue(queue, keys);
        },
        context, std::move(reply));
}

void BrokerService::listQueueTags(std::string name, QObject *context, Reply<QueueTags> reply)
{
    readCatalog<QueueTags>(
        m_state, [name = std::move(name)](QueueCatalog &catalog, ClockTime) { return catalog.queueTags(name); },
        context, std::move(reply));
}

void BrokerService::listDeadLetterSourceQueues(std::string name, QObject *context,
                                               Reply<std::vector<std::string>> reply)
{
    readCatalog<std::vector<std::string>>(
        m_state,
        [name = std::move(name)](QueueCatalog &catalog, ClockTime) { return catalog.deadLetterSourceQueueUrls(name); },
        context, std::move(reply));
}

// The first unit checks, notes the purge and deletes the first chunk; the
// rest follow in chunks of their own; the reply comes after the last.
void BrokerService::purgeQueue(std::string name, QObject *context, Reply<void> reply)
{
    using Progress = MessageReceiver::PurgeProgress;
    const ReplyTarget target(context);
    run<Progress>(
        m_state,
        [name](UnitContext &unit, State &state, std::vector<std::string> &) -> Result<Progress> {
            auto progress = MessageReceiver(unit.database(), *state.ids).purge(name, unit.now());
            if (progress)
                reportQueueCounts(unit, name);
            return progress;
        },
        nullptr,
        [state = m_state, target, reply = std::move(reply)](Result<Progress> begun) {
            const Reply<Unit> answer = replyTo(target, reply);
            if (!begun || !begun->more)
                return answer(begun ? Result<Unit>(Unit{}) : Result<Unit>(begun.error()));
            purgeInChunks(state, begun->purge,
                          [answer](Status done) { answer(done ? Result<Unit>(Unit{}) : Result<Unit>(done.error())); });
        });
}

namespace service_unit {

void purgeInChunks(const StatePtr &state, purge_progress::PendingPurge purge, std::function<void(Status)> then)
{
    runChunks(
        state,
        [purge = std::move(purge)](UnitContext &unit, BrokerService::State &, std::vector<std::string> &) -> Result<bool> {
            Result<bool> more = purge_progress::removeChunk(unit.database(), purge);
            if (more)
                reportQueueCounts(unit, purge.queueName);
            return more;
        },
        std::move(then));
}

void resumePurges(const StatePtr &state)
{
    run<std::vector<purge_progress::PendingPurge>>(
        state,
        [](UnitContext &unit, BrokerService::State &, std::vector<std::string> &) {
            return purge_progress::pending(unit.database());
        },
        nullptr,
        [state](Result<std::vector<purge_progress::PendingPurge>> purges) {
            if (!purges)
                return; // the next start tries again: the notes stay
            for (purge_progress::PendingPurge &purge : *purges)
                purgeInChunks(state, std::move(purge), [](Status) {});
        });
}

} // namespace service_unit

} // namespace relaydesk
