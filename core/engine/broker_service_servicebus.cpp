// SPDX-License-Identifier: MIT
// BrokerService: Service Bus queues, sends and settlements (docs/behaviour.md §8.6).
#include "engine/broker_service_unit.h"

#include "broker/queues/message_receiver.h"
#include "broker/queues/message_sender.h"
#include "broker/queues/servicebus_send_rules.h"

#include <map>

namespace relaydesk {

using namespace service_unit;

void BrokerService::createServiceBusQueue(ServiceBusQueueProperties properties, QObject *context, Reply<bool> reply)
{
    run<bool>(
        m_state,
        [properties = std::move(properties)](UnitContext &unit, State &state,
                                             std::vector<std::string> &) -> Result<bool> {
            Result<bool> created = servicebus_queues::create(unit.database(), properties, state.identity, unit.now());
            if (created && *created) {
                unit.reportChange(change(EntityChange::Kind::Created, EntityChange::Entity::Queue,
                                         properties.name + std::string(kServiceBusDeadLetterSuffix)));
                unit.reportChange(change(EntityChange::Kind::Created, EntityChange::Entity::Queue, properties.name));
            }
            return created;
        },
        context, std::move(reply));
}

void BrokerService::listServiceBusQueues(QObject *context, Reply<std::vector<ServiceBusQueueProperties>> reply)
{
    using Queues = std::vector<ServiceBusQueueProperties>;
    run<Queues>(
        m_state,
        [](UnitContext &unit, State &, std::vector<std::string> &) -> Result<Queues> {
            return servicebus_queues::list(unit.database());
        },
        context, std::move(reply));
}

void BrokerService::findServiceBusEntity(std::string address, QObject *context, Reply<ServiceBusEntity> reply)
{
    run<ServiceBusEntity>(
        m_state,
        [address = std::move(address)](UnitContext &unit, State &, std::vector<std::string> &) -> Result<ServiceBusEntity> {
            return servicebus_topics::findEntity(unit.database(), address);
        },
        context, std::move(reply));
}

void BrokerService::sendServiceBusMessages(std::string queueName, std::vector<SendRequest> messages,
                                           QObject *context, Reply<void> reply)
{
    run<Unit>(
        m_state,
        [queueName = std::move(queueName), messages = std::move(messages)](
            UnitContext &unit, State &state, std::vector<std::string> &wake) -> Result<Unit> {
            MessageSender sender(unit.database(), *state.ids);
            std::map<std::string, std::int64_t> stored;   // by the queue that keeps them (ForwardTo)
            for (const SendRequest &message : messages) {
                Result<std::optional<std::string>> target =
                    routeServiceBusMessage(unit.database(), queueName, message, unit.now());
                if (!target)
                    return target.error();
                if (!*target)
                    continue;   // a duplicate: accepted, not stored
                if (auto sent = sender.send(**target, message, unit.now()); !sent)
                    return sent.error();   // the unit rolls back: nothing of the batch stays
                ++stored[**target];
            }
            for (const auto &[queue, count] : stored) {
                unit.countQueue(QueueCounter::Sent, queue, count);
                reportQueueCounts(unit, queue);
                wake.push_back(queue);
            }
            return Unit{};
        },
        context, toStatusReply(std::move(reply)));
}

void BrokerService::settleServiceBusMessage(std::string queueName, std::string receiptHandle,
                                            ServiceBusSettlement settlement, QObject *context, Reply<ClockTime> reply)
{
    run<ClockTime>(
        m_state,
        [queueName = std::move(queueName), receiptHandle = std::move(receiptHandle),
         settlement = std::move(settlement)](UnitContext &unit, State &,
                                             std::vector<std::string> &wake) -> Result<ClockTime> {
            Result<ClockTime> settled =
                relaydesk::settleServiceBusMessage(unit.database(), queueName, receiptHandle, settlement, unit.now());
            if (!settled || settlement.kind == ServiceBusSettlement::Kind::RenewLock)
                return settled;
            reportQueueCounts(unit, queueName);
            wake.push_back(queueName);
            if (settlement.kind == ServiceBusSettlement::Kind::Complete) {
                unit.countQueue(QueueCounter::Deleted, queueName);
            } else {
                Result<ServiceBusEntity> entity = servicebus_queues::find(unit.database(), queueName);
                const std::string deadLetters = entity ? serviceBusDeadLetterTarget(entity->properties)
                                                       : queueName + std::string(kServiceBusDeadLetterSuffix);
                reportQueueCounts(unit, deadLetters);
                wake.push_back(deadLetters);
            }
            return settled;
        },
        context, std::move(reply));
}

void BrokerService::receiveDeferredServiceBusMessages(std::string queueName, std::vector<std::int64_t> sequenceNumbers,
                                                      int lockSeconds, bool andDelete, QObject *context,
                                                      Reply<std::vector<ReceivedMessage>> reply)
{
    using Messages = std::vector<ReceivedMessage>;
    run<Messages>(
        m_state,
        [queueName = std::move(queueName), sequenceNumbers = std::move(sequenceNumbers), lockSeconds,
         andDelete](UnitContext &unit, State &state, std::vector<std::string> &wake) -> Result<Messages> {
            Result<Messages> received = MessageReceiver(unit.database(), *state.ids)
                                            .receiveDeferred(queueName, sequenceNumbers, lockSeconds, unit.now());
            if (!received)
                return received;
            for (const ReceivedMessage &message : *received) {
                if (!andDelete)
                    break;
                if (Result<ClockTime> removed = relaydesk::settleServiceBusMessage(
                        unit.database(), queueName, message.receiptHandle, ServiceBusSettlement{}, unit.now());
                    !removed)
                    return removed.error();
            }
            reportQueueCounts(unit, queueName);
            const std::string deadLetters = queueName + std::string(kServiceBusDeadLetterSuffix);
            reportQueueCounts(unit, deadLetters);
            wake.push_back(deadLetters);
            return received;
        },
        context, std::move(reply));
}

} // namespace relaydesk
