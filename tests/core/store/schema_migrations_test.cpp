// SPDX-License-Identifier: MIT
// Unit tests of schema versioning (docs/behaviour.md §9): migrations run once, in order,
// each in a transaction; a newer schema is refused; and the broker's first
// schema has its tables, cascades and due-time indexes.

#include "store/database.h"
#include "store/relaydesk_schema.h"
#include "store/schema_migrations.h"
#include "store/statement.h"
#include "support/test_main.h"

#include <QTemporaryDir>
#include <QtTest>

#include <memory>
#include <string>
#include <vector>

using namespace relaydesk;

namespace relaydesk {
namespace {

QString qs(const std::string &text) { return QString::fromStdString(text); }

// A migration list for tests: version N creates table tN and counts its runs.
struct CountingSchema {
    std::vector<int> runs = std::vector<int>(8, 0);

    std::vector<Migration> upTo(int last)
    {
        std::vector<Migration> list;
        for (int version = 1; version <= last; ++version) {
            list.push_back(Migration{version, "test table", {}, [this, version](Database &db) {
                                         ++runs[std::size_t(version)];
                                         return db.execute("CREATE TABLE t" + std::to_string(version) + " (x)");
                                     }});
        }
        return list;
    }
};

} // namespace

class SchemaMigrationsTest final : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::string path(const char *name) const { return m_dir.filePath(QString::fromUtf8(name)).toStdString(); }

    static StoreResult<std::unique_ptr<Database>> open(const std::string &file, std::span<const Migration> migrations,
                                                       OpenMode mode = OpenMode::ReadWrite)
    {
        DatabaseOptions options;
        options.migrations = migrations;
        options.mode = mode;
        return Database::open(file, options);
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void open_newDatabase_appliesEveryMigrationInOrder()
    {
        CountingSchema schema;
        const auto list = schema.upTo(3);
        auto db = open(path("new.db"), list);
        QVERIFY2(db.ok(), db.status().toString().c_str());
        QCOMPARE((*db)->schemaVersion(), 3);
        QCOMPARE(*(*db)->queryInt64("SELECT count(*) FROM schema_version"), 3);
        QCOMPARE(qs(*(*db)->queryText("SELECT group_concat(version) FROM (SELECT version FROM schema_version ORDER BY version)")),
                 QStringLiteral("1,2,3"));
        QCOMPARE(schema.runs[1] + schema.runs[2] + schema.runs[3], 3);
    }

    void reopen_sameList_runsNothingAgain()
    {
        CountingSchema schema;
        const auto list = schema.upTo(2);
        const std::string file = path("reopen.db");
        QVERIFY(open(file, list).ok());
        auto again = open(file, list);
        QVERIFY2(again.ok(), again.status().toString().c_str());
        QCOMPARE((*again)->schemaVersion(), 2);
        QCOMPARE(schema.runs[1], 1);
        QCOMPARE(schema.runs[2], 1);
        QCOMPARE(*(*again)->queryInt64("SELECT max(version) FROM schema_version"), 2);
    }

    void reopen_longerList_runsOnlyTheNewMigrations()
    {
        CountingSchema schema;
        const std::string file = path("grow.db");
        QVERIFY(open(file, schema.upTo(1)).ok());
        auto grown = open(file, schema.upTo(3));
        QVERIFY2(grown.ok(), grown.status().toString().c_str());
        QCOMPARE((*grown)->schemaVersion(), 3);
        QCOMPARE(schema.runs[1], 1);
        QCOMPARE(schema.runs[2], 1);
        QCOMPARE(schema.runs[3], 1);
    }

    void open_newerSchemaThanKnown_refusedAndUnchanged_data()
    {
        QTest::addColumn<int>("mode");
        QTest::newRow("read-write") << int(OpenMode::ReadWrite);
        QTest::newRow("read-only") << int(OpenMode::ReadOnly);
    }
    void open_newerSchemaThanKnown_refusedAndUnchanged()
    {
        QFETCH(int, mode);
        CountingSchema schema;
        const std::string file = path(mode == int(OpenMode::ReadWrite) ? "newer-rw.db" : "newer-ro.db");
        QVERIFY(open(file, schema.upTo(3)).ok());

        auto older = open(file, schema.upTo(2), OpenMode(mode));
        QVERIFY(!older.ok());
        QCOMPARE(older.status().kind(), StoreStatus::Kind::NewerSchema);
        QVERIFY2(older.status().message().find("schema version 3") != std::string::npos,
                 older.status().message().c_str());

        auto current = open(file, schema.upTo(3));
        QVERIFY(current.ok());
        QCOMPARE(*(*current)->queryInt64("SELECT max(version) FROM schema_version"), 3);
    }

    void openReadOnly_olderSchema_refusedOutdated()
    {
        CountingSchema schema;
        const std::string file = path("older-ro.db");
        QVERIFY(open(file, schema.upTo(1)).ok());
        auto reader = open(file, schema.upTo(2), OpenMode::ReadOnly);
        QVERIFY(!reader.ok());
        QCOMPARE(reader.status().kind(), StoreStatus::Kind::OutdatedSchema);
        QCOMPARE(schema.runs[2], 0);
    }

    void open_failingMigration_leavesPreviousVersionIntact()
    {
        CountingSchema schema;
        const std::string file = path("failing.db");
        QVERIFY(open(file, schema.upTo(1)).ok());

        std::vector<Migration> list = schema.upTo(1);
        list.push_back(Migration{2, "half-done", "CREATE TABLE half (x); THIS IS NOT SQL", {}});
        auto failed = open(file, list);
        QVERIFY(!failed.ok());
        QVERIFY2(failed.status().message().find("migration 2 (half-done) failed") != std::string::npos,
                 failed.status().message().c_str());

        auto db = open(file, schema.upTo(1));
        QVERIFY2(db.ok(), db.status().toString().c_str());
        QCOMPARE((*db)->schemaVersion(), 1);
        QCOMPARE(*(*db)->queryInt64("SELECT count(*) FROM sqlite_schema WHERE name = 'half'"), 0);
    }

    void open_migrationListWithGap_refusedMisuse()
    {
        CountingSchema schema;
        std::vector<Migration> list = schema.upTo(1);
        list.push_back(Migration{3, "gap", "CREATE TABLE gap (x)", {}});
        auto db = open(path("gap.db"), list);
        QVERIFY(!db.ok());
        QCOMPARE(db.status().kind(), StoreStatus::Kind::Misuse);
    }

    void relaydeskSchema_createsEveryTable_data()
    {
        QTest::addColumn<QString>("table");
        for (const char *table : {"settings", "queues", "queue_tags", "topics", "topic_tags", "subscriptions",
                                  "messages", "fifo_dedup", "published_messages", "pending_deliveries",
                                  "delivery_attempts", "zaqar_queues", "zaqar_claims", "zaqar_claimed_messages",
                                  "zaqar_subscriptions", "schema_version"})
            QTest::newRow(table) << QString::fromUtf8(table);
    }
    void relaydeskSchema_createsEveryTable()
    {
        QFETCH(QString, table);
        auto db = Database::open(path("broker.db"));
        QVERIFY2(db.ok(), db.status().toString().c_str());
        auto query = (*db)->prepare("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = ?");
        QVERIFY(query->bind(1, table.toStdString()).ok());
        QCOMPARE(*query->step(), Step::Row);
        QCOMPARE(query->columnInt64(0), 1);
    }

    // Migration 5 on a database with attempts logged before it: each row
    // takes its message's kind while the message is stored, else notification.
    void relaydeskSchema_v5_attemptKindsFromStoredMessages()
    {
        const std::string file = path("v4.db");
        {
            auto v4 = open(file, relaydeskMigrations().first(4));
            QVERIFY2(v4.ok(), v4.status().toString().c_str());
            QVERIFY((*v4)->execute(
                             "INSERT INTO published_messages (message_id, topic_name, body, published_ms, kind) VALUES"
                             " ('c1', 't', 'b', 0, 'SubscriptionConfirmation'), ('u1', 't', 'b', 0, 'UnsubscribeConfirmation'),"
                             " ('n1', 't', 'b', 0, 'Notification');"
                             "INSERT INTO delivery_attempts (message_id, subscription_arn, attempt, phase, planned_ms,"
                             " started_ms, duration_ms, outcome) VALUES ('c1', 's', 0, 'initial', 0, 0, 1, 'retryable'),"
                             " ('u1', 's', 0, 'initial', 0, 0, 1, 'delivered'), ('n1', 's', 0, 'initial', 0, 0, 1, 'delivered'),"
                             " ('gone', 's', 0, 'initial', 0, 0, 1, 'delivered')")
                        .ok());
        }
        auto current = Database::open(file);
        QVERIFY2(current.ok(), current.status().toString().c_str());
        QVERIFY((*current)->schemaVersion() >= 5);
        QCOMPARE(qs(*(*current)->queryText("SELECT group_concat(message_id || '=' || kind, ' ') FROM "
                                           "(SELECT message_id, kind FROM delivery_attempts ORDER BY id)")),
                 QStringLiteral("c1=subscriptionConfirmation u1=unsubscribeConfirmation n1=notification gone=notification"));
    }

    void relaydeskSchema_deletingQueue_cascadesToItsMessages()
    {
        auto opened = Database::open(path("cascade.db"));
        QVERIFY(opened.ok());
        Database &db = **opened;
        QVERIFY(db.execute("INSERT INTO queues (id, name, created_ms, last_used_ms) VALUES (1, 'orders', 0, 0);"
                           "INSERT INTO queue_tags (queue_id, key, value) VALUES (1, 'team', 'a');"
                           "INSERT INTO messages (message_id, queue_id, body, sent_ms, enqueued_ms, visible_at_ms)"
                           " VALUES ('m1', 1, 'hello', 0, 0, 0)")
                    .ok());
        const StoreStatus orphan = db.execute("INSERT INTO messages (message_id, queue_id, body, sent_ms, enqueued_ms,"
                                              " visible_at_ms) VALUES ('m2', 99, 'x', 0, 0, 0)");
        QCOMPARE(orphan.kind(), StoreStatus::Kind::Constraint); // foreign keys are on
        QVERIFY(db.execute("DELETE FROM queues WHERE id = 1").ok());
        QCOMPARE(*db.queryInt64("SELECT count(*) FROM messages"), 0);
        QCOMPARE(*db.queryInt64("SELECT count(*) FROM queue_tags"), 0);
    }

    void relaydeskSchema_dueTimeQueries_useIndexes_data()
    {
        QTest::addColumn<QString>("query");
        QTest::addColumn<QString>("index");
        QTest::newRow("next pending deliveries")
            << "SELECT * FROM pending_deliveries WHERE due_ms <= 1000 ORDER BY due_ms LIMIT 100"
            << "pending_deliveries_by_due";
        QTest::newRow("visible messages of a queue")
            << "SELECT id FROM messages WHERE queue_id = 1 AND visible_at_ms <= 1000 ORDER BY visible_at_ms LIMIT 10"
            << "messages_by_visible_at";
        QTest::newRow("expired messages")
            << "SELECT id FROM messages WHERE expires_at_ms IS NOT NULL AND expires_at_ms <= 1000"
            << "messages_by_expiry";
        QTest::newRow("expired dedup entries") << "DELETE FROM fifo_dedup WHERE expires_ms <= 1000"
                                               << "fifo_dedup_by_expiry";
    }
    void relaydeskSchema_dueTimeQueries_useIndexes()
    {
        QFETCH(QString, query);
        QFETCH(QString, index);
        auto db = Database::open(path("plans.db"));
        QVERIFY(db.ok());
        auto plan = (*db)->prepare("EXPLAIN QUERY PLAN " + query.toStdString());
        QVERIFY2(plan.ok(), plan.status().toString().c_str());
        QString details;
        while (*plan->step() == Step::Row)
            details += qs(plan->columnText(3)) + "\n";
        QVERIFY2(details.contains(index), qPrintable(details));
    }
};

} // namespace relaydesk

RELAYDESK_TEST_MAIN(relaydesk::SchemaMigrationsTest)
#include "schema_migrations_test.moc"
