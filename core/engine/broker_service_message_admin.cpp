// SPDX-License-Identifier: MIT
// BrokerService: the window's actions on chosen messages — delete by
// MessageId and redrive of chosen dead letters (docs/window.md "Messages").
#include "engine/broker_service_unit.h"

#include "broker/queues/dead_letter_queue.h"
#include "broker/queues/message_removal.h"

namespace relaydesk {

using namespace service_unit;

void BrokerService::deleteMessagesById(std::string queueName, std::vector<std::string> messageIds, QObject *context,
                                       Reply<std::int64_t> reply)
{
    run<std::int64_t>(
        m_state,
        [queueName = std::move(queueName), messageIds = std::move(messageIds)](
            UnitContext &unit, State &, std::vector<std::string> &) -> Result<std::int64_t> {
            Result<std::int64_t> removed = relaydesk::deleteMessagesById(unit.database(), queueName, messageIds);
            if (removed && *removed > 0) {
                reportQueueCounts(unit, queueName);
                unit.countQueue(QueueCounter::Deleted, queueName, *removed);
            }
            return removed;
        },
        context, std::move(reply));
}

void BrokerService::redriveDeadLetters(std::string deadLetterQueue, std::vector<std::string> messageIds,
                                       QObject *context, Reply<DeadLetterRedrive> reply)
{
    run<DeadLetterRedrive>(
        m_state,
        [deadLetterQueue = std::move(deadLetterQueue), messageIds = std::move(messageIds)](
            UnitContext &unit, State &, std::vector<std::string> &wake) -> Result<DeadLetterRedrive> {
            Result<DeadLetterRedrive> moved =
                moveDeadLettersBackById(unit.database(), deadLetterQueue, messageIds, unit.now());
            if (moved && moved->moved > 0) {
                reportQueueCounts(unit, deadLetterQueue);
                for (const std::string &queue : moved->destinations)
                    reportQueueCounts(unit, queue);
                wake = moved->destinations;
            }
            return moved;
        },
        context, std::move(reply));
}

} // namespace relaydesk
