// SPDX-License-Identifier: MIT
// Receipt handles (docs/behaviour.md §5.1): sealed with HMAC-SHA256 under the
// database's own key, so nobody without the key makes a handle that checks —
// not an altered one, not one re-sealed for another message, not one sealed
// under another broker's key; handles of older releases count by their shape;
// tokens come from a cryptographic source; the key is made once and kept.
#include "broker/id_source.h"
#include "broker/queues/receipt_handle.h"
#include "store/database.h"
#include "store/relaydesk_schema.h"
#include "queue_test_support.h"
#include "support/test_main.h"

#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <chrono>
#include <set>

using namespace relaydesk;
using namespace relaydesk::testing;

namespace {
const std::string kKey(64, 'k');
const std::string kOtherKey(64, 'o');

// The seal an earlier release put on handles: FNV-1a, computable by anyone.
std::string fnvSealed(const std::string &body)
{
    std::uint64_t hash = 0xcbf29ce484222325ULL;
    for (const char c : body) {
        hash ^= static_cast<unsigned char>(c);
        hash *= 0x100000001b3ULL;
    }
    char digits[17];
    std::snprintf(digits, sizeof digits, "%016llx", static_cast<unsigned long long>(hash));
    return body + "~" + digits;
}
} // namespace

class ReceiptHandleTest final : public QObject {
    Q_OBJECT

private slots:
    void handleNamesItsRow()
    {
        const std::string handle = makeReceiptHandle(kKey, 3, 41, "1700000000000.abc");
        QVERIFY(isSealedReceiptHandle(handle));
        QVERIFY(QRegularExpression(QStringLiteral("^q3m41-1700000000000\\.abc~[0-9a-f]{32}$"))
                    .match(QString::fromStdString(handle))
                    .hasMatch());
        QCOMPARE(receiptHandleMessageRow(kKey, handle, 3), std::optional<std::int64_t>(41));
    }

    void handleThatDoesNotCheck_namesNothing_data()
    {
        QTest::addColumn<std::string>("handle");
        QTest::addColumn<std::int64_t>("queueId");
        const std::string genuine = makeReceiptHandle(kKey, 3, 41, "1700000000000.abc");
        std::string lastDigit = genuine;
        lastDigit.back() = lastDigit.back() == '0' ? '1' : '0';
        std::string tokenChanged = genuine;
        tokenChanged[10] = tokenChanged[10] == '5' ? '6' : '5';
        QTest::newRow("another queue") << genuine << std::int64_t(4);
        QTest::newRow("seal altered") << lastDigit << std::int64_t(3);
        QTest::newRow("token altered") << tokenChanged << std::int64_t(3);
        QTest::newRow("another message, old seal kept")
            << "q3m42-1700000000000.abc" + genuine.substr(genuine.find('~')) << std::int64_t(3);
        QTest::newRow("sealed under another key") << makeReceiptHandle(kOtherKey, 3, 41, "1700000000000.abc")
                                                  << std::int64_t(3);
        QTest::newRow("no token") << makeReceiptHandle(kKey, 3, 41, "") << std::int64_t(3);
        QTest::newRow("not a handle") << std::string("AQEBwJnKyrHigUMZj6rYigCgxlaS3SLy0a") << std::int64_t(3);
    }

    void handleThatDoesNotCheck_namesNothing()
    {
        QFETCH(std::string, handle);
        QFETCH(std::int64_t, queueId);
        QCOMPARE(receiptHandleMessageRow(kKey, handle, queueId), std::optional<std::int64_t>());
    }

    // Handles given out before this release (FNV seal, or none) — and so
    // anything without this release's seal, such as a seal cut short — are
    // read by their shape; the broker then honours them only while they are
    // exactly the stored handle, which is always sealed now.
    void olderReleasesHandles_readByShape()
    {
        QVERIFY(!isSealedReceiptHandle(fnvSealed("q3m41-1700000000000.abc")));
        QCOMPARE(receiptHandleMessageRow(kKey, fnvSealed("q3m41-1700000000000.abc"), 3), std::optional<std::int64_t>(41));
        QCOMPARE(receiptHandleMessageRow(kKey, "q3m41-1700000000000.abc", 3), std::optional<std::int64_t>(41));
    }

    void randomTokens_unique_32HexDigits()
    {
        RandomIdSource ids;
        std::set<std::string> seen;
        for (int i = 0; i < 2000; ++i) {
            const std::string token = ids.newReceiptHandle();
            QVERIFY(QRegularExpression(QStringLiteral("^[0-9a-f]{32}$")).match(QString::fromStdString(token)).hasMatch());
            QVERIFY(seen.insert(token).second);
        }
    }

    // MessageIds: version-7 UUIDs, unique, never sorting before an earlier
    // one of the same source (so sends extend the index at its end); the
    // first 48 bits are the wall clock's milliseconds.
    void messageIds_uniqueTimeOrderedVersion7()
    {
        RandomIdSource ids;
        const QRegularExpression shape(QStringLiteral("^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$"));
        const auto before = std::chrono::duration_cast<std::chrono::milliseconds>(
                                std::chrono::system_clock::now().time_since_epoch()).count();
        std::set<std::string> seen;
        std::string previous;
        for (int i = 0; i < 2000; ++i) {
            const std::string id = ids.newMessageId();
            QVERIFY2(shape.match(QString::fromStdString(id)).hasMatch(), id.c_str());
            QVERIFY(seen.insert(id).second);
            QVERIFY(id.substr(0, 13) >= previous.substr(0, std::min<std::size_t>(13, previous.size())));
            previous = id;
        }
        const std::string hex = previous.substr(0, 8) + previous.substr(9, 4);
        const long long milliseconds = std::stoll(hex, nullptr, 16);
        QVERIFY(milliseconds >= before);
        QVERIFY(milliseconds <= before + 60 * 1000);
    }

    void sealKey_madeOnce_keptAcrossReopen()
    {
        QueueTestBroker broker;
        Result<std::string> first = broker.unit([&] { return receiptSealKey(broker.db()); });
        QVERIFY(first.ok());
        QCOMPARE(first->size(), std::size_t(64));
        QCOMPARE(*broker.unit([&] { return receiptSealKey(broker.db()); }), *first);
        broker.reopen();
        QCOMPARE(*broker.unit([&] { return receiptSealKey(broker.db()); }), *first);
        QueueTestBroker another;
        QVERIFY(*another.unit([&] { return receiptSealKey(another.db()); }) != *first);
    }

    // The key is made with the schema (committed before any unit reads it,
    // so a connection may keep it); a database made by a release before that
    // migration keeps the key it already has, and handles sealed with it.
    void sealKey_madeWithTheSchema_olderDatabaseKeepsItsOwn()
    {
        QTemporaryDir directory;
        QVERIFY(directory.isValid());
        const std::string file = directory.filePath("older.db").toStdString();
        {
            const std::span<const Migration> all = relaydeskMigrations();
            DatabaseOptions older;
            older.migrations = all.first(15);
            auto db = Database::open(file, older);
            QVERIFY(db.ok());
            QCOMPARE(*(*db)->queryInt64("SELECT count(*) FROM settings WHERE key = 'receipt.seal_key'"), 0);
            QVERIFY((*db)->execute("INSERT INTO settings (key, value) VALUES ('receipt.seal_key', '" + kKey + "')").ok());
        }
        auto db = Database::open(file);
        QVERIFY(db.ok());
        QCOMPARE((*db)->queryText("SELECT value FROM settings WHERE key = 'receipt.seal_key'").value(), kKey);
        QCOMPARE(receiptSealKey(**db).value(), kKey);

        auto fresh = Database::open(directory.filePath("new.db").toStdString());
        QVERIFY(fresh.ok());
        const std::string made = (*fresh)->queryText("SELECT value FROM settings WHERE key = 'receipt.seal_key'").value();
        QVERIFY(QRegularExpression("^[0-9a-f]{64}$").match(QString::fromStdString(made)).hasMatch());
        QCOMPARE(receiptSealKey(**fresh).value(), made);
    }

    // The review's attack: a handle of one's own, re-pointed at another
    // consumer's message and re-sealed the way an earlier release sealed, is
    // refused and changes nothing; the other consumer's own handle still works.
    void forgedHandleForAnotherMessage_refused()
    {
        QueueTestBroker broker;
        QVERIFY(broker.create("q").ok());
        QVERIFY(broker.send("q", "mine", at(1)).ok());
        QVERIFY(broker.send("q", "theirs", at(1)).ok());
        QCOMPARE(broker.receiveBodies("q", 2, at(2)).size(), 2);
        const std::string mine = broker.handleOf("mine");
        const std::string theirs = broker.handleOf("theirs");
        const std::size_t m = mine.find('m');
        const std::size_t dash = mine.find('-');
        const std::string theirRow = theirs.substr(theirs.find('m') + 1, theirs.find('-') - theirs.find('m') - 1);
        const std::string body = mine.substr(0, m + 1) + theirRow + mine.substr(dash, mine.find('~') - dash);
        const std::string before = broker.snapshot();
        for (const std::string &forged : {fnvSealed(body), body + mine.substr(mine.find('~'))}) {
            Status removed = broker.remove("q", forged, at(3));
            QVERIFY2(!removed.ok(), forged.c_str());
            QCOMPARE(removed.error().code, BrokerErrorCode::ReceiptHandleIsInvalid);
        }
        QCOMPARE(broker.snapshot(), before);
        QVERIFY(broker.remove("q", theirs, at(3)).ok());
    }
};

RELAYDESK_TEST_MAIN(ReceiptHandleTest)
#include "receipt_handle_test.moc"
