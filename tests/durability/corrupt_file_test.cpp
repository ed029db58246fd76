// SPDX-License-Identifier: MIT
// docs/behaviour.md §9, corrupt or foreign files, at the broker's start path (Database::open
// read-write, as before handing the connection to BrokerEngine): cases that
// store_database_test does not cover — a real broker database truncated, and
// another application's SQLite database left with a WAL its owner never
// checkpointed (it crashed). Each is refused with a clear message and every
// byte of the file (and of its WAL) stays as it was. Random bytes, text and
// other SQLite files without a WAL are covered by store_database_test.
#include "durability_support.h"

#include "support/call_and_wait.h"

#include "broker/id_source.h"
#include "broker/wall_time_source.h"
#include "engine/broker_engine.h"
#include "engine/broker_service.h"
#include "support/test_main.h"

#include <sqlite3.h>

#include <QTemporaryDir>
#include <QTest>

#include <future>

using namespace relaydesk;
using namespace relaydesk::durability;
using relaydesk::testing::callAndWait;

class CorruptFileTest final : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_brokerFile; // a real broker database with 300 messages, closed cleanly

    // The bytes of `path` and its -wal, and the refusal of opening it.
    void verifyRefusedUntouched(const QString &path, StoreStatus::Kind kind, const char *phrase)
    {
        const QByteArray database = fileDigest(path);
        const QByteArray wal = fileDigest(path + QStringLiteral("-wal"));
        auto opened = Database::open(path.toStdString());
        QVERIFY(!opened.ok());
        const std::string &message = opened.status().message();
        qInfo("refused: %s", opened.status().toString().c_str());
        QVERIFY2(opened.status().kind() == kind, opened.status().toString().c_str());
        QVERIFY2(message.find(phrase) != std::string::npos, message.c_str());
        QVERIFY2(message.find(path.toStdString()) != std::string::npos, message.c_str());
        QCOMPARE(fileDigest(path), database);
        QCOMPARE(fileDigest(path + QStringLiteral("-wal")), wal);
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_brokerFile = m_dir.filePath(QStringLiteral("broker.db"));
        auto opened = Database::open(m_brokerFile.toStdString());
        QVERIFY2(opened.ok(), opened.status().toString().c_str());
        ManualWallTimeSource wall;
        BrokerEngine engine(std::move(opened).value(), wall);
        {
            BrokerService service(engine, BrokerIdentity{}, std::make_unique<SequentialIdSource>());
            auto url = callAndWait<std::string>(
                [&](auto reply) { service.createQueue("kept", {}, {}, nullptr, reply); });
            QVERIFY(url.ok());
            for (int i = 0; i < 300; ++i) {
                SendRequest request;
                request.body = "message " + std::to_string(i) + " " + std::string(1000, 'x');
                auto sent = callAndWait<SendReceipt>(
                    [&](auto reply) { service.sendMessage("kept", request, nullptr, reply); });
                QVERIFY(sent.ok());
            }
        }
        engine.stop();
        QVERIFY(!QFile::exists(m_brokerFile + QStringLiteral("-wal"))); // checkpointed on close
        QVERIFY(QFileInfo(m_brokerFile).size() > 100 * 4096);
    }

    void truncatedBrokerDatabase_refusedCorruptAndUntouched_data()
    {
        QTest::addColumn<qint64>("keep");
        QTest::newRow("half") << qint64(-2);
        QTest::newRow("first page and a half") << qint64(4096 + 2048);
        QTest::newRow("one page") << qint64(4096);
        QTest::newRow("100 bytes (the SQLite header)") << qint64(100);
        QTest::newRow("20 bytes") << qint64(20);
    }

    void truncatedBrokerDatabase_refusedCorruptAndUntouched()
    {
        QFETCH(qint64, keep);
        const QString path = m_dir.filePath(QStringLiteral("truncated-%1.db").arg(QTest::currentDataTag()));
        QFile::remove(path);
        QVERIFY(QFile::copy(m_brokerFile, path));
        QFile file(path);
        QVERIFY(file.resize(keep < 0 ? file.size() / -keep : keep));
        verifyRefusedUntouched(path, StoreStatus::Kind::Corrupt, "is damaged");
    }

    void foreignDatabaseWithUncheckpointedWal_refusedAndUntouched()
    {
        const QString path = m_dir.filePath(QStringLiteral("foreign-wal.db"));
        // The other application: WAL mode, no automatic checkpoint, and it
        // dies without closing (so its WAL holds committed transactions).
        const pid_t other = fork();
        QVERIFY(other >= 0);
        if (other == 0) {
            sqlite3 *db = nullptr;
            int code = sqlite3_open(path.toUtf8().constData(), &db);
            if (code == SQLITE_OK)
                code = sqlite3_exec(db,
                                    "PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0;"
                                    "CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT);"
                                    "INSERT INTO notes (text) VALUES ('one'), ('two'), ('three');",
                                    nullptr, nullptr, nullptr);
            _exit(code == SQLITE_OK ? 0 : 1);
        }
        int status = 0;
        QCOMPARE(waitpid(other, &status, 0), other);
        QVERIFY(WIFEXITED(status));
        QCOMPARE(WEXITSTATUS(status), 0);
        QVERIFY(QFileInfo(path + QStringLiteral("-wal")).size() > 0);

        verifyRefusedUntouched(path, StoreStatus::Kind::NotRelaydesk, "not a Relaydesk database");
        QVERIFY(QFile::exists(path + QStringLiteral("-wal")));
    }
};

RELAYDESK_TEST_MAIN(CorruptFileTest)
#include "corrupt_file_test.moc"
