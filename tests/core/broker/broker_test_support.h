// SPDX-License-Identifier: MIT
// What the queue and topic test brokers share: a real SQLite file in a
// QTemporaryDir, each operation run as one transaction (committed when it
// succeeds, rolled back when it fails — what the engine's CommitQueue unit
// does), counting ids, and clock time moved by passing later `now` values.
// Test-only.
#pragma once

#include "broker/broker_identity.h"
#include "broker/clock_time.h"
#include "broker/id_source.h"
#include "store/database.h"
#include "store/transaction.h"

#include <QTemporaryDir>
#include <QtTest>

#include <initializer_list>
#include <memory>
#include <string>

namespace relaydesk::testing {

// 2026-01-01T00:00:00Z plus `seconds`.
inline ClockTime at(double seconds)
{
    return fromEpochMilliseconds(1'767'225'600'000LL + static_cast<std::int64_t>(seconds * 1000));
}

// The database file of QueueTestBroker and TopicTestBroker; owns the file,
// the connection and the id source. One thread.
class BrokerTestDatabase {
public:
    BrokerTestDatabase() { reopen(); }
    BrokerTestDatabase(const BrokerTestDatabase &) = delete;
    BrokerTestDatabase &operator=(const BrokerTestDatabase &) = delete;

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

    std::int64_t count(const std::string &sql)
    {
        auto value = m_db->queryInt64(sql);
        if (!value.ok())
            qFatal("query: %s", value.status().toString().c_str());
        return *value;
    }

protected:
    ~BrokerTestDatabase() = default;

    // The text of each query's one value, a line each ("<null>" when there is
    // none): a fingerprint of tables, to check that a refused operation
    // changed nothing.
    std::string fingerprint(std::initializer_list<const char *> queries)
    {
        std::string out;
        for (const char *sql : queries) {
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
