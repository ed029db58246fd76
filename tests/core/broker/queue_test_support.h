// SPDX-License-Identifier: MIT
// Shared set-up of the queue tests: BrokerTestDatabase with the queue
// operations (create, send, receive, delete) as units. Test-only.
#pragma once

#include "broker_test_support.h"

#include "broker/queues/message_receiver.h"
#include "broker/queues/message_sender.h"
#include "broker/queues/queue_catalog.h"

#include <map>
#include <optional>
#include <string>

namespace relaydesk::testing {

class QueueTestBroker final : public BrokerTestDatabase {
public:
    Result<std::string> create(const std::string &name, const AttributeMap &attributes = {}, ClockTime now = at(0))
    {
        return unit([&] { return QueueCatalog(db(), identity()).createQueue(name, attributes, {}, now); });
    }
    Result<SendReceipt> send(const std::string &queue, const SendRequest &request, ClockTime now)
    {
        return unit([&] { return MessageSender(db(), ids()).send(queue, request, now); });
    }
    Result<SendReceipt> send(const std::string &queue, const std::string &body, ClockTime now)
    {
        SendRequest request;
        request.body = body;
        return send(queue, request, now);
    }
    Result<SendReceipt> sendFifo(const std::string &queue, const std::string &body, const std::string &group,
                                 ClockTime now, std::optional<std::string> dedup = std::nullopt)
    {
        SendRequest request;
        request.body = body;
        request.groupId = group;
        request.deduplicationId = dedup ? dedup : std::optional<std::string>(body);
        return send(queue, request, now);
    }
    Result<ReceiveResult> receive(const std::string &queue, const ReceiveRequest &request, ClockTime now)
    {
        return unit([&] { return MessageReceiver(db(), ids()).receive(queue, request, now); });
    }
    // Bodies of what one receive of up to `max` messages returns.
    QStringList receiveBodies(const std::string &queue, int max, ClockTime now,
                              std::optional<int> visibilityTimeout = std::nullopt)
    {
        ReceiveRequest request;
        request.maxNumberOfMessages = max;
        request.visibilityTimeout = visibilityTimeout;
        Result<ReceiveResult> received = receive(queue, request, now);
        if (!received)
            return {QStringLiteral("error: ") + QString::fromStdString(received.error().message)};
        QStringList bodies;
        for (const ReceivedMessage &message : received->messages) {
            bodies << QString::fromStdString(message.body);
            m_lastHandles[message.body] = message.receiptHandle;
        }
        return bodies;
    }
    std::string handleOf(const std::string &body) const { return m_lastHandles.at(body); }
    Status remove(const std::string &queue, const std::string &handle, ClockTime now)
    {
        return unit([&] { return MessageReceiver(db(), ids()).deleteMessage(queue, handle, now); });
    }

    // A fingerprint of every row of the queue tables.
    std::string snapshot()
    {
        return fingerprint(
            {"SELECT group_concat(id || name || attributes || last_used_ms || next_sequence, '|') FROM queues",
             "SELECT group_concat(queue_id || key || value, '|') FROM queue_tags",
             "SELECT group_concat(id || message_id || queue_id || state || visible_at_ms || receive_count || "
             "coalesce(receipt_handle, '-'), '|') FROM messages",
             "SELECT group_concat(queue_id || dedup_id || message_id, '|') FROM fifo_dedup"});
    }

private:
    std::map<std::string, std::string> m_lastHandles;
};

} // namespace relaydesk::testing
