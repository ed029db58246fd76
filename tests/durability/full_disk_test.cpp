// SPDX-License-Identifier: MIT
// docs/behaviour.md §9, disk full: durability_child runs the broker with RLIMIT_FSIZE at
// 1 MiB (SIGXFSZ ignored, so a write past it fails with EFBIG as on a full
// disk) and sends 16 KiB messages from 4 threads until each has seen three
// failures. Sends fail with InternalError and the store's message, the
// process does not crash, and once the limit is lifted ("space returns") the
// same running broker sends, receives and deletes again and stops cleanly.
// Reopened without the limit, the file is intact and holds every
// acknowledged send exactly once and none of the failed ones.
#include "durability_support.h"
#include "support/test_main.h"

#include <QTemporaryDir>
#include <QTest>

#include <set>

using namespace relaydesk;
using namespace relaydesk::durability;

namespace {

constexpr qint64 kLimitBytes = 1024 * 1024;
constexpr int kProducers = 4;

// "fail KIND R P C ERRORNAME MESSAGE..."
struct Failure {
    std::string body;   // as Ack::body() would spell it
    std::string errorName;
    std::string message;
};

std::optional<Failure> parseFailure(const std::string &line)
{
    const QStringList w = words(line);
    if (w.size() < 7 || w.at(0) != QLatin1String("fail"))
        return std::nullopt;
    Ack position;
    position.fifo = w.at(1) == QLatin1String("fifo");
    position.round = w.at(2).toInt();
    position.producer = w.at(3).toInt();
    position.counter = w.at(4).toLong();
    position.group = "g" + std::to_string(position.counter % 3);
    return Failure{position.body(), w.at(5).toStdString(), w.mid(6).join(QLatin1Char(' ')).toStdString()};
}

} // namespace

class FullDiskTest final : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void sendsWhileFileSizeLimited_failCleanlyThenRecoverWithNothingLost()
    {
        const QString path = m_dir.filePath(QStringLiteral("full.db"));
        ChildProcess child;
        std::string error;
        QVERIFY2(child.start({QStringLiteral("fill"), path, QString::number(kLimitBytes), QString::number(kProducers)},
                             &error),
                 error.c_str());
        std::vector<Ack> acks;
        std::vector<Ack> acksAfterSpace;
        std::vector<Failure> failures;
        std::vector<Failure> failuresAfterSpace;
        std::vector<std::string> others;
        std::string deletedId;
        bool spaceReturned = false;
        while (auto line = child.readLine()) {
            if (auto ack = parseAck(*line)) {
                acks.push_back(*ack);
                if (spaceReturned)
                    acksAfterSpace.push_back(*ack);
            } else if (auto failure = parseFailure(*line)) {
                (spaceReturned ? failuresAfterSpace : failures).push_back(*failure);
            } else if (*line == "space") {
                spaceReturned = true;
            } else if (line->rfind("deleted ", 0) == 0) {
                deletedId = line->substr(8);
            } else {
                others.push_back(*line);
            }
        }
        const int status = child.wait();
        QVERIFY2(WIFEXITED(status), "the broker process crashed");
        QCOMPARE(WEXITSTATUS(status), 0);
        QCOMPARE(others, (std::vector<std::string>{"full", "stopped"}));

        // While full: every producer failed once, each with InternalError and the store's reason.
        qInfo("%zu sends acknowledged before the limit, %zu failed", acks.size() - acksAfterSpace.size(),
              failures.size());
        QVERIFY(acks.size() > acksAfterSpace.size());
        QVERIFY(failures.size() >= std::size_t(3 * kProducers));
        for (const Failure &failure : failures) {
            QCOMPARE(failure.errorName, std::string("InternalError"));
            // In words, never SQL text (docs/behaviour.md §9).
            const bool storeReason = (failure.message.find("disk is full") != std::string::npos ||
                                      failure.message.find("input/output error") != std::string::npos) &&
                                     failure.message.find("INSERT") == std::string::npos;
            QVERIFY2(storeReason, failure.message.c_str());
        }
        qInfo("first failure: %s", failures.front().message.c_str());

        // After the limit is lifted the same broker works again.
        for (const Failure &failure : failuresAfterSpace)
            qWarning("failed after space returned: %s %s", failure.body.c_str(), failure.message.c_str());
        QCOMPARE(failuresAfterSpace.size(), std::size_t(0));
        QCOMPARE(acksAfterSpace.size(), std::size_t(kProducers * 3 * 2));
        QVERIFY(!deletedId.empty());

        auto opened = Database::open(path.toStdString());
        QVERIFY2(opened.ok(), opened.status().toString().c_str());
        auto integrity = (*opened)->queryText("PRAGMA integrity_check");
        QVERIFY2(integrity.ok(), integrity.status().toString().c_str());
        QCOMPARE(*integrity, std::string("ok"));
        std::string problem;
        const auto stored = storedMessages(**opened, &problem);
        QVERIFY2(problem.empty(), problem.c_str());

        std::vector<Ack> kept;
        for (const Ack &ack : acks) {
            if (ack.messageId != deletedId)
                kept.push_back(ack);
        }
        QCOMPARE(kept.size() + 1, acks.size());
        problem = checkAcknowledged(stored, kept);
        QVERIFY2(problem.empty(), problem.c_str());
        std::set<std::string> bodies;
        std::set<std::string> ids;
        for (const StoredMessage &message : stored) {
            bodies.insert(unpadded(message.body));
            ids.insert(message.messageId);
        }
        QVERIFY2(!ids.contains(deletedId), "the deleted message is still there");
        for (const Failure &failure : failures)
            QVERIFY2(!bodies.contains(failure.body), ("a failed send was stored: " + failure.body).c_str());
        QCOMPARE(stored.size(), kept.size());
    }

    // A limit too small for the schema: the broker refuses to start with the
    // store's reason; with room again the same file opens and is intact.
    void startWhileFileSizeLimited_refusedThenOpensWithSpace_data()
    {
        QTest::addColumn<qint64>("limit");
        QTest::newRow("20 000 bytes") << qint64(20000);
        QTest::newRow("64 KiB") << qint64(64 * 1024);
        QTest::newRow("200 000 bytes") << qint64(200000);
    }

    void startWhileFileSizeLimited_refusedThenOpensWithSpace()
    {
        QFETCH(qint64, limit);
        const QString path = m_dir.filePath(QStringLiteral("small-%1.db").arg(limit));
        ChildProcess child;
        std::string error;
        QVERIFY2(child.start({QStringLiteral("fill"), path, QString::number(limit), QString::number(kProducers)}, &error),
                 error.c_str());
        std::vector<std::string> lines;
        while (auto line = child.readLine())
            lines.push_back(*line);
        const int status = child.wait();
        QVERIFY2(WIFEXITED(status), "the broker process crashed");
        QCOMPARE(WEXITSTATUS(status), 2);
        QCOMPARE(lines.size(), std::size_t(1));
        QVERIFY2(lines.front().rfind("refused I/O error " + path.toStdString(), 0) == 0 ||
                     lines.front().rfind("refused disk full " + path.toStdString(), 0) == 0,
                 lines.front().c_str());

        auto opened = Database::open(path.toStdString());
        QVERIFY2(opened.ok(), opened.status().toString().c_str());
        auto integrity = (*opened)->queryText("PRAGMA integrity_check");
        QVERIFY2(integrity.ok(), integrity.status().toString().c_str());
        QCOMPARE(*integrity, std::string("ok"));
    }
};

RELAYDESK_TEST_MAIN(FullDiskTest)
#include "full_disk_test.moc"
