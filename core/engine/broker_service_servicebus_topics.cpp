// SPDX-License-Identifier: MIT
// BrokerService: Service Bus topics, subscriptions and rules, and sends to a
// topic (docs/behaviour.md §8.6).
#include "engine/broker_service_unit.h"

namespace relaydesk {

using namespace service_unit;

namespace {

void reportSubscriptionCreated(UnitContext &unit, const ServiceBusSubscription &subscription)
{
    unit.reportChange(change(EntityChange::Kind::Created, EntityChange::Entity::Queue,
                             subscription.properties.name + std::string(kServiceBusDeadLetterSuffix)));
    unit.reportChange(change(EntityChange::Kind::Created, EntityChange::Entity::Queue, subscription.properties.name));
}

} // namespace

void BrokerService::createServiceBusTopic(ServiceBusTopic topic, QObject *context, Reply<bool> reply)
{
    run<bool>(
        m_state,
        [topic = std::move(topic)](UnitContext &unit, State &state, std::vector<std::string> &) -> Result<bool> {
            auto before = servicebus_topics::find(unit.database(), topic.name);
            Result<bool> created = servicebus_topics::create(unit.database(), topic, state.identity, unit.now());
            if (!created || !*created)
                return created;
            for (const ServiceBusSubscription &subscription : topic.subscriptions) {
                bool existed = false;
                for (const ServiceBusSubscription &old : before ? before->subscriptions : std::vector<ServiceBusSubscription>{})
                    existed = existed || old.name == subscription.name;
                if (!existed)
                    reportSubscriptionCreated(unit, subscription);
            }
            return created;
        },
        context, std::move(reply));
}

void BrokerService::createServiceBusSubscription(std::string topic, ServiceBusSubscription subscription,
                                                 QObject *context, Reply<bool> reply)
{
    run<bool>(
        m_state,
        [topic = std::move(topic), subscription = std::move(subscription)](
            UnitContext &unit, State &state, std::vector<std::string> &) -> Result<bool> {
            if (auto exists = servicebus_topics::find(unit.database(), topic); !exists)
                return exists.error();
            Result<bool> created =
                servicebus_topics::createSubscription(unit.database(), topic, subscription, state.identity, unit.now());
            if (created && *created)
                reportSubscriptionCreated(unit, subscription);
            return created;
        },
        context, std::move(reply));
}

void BrokerService::listServiceBusRules(std::string topic, std::string subscription, QObject *context,
                                        Reply<std::vector<ServiceBusRule>> reply)
{
    using Rules = std::vector<ServiceBusRule>;
    run<Rules>(
        m_state,
        [topic = std::move(topic), subscription = std::move(subscription)](UnitContext &unit, State &,
                                                                           std::vector<std::string> &) -> Result<Rules> {
            return servicebus_topics::rules(unit.database(), topic, subscription);
        },
        context, std::move(reply));
}

void BrokerService::addServiceBusRule(std::string topic, std::string subscription, ServiceBusRule rule,
                                      QObject *context, Reply<void> reply)
{
    run<Unit>(
        m_state,
        [topic = std::move(topic), subscription = std::move(subscription),
         rule = std::move(rule)](UnitContext &unit, State &, std::vector<std::string> &) -> Result<Unit> {
            if (Status added = servicebus_topics::addRule(unit.database(), topic, subscription, rule); !added)
                return added.error();
            return Unit{};
        },
        context, toStatusReply(std::move(reply)));
}

void BrokerService::removeServiceBusRule(std::string topic, std::string subscription, std::string rule,
                                         QObject *context, Reply<void> reply)
{
    run<Unit>(
        m_state,
        [topic = std::move(topic), subscription = std::move(subscription),
         rule = std::move(rule)](UnitContext &unit, State &, std::vector<std::string> &) -> Result<Unit> {
            if (Status removed = servicebus_topics::removeRule(unit.database(), topic, subscription, rule); !removed)
                return removed.error();
            return Unit{};
        },
        context, toStatusReply(std::move(reply)));
}

void BrokerService::findServiceBusTopic(std::string name, QObject *context, Reply<ServiceBusTopic> reply)
{
    run<ServiceBusTopic>(
        m_state,
        [name = std::move(name)](UnitContext &unit, State &, std::vector<std::string> &) -> Result<ServiceBusTopic> {
            return servicebus_topics::find(unit.database(), name);
        },
        context, std::move(reply));
}

void BrokerService::listServiceBusTopics(QObject *context, Reply<std::vector<ServiceBusTopic>> reply)
{
    using Topics = std::vector<ServiceBusTopic>;
    run<Topics>(
        m_state,
        [](UnitContext &unit, State &, std::vector<std::string> &) -> Result<Topics> {
            return servicebus_topics::list(unit.database());
        },
        context, std::move(reply));
}

void BrokerService::publishServiceBusMessages(std::string topic, std::vector<SendRequest> messages,
                                              std::vector<ServiceBusMessageFacts> facts,
                                              ServiceBusMessageRewriter rewrite, QObject *context, Reply<void> reply)
{
    run<Unit>(
        m_state,
        [topic = std::move(topic), messages = std::move(messages), facts = std::move(facts),
         rewrite = std::move(rewrite)](UnitContext &unit, State &state, std::vector<std::string> &wake) -> Result<Unit> {
            auto filled = servicebus_topics::publish(unit.database(), *state.ids, topic, messages, facts, rewrite,
                                                     unit.now());
            if (!filled)
                return filled.error();   // the unit rolls back: no subscription keeps any of the batch
            for (const auto &[queue, copies] : *filled) {
                unit.countQueue(QueueCounter::Sent, queue, copies);
                reportQueueCounts(unit, queue);
                wake.push_back(queue);
            }
            return Unit{};
        },
        context, toStatusReply(std::move(reply)));
}

} // namespace relaydesk
