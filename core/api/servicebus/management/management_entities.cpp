// SPDX-License-Identifier: MIT
// The management API's namespace-level entities: queues and topics (management_api.h).
#include "api/servicebus/management/atom_description_writer.h"
#include "api/servicebus/management/atom_descriptions.h"
#include "api/servicebus/management/management_unit.h"
#include "broker/servicebus/servicebus_admin.h"
#include "engine/servicebus_admin_calls.h"
#include "engine/unit_context.h"

#include <algorithm>

namespace relaydesk::management {

namespace {

using Kind = EntityChange::Kind;
using Entity = EntityChange::Entity;

// What one name is: a topic, a queue (not a subscription or a sub-queue), or nothing.
enum class Found { Topic, Queue, None };

Result<Found> lookUp(Database &db, const std::string &name)
{
    if (auto topic = servicebus_topics::find(db, name); topic)
        return Found::Topic;
    else if (topic.error().code != BrokerErrorCode::QueueDoesNotExist)
        return topic.error();
    auto queue = servicebus_queues::find(db, name);
    if (queue && !queue->deadLetterQueue && !queue->topic &&
        queue->queueName.find(kServiceBusSubscriptionsPath) == std::string::npos)
        return Found::Queue;
    if (!queue && queue.error().code != BrokerErrorCode::QueueDoesNotExist)
        return queue.error();
    return Found::None;
}

Result<ServiceBusTopicRuntime> topicRuntime(Database &db, const ServiceBusTopic &topic, ClockTime now)
{
    ServiceBusTopicRuntime runtime;
    runtime.subscriptions = std::int64_t(topic.subscriptions.size());
    bool first = true;
    for (const ServiceBusSubscription &subscription : topic.subscriptions) {
        auto each = servicebus_runtime::read(db, subscription.properties.name, now);
        if (!each)
            return each.error();
        runtime.sizeInBytes += each->sizeInBytes;
        runtime.created = first ? each->created : std::min(runtime.created, each->created);
        runtime.updated = first ? each->updated : std::max(runtime.updated, each->updated);
        runtime.accessed = first ? each->accessed : std::max(runtime.accessed, each->accessed);
        first = false;
    }
    return runtime;
}

Status queueEntry(AtomDocument &document, Database &db, const ServiceBusQueueProperties &queue, ClockTime now)
{
    auto runtime = servicebus_runtime::read(db, queue.name, now);
    if (!runtime)
        return runtime.error();
    document.entry(QLatin1Char('/') + qs(queue.name), qs(queue.name),
                   [&](QXmlStreamWriter &xml) { writeQueueDescription(xml, queue, *runtime); });
    return {};
}

Status topicEntry(AtomDocument &document, Database &db, const ServiceBusTopic &topic, ClockTime now)
{
    auto runtime = topicRuntime(db, topic, now);
    if (!runtime)
        return runtime.error();
    document.entry(QLatin1Char('/') + qs(topic.name), qs(topic.name),
                   [&](QXmlStreamWriter &xml) { writeTopicDescription(xml, topic, *runtime); });
    return {};
}

// The entry of the queue or topic `name` as it is now.
Result<Answer> entityAnswer(UnitContext &unit, const QString &base, const std::string &name, int status)
{
    AtomDocument document(base, unit.now());
    if (auto topic = servicebus_topics::find(unit.database(), name); topic) {
        if (Status written = topicEntry(document, unit.database(), *topic, unit.now()); !written)
            return written.error();
    } else {
        auto queue = servicebus_queues::find(unit.database(), name);
        if (!queue)
            return queue.error();
        if (Status written = queueEntry(document, unit.database(), queue->properties, unit.now()); !written)
            return written.error();
    }
    return Answer{status, document.finish()};
}

// A PUT: the description says whether it is a queue or a topic.
void putEntity(const Call &call, const std::string &name, const QByteArray &body, bool update)
{
    auto entry = readAtomElement(body);
    if (!entry)
        return call.reply(errorReply(entry.error()));
    const AtomElement *content = entry->child(u"content");
    const bool topic = content && !content->children.empty() && content->children.front().name == QLatin1String("TopicDescription");
    if (topic) {
        auto described = readTopicDescription(*entry, name);
        if (!described)
            return call.reply(errorReply(described.error()));
        return runUnit(call, [base = call.base, topic = *described, update](UnitContext &unit, const BrokerIdentity &identity,
                                                                          std::vector<std::string> &) -> Result<Answer> {
            auto found = lookUp(unit.database(), topic.name);
            if (!found)
                return found.error();
            if (update) {
                auto stored = servicebus_topics::find(unit.database(), topic.name);
                if (!stored)
                    return *found == Found::Queue ? exists(topic.name) : notFound(topic.name);
                if (stored->defaultMessageTimeToLive != topic.defaultMessageTimeToLive)
                    return BrokerError(BrokerErrorCode::InvalidParameterValue,
                                       "DefaultMessageTimeToLive: a topic's cannot change after it is created in "
                                       "Relaydesk (its subscriptions' can; docs/behaviour.md §8.6).");
                return entityAnswer(unit, base, topic.name, 200);
            }
            if (*found != Found::None)
                return exists(topic.name);
            auto created = servicebus_topics::create(unit.database(), topic, identity, unit.now());
            if (!created)
                return created.error();
            unit.reportChange({Kind::Created, Entity::Topic, qs(topic.name)});
            return entityAnswer(unit, base, topic.name, 201);
        });
    }
    auto described = readQueueDescription(*entry, name);
    if (!described)
        return call.reply(errorReply(described.error()));
    runUnit(call, [base = call.base, queue = *described, update](UnitContext &unit, const BrokerIdentity &identity,
                                                                 std::vector<std::string> &wake) -> Result<Answer> {
        auto found = lookUp(unit.database(), queue.name);
        if (!found)
            return found.error();
        if (update) {
            if (*found != Found::Queue)
                return *found == Found::Topic ? exists(queue.name) : notFound(queue.name);
            if (Status updated = servicebus_admin::updateQueue(unit.database(), queue, identity, unit.now()); !updated)
                return updated.error();
            unit.reportChange({Kind::Changed, Entity::Queue, qs(queue.name)});
            wake.push_back(queue.name);
            return entityAnswer(unit, base, queue.name, 200);
        }
        if (*found != Found::None)
            return exists(queue.name);
        auto created = servicebus_queues::create(unit.database(), queue, identity, unit.now());
        if (!created)
            return created.error();
        unit.reportChange({Kind::Created, Entity::Queue, qs(queue.name + std::string(kServiceBusDeadLetterSuffix))});
        unit.reportChange({Kind::Created, Entity::Queue, qs(queue.name)});
        return entityAnswer(unit, base, queue.name, 201);
    });
}

} // namespace

void answerEntityList(const Call &call, bool topics, const Page &page)
{
    runUnit(call, [base = call.base, topics, page](UnitContext &unit, const BrokerIdentity &,
                                                   std::vector<std::string> &) -> Result<Answer> {
        const QString path = topics ? QStringLiteral("/$Resources/Topics") : QStringLiteral("/$Resources/Queues");
        AtomDocument document(base, unit.now());
        if (topics) {
            auto all = servicebus_topics::list(unit.database());
            if (!all)
                return all.error();
            document.beginFeed(QStringLiteral("Topics"), path, nextPage(path, page, all->size()));
            for (std::size_t i = std::size_t(page.skip); i < all->size() && i < std::size_t(page.skip + page.top); ++i)
                if (Status written = topicEntry(document, unit.database(), (*all)[i], unit.now()); !written)
                    return written.error();
        } else {
            auto all = servicebus_queues::list(unit.database());
            if (!all)
                return all.error();
            document.beginFeed(QStringLiteral("Queues"), path, nextPage(path, page, all->size()));
            for (std::size_t i = std::size_t(page.skip); i < all->size() && i < std::size_t(page.skip + page.top); ++i)
                if (Status written = queueEntry(document, unit.database(), (*all)[i], unit.now()); !written)
                    return written.error();
        }
        return Answer{200, document.finish(), kAtomFeedContentType};
    });
}

void answerEntity(const Call &call, const QByteArray &method, const QString &name, const QByteArray &body, bool update)
{
    const std::string entity = name.toStdString();
    if (method == "PUT")
        return putEntity(call, entity, body, update);
    if (method == "GET")
        return runUnit(call, [base = call.base, entity](UnitContext &unit, const BrokerIdentity &,
                                                        std::vector<std::string> &) -> Result<Answer> {
            auto found = lookUp(unit.database(), entity);
            if (!found)
                return found.error();
            if (*found == Found::None)
                return notFound(entity);
            return entityAnswer(unit, base, entity, 200);
        });
    // DELETE: find what it is, then delete it with its messages in chunks (servicebus_admin_calls.h).
    call.service->runUnit(
        [entity](UnitContext &unit, const BrokerIdentity &, IdSource &, std::vector<std::string> &) -> Result<std::any> {
            auto found = lookUp(unit.database(), entity);
            if (!found)
                return found.error();
            if (*found == Found::None)
                return notFound(entity);
            return std::any(*found);
        },
        false, call.context, [call, entity](Result<std::any> found) {
            if (!found)
                return call.reply(errorReply(found.error()));
            const auto done = [reply = call.reply](Status deleted) {
                reply(deleted ? HttpReply{200, kAtomContentType, {}, {}} : errorReply(deleted.error()));
            };
            if (std::any_cast<Found>(*found) == Found::Topic)
                servicebus_admin_calls::deleteTopic(*call.service, entity, call.context, done);
            else
                servicebus_admin_calls::deleteQueue(*call.service, entity, call.context, done);
        });
}

} // namespace relaydesk::management
