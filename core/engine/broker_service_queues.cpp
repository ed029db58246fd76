// SPDX-License-Identifier: MIT
// BrokerService: the queue catalog operations (URL, listing, attributes,
// tags, dead-letter sources, purge).
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

void BrokerService::purgeQueue(std::string name, QObject *context, Reply<void> reply)
{
    run<Unit>(
        m_state,
        [name = std::move(name)](UnitContext &unit, State &state, std::vector<std::string> &) -> Result<Unit> {
            if (Status purged = MessageReceiver(unit.database(), *state.ids).purge(name, unit.now()); !purged)
                return purged.error();
            reportQueueCounts(unit, name);
            return Unit{};
        },
        context, toStatusReply(std::move(reply)));
}

} // namespace relaydesk
