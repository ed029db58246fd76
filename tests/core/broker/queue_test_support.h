// SPDX-License-Identifier: MIT
// Shared set-up of the queue tests: a real SQLite file in a QTemporaryDir,
// each operation run as one transaction (committed when it succeeds, rolled
// back when it fails — what the engine's CommitQueue unit does), counting
// ids, and clock time moved by passing later `now` values. Test-only.
#pragma once

#include "broker/broker_identity.h"
#include "broker/id_source.h"
#include "broker/message_receiver.h"
#include "broker/message_sender.h"
#include "broker/queue_catalog.h"
#include "store/database.h"
#include "store/transaction.h"

#include <QTemporaryDir>
#include <QtTest>

#include <map>
#include <memory>
#include <optional>
#include <string>

namespace relaydesk::testing {

// 2026-01-01T00:00:00Z plus `seconds`.
inline ClockTime at(double seconds)
{
    return fromEpochMilliseconds(1'767'225'600'000LL + static_cast<std::int64_t>(seconds * 1000));
}

class QueueTestBroker final {
public:
    QueueTestBroker() { reopen(); }

    Database &db() { return *m_db; }
    IdSource &ids() { return m_ids; }
    const BrokerIdentity &identity() const { return m_identity; }

    // Closes and reopens the database file (a restart).
    void reopen()
    {
        m_db.reset();
        auto opened = Database::open(m_dir.filePath(QStringLiteral("broker.db")).toStdString());
        QVERIFY2(opened.ok(), opened.status().toString().c_str());
        m_db = std::move(opened).value();
    }

    // Runs `operation` in one transaction; commits when it succeeded.
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

    Result<std::string> create(const std::string &name, const AttributeMap &attributes = {}, ClockTime now = at(0))
    {
        return unit([&] { return QueueCatalog(*m_db, m_identity).createQueue(name, attributes, {}, now); });
    }
    Result<SendReceipt> send(const std::string &queue, const SendRequest &request, ClockTime now)
    {
        return unit([&] { return MessageSender(*m_db, m_ids).send(queue, request, now); });
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
        return unit([&] { return MessageReceiver(*m_db, m_ids).receive(queue, request, now); });
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
        return unit([&] { return MessageReceiver(*m_db, m_ids).deleteMessage(queue, handle, now); });
    }

    std::int64_t count(const std::string &sql)
    {
        auto value = m_db->queryInt64(sql);
        if (!value.ok())
            qFatal("query: %s", value.status().toString().c_str());
        return *value;
    }
    // A fingerprint of every row of the queue tables, to check that a refused
    // operation changed nothing.
    std::string snapshot()
    {
        std::string out;
        for (const char *sql :
             {"SELECT group_concat(id || name || attributes || last_used_ms || next_sequence, '|') FROM queues",
              "SELECT group_concat(queue_id || key || value, '|') FROM queue_tags",
              "SELECT group_concat(id || message_id || queue_id || state || visible_at_ms || receive_count || "
              "coalesce(receipt_handle, '-'), '|') FROM messages",
              "SELECT group_concat(queue_id || dedup_id || message_id, '|') FROM fifo_dedup"}) {
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
    std::map<std::string, std::string> m_lastHandles;
};

} // namespace relaydesk::testing
