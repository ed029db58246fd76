// SPDX-License-Identifier: MIT
#include "engine/servicebus_admin_calls.h"

#include "broker/servicebus/servicebus_admin.h"
#include "broker/servicebus/servicebus_topic.h"
#include "engine/reply_target.h"
#include "engine/unit_context.h"

namespace relaydesk::servicebus_admin_calls {

namespace {

using Kind = EntityChange::Kind;
using Entity = EntityChange::Entity;
using Deletion = std::function<Result<std::vector<std::string>>(Database &)>;

BrokerService::Reply<std::any> toDone(DoneReply reply)
{
    return [reply = std::move(reply)](Result<std::any> done) { reply(done ? Status{} : Status(done.error())); };
}

// An entity's queue and its dead-letter sub-queue.
std::vector<std::string> withSubQueue(const std::string &queue)
{
    return {queue, queue + std::string(kServiceBusDeadLetterSuffix)};
}

// The deletion's unit, after the messages of `queues` went in chunks of
// their own (BrokerService::emptyQueuesInChunks).
void runDeletion(BrokerService &service, BrokerService::QueueLister queues, Deletion deletion, std::string topic,
                 QObject *context, DoneReply reply)
{
    const ReplyTarget target(context);
    service.emptyQueuesInChunks(std::move(queues), [&service, deletion = std::move(deletion), topic = std::move(topic),
                                                    target, reply = std::move(reply)](Status emptied) {
        const auto answer = [target, reply](Status status) {
            target.post([reply, status] { reply(status); });
        };
        if (!emptied)
            return answer(emptied);
        service.runUnit(
            [deletion, topic](UnitContext &unit, const BrokerIdentity &, IdSource &,
                              std::vector<std::string> &) -> Result<std::any> {
                Result<std::vector<std::string>> deleted = deletion(unit.database());
                if (!deleted)
                    return deleted.error();
                for (const std::string &queue : *deleted)
                    unit.reportChange({Kind::Deleted, Entity::Queue, QString::fromStdString(queue)});
                if (!topic.empty())
                    unit.reportChange({Kind::Deleted, Entity::Topic, QString::fromStdString(topic)});
                return std::any{};
            },
            false, nullptr, [answer](Result<std::any> done) { answer(done ? Status{} : Status(done.error())); });
    });
}

} // namespace

void deleteQueue(BrokerService &service, std::string name, QObject *context, DoneReply reply)
{
    runDeletion(
        service, [name](Database &) { return Result<std::vector<std::string>>(withSubQueue(name)); },
        [name](Database &db) { return servicebus_admin::deleteQueue(db, name); }, {}, context, std::move(reply));
}

void deleteTopic(BrokerService &service, std::string name, QObject *context, DoneReply reply)
{
    runDeletion(
        service,
        [name](Database &db) -> Result<std::vector<std::string>> {
            std::vector<std::string> queues;
            Result<ServiceBusTopic> topic = servicebus_topics::find(db, name);
            if (topic)
                for (const ServiceBusSubscription &subscription : topic->subscriptions)
                    for (std::string &queue : withSubQueue(serviceBusSubscriptionQueue(name, subscription.name)))
                        queues.push_back(std::move(queue));
            return queues;
        },
        [name](Database &db) { return servicebus_admin::deleteTopic(db, name); }, name, context, std::move(reply));
}

void deleteSubscription(BrokerService &service, std::string topic, std::string subscription, QObject *context,
                        DoneReply reply)
{
    runDeletion(
        service,
        [topic, subscription](Database &) {
            return Result<std::vector<std::string>>(withSubQueue(serviceBusSubscriptionQueue(topic, subscription)));
        },
        [topic, subscription](Database &db) { return servicebus_admin::deleteSubscription(db, topic, subscription); },
        {}, context, std::move(reply));
}

void updateQueue(BrokerService &service, ServiceBusQueueProperties properties, QObject *context, DoneReply reply)
{
    service.runUnit(
        [properties = std::move(properties)](UnitContext &unit, const BrokerIdentity &identity, IdSource &,
                                             std::vector<std::string> &wake) -> Result<std::any> {
            if (Status updated = servicebus_admin::updateQueue(unit.database(), properties, identity, unit.now());
                !updated)
                return updated.error();
            unit.reportChange({Kind::Changed, Entity::Queue, QString::fromStdString(properties.name)});
            wake.push_back(properties.name);   // a shorter lock or new redrive bound changes what a receive may take
            return std::any{};
        },
        false, context, toDone(std::move(reply)));
}

} // namespace relaydesk::servicebus_admin_calls
