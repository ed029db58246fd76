// SPDX-License-Identifier: MIT
// Unit tests of Database (docs/behaviour.md §9): the pragmas a read-write open sets, the
// refusals (in use, foreign, damaged), and read-only browse connections.
// Real files in a QTemporaryDir; no sleeps.

#include "store/database.h"
#include "store/schema_migrations.h"
#include "store/statement.h"
#include "store/transaction.h"
#include "support/test_main.h"

#include <sqlite3.h>

#include <QFile>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>
#include <string>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace relaydesk;

namespace relaydesk {
namespace {

QString qs(const std::string &text) { return QString::fromStdString(text); }

// The settings a test wrote (the schema writes one of its own, the receipt seal key).
constexpr std::string_view kCountTestSettings = "SELECT count(*) FROM settings WHERE key <> 'receipt.seal_key'";

QByteArray readFile(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

void writeFile(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    QCOMPARE(file.write(bytes), bytes.size());
}

// A SQLite file made the way another application would make it: with
// SQLite directly, in its default (rollback journal) mode.
void makeForeignSqliteFile(const std::string &path, int applicationId, bool withTable)
{
    sqlite3 *db = nullptr;
    QCOMPARE(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    std::string sql = "PRAGMA application_id = " + std::to_string(applicationId) + ";";
    if (withTable)
        sql += "CREATE TABLE foo (a INTEGER, b TEXT); INSERT INTO foo VALUES (1, 'x');";
    const int code = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr);
    sqlite3_close(db);
    QCOMPARE(code, SQLITE_OK);
}

} // namespace

class DatabaseTest final : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    int m_sealedFiles = 0;
    std::string path(const char *name) const { return m_dir.filePath(QString::fromUtf8(name)).toStdString(); }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // A unit whose savepoint journal outgrows the in-memory bound spills it to
    // a file and goes on: deleting thousands of rows one by one in one
    // savepoint (what expiring thousands of messages did) commits. With a
    // bound of 128 KiB or more, SQLite 3.40 wrote the spilled journal short
    // and failed the unit with "database or disk is full".
    void savepoint_journalPastInMemoryBound_spillsAndCommits_data()
    {
        QTest::addColumn<int>("rows");
        QTest::newRow("3 000 rows") << 3000;
        QTest::newRow("20 000 rows") << 20000;
    }

    void savepoint_journalPastInMemoryBound_spillsAndCommits()
    {
        QFETCH(int, rows);
        const std::string file = path(("spill-" + std::to_string(rows) + ".db").c_str());
        auto opened = Database::open(file);
        QVERIFY2(opened.ok(), opened.status().toString().c_str());
        Database &db = **opened;
        const std::string fill = "CREATE TABLE bulk (id INTEGER PRIMARY KEY, body TEXT NOT NULL);"
                                 "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < "
            + std::to_string(rows) + ") INSERT INTO bulk SELECT i, printf('%.200c', 'x') FROM n";
        QVERIFY(db.execute(fill).ok());
        auto transaction = Transaction::begin(db);
        QVERIFY(transaction.ok());
        auto unit = Savepoint::begin(db);
        QVERIFY(unit.ok());
        auto remove = db.prepare("DELETE FROM bulk WHERE id = ?");
        QVERIFY(remove.ok());
        for (int id = 1; id <= rows; ++id) {
            QVERIFY(remove->bindInt64(1, id).ok());
            const StoreStatus step = remove->execute();
            QVERIFY2(step.ok(), (std::to_string(id) + ": " + step.toString()).c_str());
            remove->reset();
        }
        QVERIFY(unit->release().ok());
        QVERIFY(transaction->commit().ok());
        QCOMPARE(*db.queryInt64("SELECT count(*) FROM bulk"), std::int64_t(0));
    }

    void open_newFile_setsWalFullSyncForeignKeysAndIdentity()
    {
        const std::string file = path("pragmas.db");
        {
            auto opened = Database::open(file);
            QVERIFY2(opened.ok(), opened.status().toString().c_str());
            Database &db = **opened;
            QCOMPARE(qs(*db.queryText("PRAGMA journal_mode")), QStringLiteral("wal"));
            QCOMPARE(*db.queryInt64("PRAGMA synchronous"), 2); // FULL
            QCOMPARE(*db.queryInt64("PRAGMA foreign_keys"), 1);
            QCOMPARE(*db.queryInt64("PRAGMA application_id"), std::int64_t(kRelaydeskApplicationId));
            QCOMPARE(db.schemaVersion(), latestSchemaVersion(relaydeskMigrations()));
        }
        // WAL is persistent: the file header says so (bytes 18 and 19 = 2).
        const QByteArray header = readFile(qs(file)).left(100);
        QCOMPARE(header.left(16), QByteArray("SQLite format 3", 16));
        QCOMPARE(int(header.at(18)), 2);
        QCOMPARE(int(header.at(19)), 2);
    }

    // the database holds message bodies and the signing
    // key; every file of it is 0600 whatever the umask, and an older 0644
    // file is tightened by the next read-write open.
    void open_anyUmask_filesOwnerOnly_data()
    {
        QTest::addColumn<int>("umaskBits");
        QTest::addColumn<bool>("existedOpen");   // the files were 0644 before
        QTest::newRow("umask 022, new") << 022 << false;
        QTest::newRow("umask 000, new") << 0 << false;
        QTest::newRow("umask 022, existing 0644") << 022 << true;
    }

    void open_anyUmask_filesOwnerOnly()
    {
        QFETCH(int, umaskBits);
        QFETCH(bool, existedOpen);
        const std::string file = path(existedOpen ? "modes-old.db" : (umaskBits ? "modes-022.db" : "modes-000.db"));
        const auto modeOf = [](const std::string &name) {
            struct stat info {};
            return ::stat(name.c_str(), &info) == 0 ? int(info.st_mode & 0777) : -1;
        };
        const mode_t previous = ::umask(mode_t(umaskBits));
        if (existedOpen) {
            { auto first = Database::open(file); QVERIFY(first.ok()); }
            for (const char *suffix : {"", ".lock"})
                QCOMPARE(::chmod((file + suffix).c_str(), 0644), 0);
        }
        auto opened = Database::open(file);
        ::umask(previous);
        QVERIFY2(opened.ok(), opened.status().toString().c_str());
        QVERIFY((*opened)->execute("CREATE TABLE written (x)").ok());   // the WAL and SHM exist now
        for (const char *suffix : {"", "-wal", "-shm", ".lock"})
            QCOMPARE(modeOf(file + suffix), 0600);
    }

    void open_memory_accepted()
    {
        auto opened = Database::open(":memory:");
        QVERIFY2(opened.ok(), opened.status().toString().c_str());
        QCOMPARE(*(*opened)->queryInt64("SELECT count(*) FROM queues"), 0);
    }

    void open_secondWriterWhileFirstOpen_refusedInUseThenAcceptedAfterClose()
    {
        const std::string file = path("in-use.db");
        auto first = Database::open(file);
        QVERIFY2(first.ok(), first.status().toString().c_str());

        auto second = Database::open(file);
        QVERIFY(!second.ok());
        QCOMPARE(second.status().kind(), StoreStatus::Kind::InUse);
        QVERIFY2(second.status().message().find("already in use by another Relaydesk process") != std::string::npos,
                 second.status().message().c_str());

        first.value().reset();
        auto third = Database::open(file);
        QVERIFY2(third.ok(), third.status().toString().c_str());
    }

    void open_secondProcessWhileFirstOpen_refusedInUse()
    {
        const std::string file = path("in-use-by-process.db");
        auto first = Database::open(file);
        QVERIFY(first.ok());
        const pid_t child = ::fork();
        QVERIFY(child >= 0);
        if (child == 0) { // another process: only open, report the kind, leave without running destructors
            auto second = Database::open(file);
            ::_exit(second.ok() ? 0 : 10 + int(second.status().kind()));
        }
        int status = 0;
        QCOMPARE(::waitpid(child, &status, 0), child);
        QVERIFY(WIFEXITED(status));
        QCOMPARE(WEXITSTATUS(status), 10 + int(StoreStatus::Kind::InUse));
    }

    void open_readOnlyWhileWriterOpen_accepted()
    {
        const std::string file = path("reader-beside-writer.db");
        auto writer = Database::open(file);
        QVERIFY(writer.ok());
        DatabaseOptions readOnly;
        readOnly.mode = OpenMode::ReadOnly;
        auto reader = Database::open(file, readOnly);
        QVERIFY2(reader.ok(), reader.status().toString().c_str());
    }

    void open_foreignFile_refusedAndLeftUntouched_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<int>("expected");
        QTest::newRow("random bytes") << "random" << int(StoreStatus::Kind::NotRelaydesk);
        QTest::newRow("short text file") << "text" << int(StoreStatus::Kind::NotRelaydesk);
        QTest::newRow("sqlite, table foo, application_id 0") << "foo" << int(StoreStatus::Kind::NotRelaydesk);
        QTest::newRow("sqlite, other application_id, no tables") << "otherId" << int(StoreStatus::Kind::NotRelaydesk);
        QTest::newRow("sqlite, other application_id, tables") << "otherIdTables" << int(StoreStatus::Kind::NotRelaydesk);
    }
    void open_foreignFile_refusedAndLeftUntouched()
    {
        QFETCH(QString, kind);
        QFETCH(int, expected);
        const std::string file = path(("foreign-" + kind + ".db").toUtf8().constData());
        if (kind == "random") {
            QByteArray bytes(8192, 0);
            QRandomGenerator generator(42);
            for (auto &byte : bytes)
                byte = char(generator.bounded(256));
            writeFile(qs(file), bytes);
        } else if (kind == "text") {
            writeFile(qs(file), "hello, I am a note\n");
        } else if (kind == "foo") {
            makeForeignSqliteFile(file, 0, true);
        } else if (kind == "otherId") {
            makeForeignSqliteFile(file, 0x12345678, false);
        } else {
            makeForeignSqliteFile(file, 0x12345678, true);
        }
        const QByteArray before = readFile(qs(file));

        for (OpenMode mode : {OpenMode::ReadWrite, OpenMode::ReadOnly}) {
            DatabaseOptions options;
            options.mode = mode;
            auto opened = Database::open(file, options);
            QVERIFY(!opened.ok());
            QCOMPARE(int(opened.status().kind()), expected);
            QVERIFY2(opened.status().message().find("not a Relaydesk database") != std::string::npos,
                     opened.status().message().c_str());
        }
        QCOMPARE(readFile(qs(file)), before);
    }

    void open_damagedPages_refusedCorrupt()
    {
        const std::string file = path("damaged.db");
        {
            auto opened = Database::open(file);
            QVERIFY(opened.ok());
            Database &db = **opened;
            QVERIFY(db.execute("BEGIN").ok());
            auto insert = db.prepare("INSERT INTO settings (key, value) VALUES (?, ?)");
            QVERIFY(insert.ok());
            for (int i = 0; i < 2000; ++i) {
                QVERIFY(insert->bind(1, "key-" + std::to_string(i)).ok());
                QVERIFY(insert->bind(2, std::string(100, 'v')).ok());
                QVERIFY(insert->execute().ok());
            }
            QVERIFY(db.execute("COMMIT").ok());
        }
        QByteArray bytes = readFile(qs(file));
        const qsizetype pageSize = 4096;
        QVERIFY(bytes.size() > 8 * pageSize);
        QRandomGenerator generator(7);
        for (qsizetype i = bytes.size() / 2; i < bytes.size(); ++i) // damage the second half, keep page 1
            bytes[i] = char(generator.bounded(256));
        writeFile(qs(file), bytes);

        auto opened = Database::open(file);
        QVERIFY(!opened.ok());
        QCOMPARE(opened.status().kind(), StoreStatus::Kind::Corrupt);
        QVERIFY2(opened.status().message().find(file) != std::string::npos, opened.status().message().c_str());
    }

    // A read-write open runs quick_check unless the previous writer closed the
    // file cleanly, nothing wrote it since (its PATH.clean seal matches) and
    // the file is at least checkAlwaysBelowBytes big.
    void open_afterClose_checksUnlessSealedCleanAndLarge_data()
    {
        QTest::addColumn<QString>("after");        // what happens between the clean close and the open
        QTest::addColumn<bool>("large");           // checkAlwaysBelowBytes 0 (every file is "large") or the default
        QTest::addColumn<bool>("checked");         // quick_check ran
        QTest::addColumn<bool>("refused");         // the open was refused as damaged
        QTest::newRow("small file, clean close") << "nothing" << false << true << false;
        QTest::newRow("large file, clean close") << "nothing" << true << false << false;
        QTest::newRow("large file, no seal (an unclean end)") << "remove seal" << true << true << false;
        QTest::newRow("large file, appended to since") << "append" << true << true << false;
        QTest::newRow("large file, damaged since") << "damage" << true << true << true;
        QTest::newRow("large file, seal of another file") << "replace file" << true << true << false;
    }

    void open_afterClose_checksUnlessSealedCleanAndLarge()
    {
        QFETCH(QString, after);
        QFETCH(bool, large);
        QFETCH(bool, checked);
        QFETCH(bool, refused);
        const std::string name = "sealed-" + std::to_string(++m_sealedFiles) + ".db"; // a file per row
        const std::string file = path(name.c_str());
        const QString seal = qs(file + ".clean");
        {
            auto opened = Database::open(file);
            QVERIFY(opened.ok());
            QVERIFY((*opened)->integrityChecked()); // a new file has no seal
            QVERIFY(!QFile::exists(seal));
            QVERIFY((*opened)->execute("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000) "
                                       "INSERT INTO settings (key, value) SELECT 'key-' || i, printf('%.100c', 'v') FROM n")
                        .ok());
        }
        QVERIFY(QFile::exists(seal));
        QVERIFY(!QFile::exists(qs(file + "-wal")));
        QByteArray bytes = readFile(qs(file));
        if (after == "remove seal") {
            QVERIFY(QFile::remove(seal));
        } else if (after == "append") {
            writeFile(qs(file), bytes + QByteArray(4096, '\0'));
        } else if (after == "damage" || after == "replace file") {
            if (after == "damage") {
                QRandomGenerator generator(7);
                for (qsizetype i = bytes.size() / 2; i < bytes.size(); ++i) // same size, page 1 kept
                    bytes[i] = char(generator.bounded(256));
            }
            const std::string replacement = file + ".new";
            writeFile(qs(replacement), bytes); // a new inode: what an editor's save or a copy leaves
            QCOMPARE(::rename(replacement.c_str(), file.c_str()), 0);
        }
        DatabaseOptions options;
        if (large)
            options.checkAlwaysBelowBytes = 0;
        auto opened = Database::open(file, options);
        QVERIFY(!QFile::exists(seal)); // good for one open, whatever its outcome
        QCOMPARE(!opened.ok(), refused);
        if (refused) {
            QCOMPARE(opened.status().kind(), StoreStatus::Kind::Corrupt);
            return;
        }
        QCOMPARE((*opened)->integrityChecked(), checked);
        QCOMPARE(*(*opened)->queryInt64("SELECT count(*) FROM settings WHERE key LIKE 'key-%'"), std::int64_t(2000));
    }

    void open_readOnlyConnections_neitherTakeNorWriteTheSeal()
    {
        const std::string file = path("browsed.db");
        { QVERIFY(Database::open(file).ok()); }
        const QString seal = qs(file + ".clean");
        const QByteArray written = readFile(seal);
        QVERIFY(!written.isEmpty());
        {
            DatabaseOptions readOnly;
            readOnly.mode = OpenMode::ReadOnly;
            auto reader = Database::open(file, readOnly);
            QVERIFY(reader.ok());
            QVERIFY(QFile::exists(seal));
        }
        QCOMPARE(readFile(seal), written);
    }

    void open_unwritableLocation_refusedCannotOpen()
    {
        auto opened = Database::open(path("no-such-directory/x.db"));
        QVERIFY(!opened.ok());
        QCOMPARE(opened.status().kind(), StoreStatus::Kind::CannotOpen);

        DatabaseOptions readOnly;
        readOnly.mode = OpenMode::ReadOnly;
        auto missing = Database::open(path("missing.db"), readOnly);
        QVERIFY(!missing.ok());
        QCOMPARE(missing.status().kind(), StoreStatus::Kind::CannotOpen);
    }

    void readOnly_seesCommittedDataOnlyAndCannotWrite()
    {
        const std::string file = path("browse.db");
        auto writer = Database::open(file);
        QVERIFY(writer.ok());
        Database &db = **writer;
        QVERIFY(db.execute("INSERT INTO settings (key, value) VALUES ('region', 'us-east-1')").ok());

        DatabaseOptions readOnly;
        readOnly.mode = OpenMode::ReadOnly;
        auto reader = Database::open(file, readOnly);
        QVERIFY2(reader.ok(), reader.status().toString().c_str());
        Database &browse = **reader;
        QCOMPARE(qs(*browse.queryText("SELECT value FROM settings WHERE key = 'region'")), QStringLiteral("us-east-1"));

        {
            auto transaction = Transaction::begin(db);
            QVERIFY(transaction.ok());
            QVERIFY(db.execute("INSERT INTO settings (key, value) VALUES ('account', '123')").ok());
            QCOMPARE(*browse.queryInt64(kCountTestSettings), 1); // not committed yet
            QVERIFY(transaction->commit().ok());
        }
        QCOMPARE(*browse.queryInt64(kCountTestSettings), 2);

        const StoreStatus write = browse.execute("INSERT INTO settings (key, value) VALUES ('x', 'y')");
        QCOMPARE(write.kind(), StoreStatus::Kind::ReadOnly);
        QCOMPARE(*db.queryInt64(kCountTestSettings), 2);
    }

    void readOnly_memory_refusedMisuse()
    {
        DatabaseOptions readOnly;
        readOnly.mode = OpenMode::ReadOnly;
        auto opened = Database::open(":memory:", readOnly);
        QVERIFY(!opened.ok());
        QCOMPARE(opened.status().kind(), StoreStatus::Kind::Misuse);
    }
};

} // namespace relaydesk

RELAYDESK_TEST_MAIN(relaydesk::DatabaseTest)
#include "database_test.moc"
