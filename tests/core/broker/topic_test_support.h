// SPDX-License-Identifier: MIT
// Shared set-up of the topic tests: a real SQLite file in a QTemporaryDir,
// each operation run as one transaction (committed when it succeeds, rolled
// back when it fails — what the engine's CommitQueue unit does), counting
// ids, clock time moved by passing later `now` values. Test-only.
#pragma once

#include "broker/broker_identity.h"
#include "broker/id_source.h"
#include "broker/message_receiver.h"
#include "broker/queue_catalog.h"
#include "broker/subscription_catalog.h"
#include "broker/topic_catalog.h"
#include "broker/topic_publisher.h"
#include "store/database.h"
#include "store/transaction.h"

#include <QTemporaryDir>
#include <QtTest>

#include <memory>
#include <string>

namespace relaydesk::testing {

// 2026-01-01T00:00:00Z plus `seconds`.
inline ClockTime topicTime(double seconds)
{
    return fromEpochMilliseconds(1'767'225'600'000LL + static_cast<std::int64_t>(seconds * 1000));
}

class TopicTestBroker final {
public:
    TopicTestBroker() { reopen(); }

    Database &db() { return *m_db; }
    IdSource &ids() { return m_ids; }
    const BrokerIdentity &identity() const { return m_identity; }
    TopicCatalog topics() { return TopicCatalog(*m_db, m_identity); }
    SubscriptionCatalog subscriptions() { return SubscriptionCatalog(*m_db, m_identity, m_ids); }
    TopicPublisher publisher() { return TopicPublisher(*m_db, m_identity, m_ids); }

    // Closes and reopens the database file (a restart).
    void reopen()
    {
        m_db.reset();
        auto opened = Database::open(m_dir.filePath(QStringLiteral("broker.db")).toStdString());
        QVERIFY2(opened.ok(), opened.status().toString().c_str());
        m_db = std::move(opened).value();
    }

    // Runs `operation` in one transaction; commits when it succeeded, rolls back otherwise.
    template <typename Operation>
    auto unit(Operation operation)
    {
        auto transaction = Transaction::begin(*m_db);
        if (!transaction.ok())
            qFatal("begin: %s", transaction.status().toString().c_str());
        auto result = operation();
        if (result.ok()) {
            if (StoreStatus committed = transaction->commit(); !committed.ok())
                qFatal("commit: %s", committed.toString().c_str());
        }
        return result;
    }

    Result<std::string> createTopic(const std::string &name, const AttributeMap &attributes = {},
                                    ClockTime now = topicTime(0))
    {
        return unit([&] { return topics().createTopic(name, attributes, {}, now); });
    }

    Result<std::string> createQueue(const std::string &name, const AttributeMap &attributes = {})
    {
        return unit([&] { return QueueCatalog(*m_db, m_identity).createQueue(name, attributes, {}, topicTime(0)); });
    }
    Result<SubscribeReceipt> subscribe(const std::string &topic, const std::string &protocol,
                                       const std::string &endpoint, const AttributeMap &attributes = {},
                                       bool autoConfirm = false, ClockTime now = topicTime(0))
    {
        return unit([&] { return subscriptions().subscribe(topic, protocol, endpoint, attributes, autoConfirm, now); });
    }
    // Subscribes queue `queue` (created first) to `topic`; returns the subscription ARN.
    std::string subscribeQueue(const std::string &topic, const std::string &queue, const AttributeMap &attributes = {})
    {
        if (!createQueue(queue, queue.ends_with(".fifo") ? AttributeMap{{"FifoQueue", "true"}} : AttributeMap{}))
            qFatal("create queue %s", queue.c_str());
        Result<SubscribeReceipt> receipt = subscribe(topic, "sqs", m_identity.queueArn(queue), attributes);
        if (!receipt)
            qFatal("subscribe: %s", receipt.error().message.c_str());
        return receipt->subscriptionArn;
    }
    Result<PublishReceipt> publish(const std::string &topic, const PublishRequest &request, ClockTime now)
    {
        return unit([&] { return publisher().publish(topic, request, now); });
    }
    Result<PublishReceipt> publish(const std::string &topic, const std::string &message, ClockTime now = topicTime(1))
    {
        PublishRequest request;
        request.message = message;
        return publish(topic, request, now);
    }
    // Every message of a queue: one receive of up to 10 with a long lock.
    std::vector<ReceivedMessage> receiveAll(const std::string &queue, ClockTime now)
    {
        ReceiveRequest request;
        request.maxNumberOfMessages = 10;
        request.visibilityTimeout = 600;
        Result<ReceiveResult> received = unit([&] { return MessageReceiver(*m_db, m_ids).receive(queue, request, now); });
        if (!received)
            qFatal("receive: %s", received.error().message.c_str());
        return received->messages;
    }

    std::int64_t count(const std::string &sql)
    {
        auto value = m_db->queryInt64(sql);
        if (!value.ok())
            qFatal("query: %s", value.status().toString().c_str());
        return *value;
    }
    // A fingerprint of every row of the topic tables, to check that a refused
    // operation changed nothing.
    std::string snapshot()
    {
        std::string out;
        for (const char *sql :
             {"SELECT group_concat(id || name || attributes || last_used_ms || next_sequence, '|') FROM topics",
              "SELECT group_concat(topic_id || key || value, '|') FROM topic_tags",
              "SELECT group_concat(id || uuid || topic_id || state || raw_delivery || coalesce(filter_policy, '-') "
              "|| attributes || last_used_ms, '|') FROM subscriptions",
              "SELECT group_concat(id || message_id || topic_name || body, '|') FROM published_messages",
              "SELECT group_concat(subscription_id || published_id || attempt || due_ms, '|') FROM pending_deliveries",
              "SELECT group_concat(id || message_id || queue_id || body, '|') FROM messages"}) {
            auto text = m_db->queryText(sql);
            out += (text.ok() ? *text : std::string("<null>")) + "\n";
        }
        return out;
    }

private:
    QTemporaryDir m_dir;
    std::unique_ptr<Database> m_db;
    SequentialIdSource m_ids;
    BrokerIdentity m_identity;
};

} // namespace relaydesk::testing
