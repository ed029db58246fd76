// SPDX-License-Identifier: MIT
// docs/behaviour.md §9, second process: while durability_child runs a broker on a file
// (Database::open + BrokerEngine + BrokerService, as the application starts),
// opening that file for writing — in this process, or by a second broker
// process — is refused with a clear message and leaves the file's bytes as
// they were. Once the child is gone (clean exit or SIGKILL) the file opens
// and holds what the child acknowledged.
#include "durability_support.h"
#include "support/test_main.h"

#include <QTemporaryDir>
#include <QTest>

using namespace relaydesk;
using namespace relaydesk::durability;

namespace {

struct FileState {
    QByteArray database;
    QByteArray wal;
    bool operator==(const FileState &) const = default;
};

FileState stateOf(const QString &path) { return {fileDigest(path), fileDigest(path + QStringLiteral("-wal"))}; }

} // namespace

class SecondProcessTest final : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    int m_files = 0;

    // Starts a holding child on `path`; returns its acks once it said "ready".
    std::vector<Ack> startHolder(ChildProcess &child, const QString &path)
    {
        std::vector<Ack> acks;
        std::string error;
        if (!child.start({QStringLiteral("hold"), path}, &error)) {
            qWarning("%s", error.c_str());
            return acks;
        }
        while (auto line = child.readLine()) {
            if (auto ack = parseAck(*line))
                acks.push_back(*ack);
            else if (*line == "ready")
                return acks;
            else
                qWarning("unexpected line from the holder: %s", line->c_str());
        }
        acks.clear(); // ended without "ready"
        return acks;
    }

    void verifyRefusedWhileHeld(const QString &path)
    {
        const FileState before = stateOf(path);
        QVERIFY(!before.database.isEmpty());

        auto opened = Database::open(path.toStdString());
        QVERIFY(!opened.ok());
        QCOMPARE(opened.status().kind(), StoreStatus::Kind::InUse);
        const std::string &message = opened.status().message();
        qInfo("refused: %s", opened.status().toString().c_str());
        QVERIFY2(message.find("already in use by another Relaydesk process") != std::string::npos, message.c_str());
        QVERIFY2(message.find(path.toStdString()) != std::string::npos, message.c_str());

        // A second broker process is refused the same way and exits.
        ChildProcess second;
        std::string error;
        QVERIFY2(second.start({QStringLiteral("hold"), path}, &error), error.c_str());
        auto line = second.readLine();
        QVERIFY(line.has_value());
        QVERIFY2(line->rfind("refused in use ", 0) == 0, line->c_str());
        QVERIFY2(line->find("already in use by another Relaydesk process") != std::string::npos, line->c_str());
        const int status = second.wait();
        QVERIFY(WIFEXITED(status));
        QCOMPARE(WEXITSTATUS(status), 2);

        QVERIFY(stateOf(path) == before);
    }

    void verifyOpensWith(const QString &path, const std::vector<Ack> &acks)
    {
        auto opened = Database::open(path.toStdString());
        QVERIFY2(opened.ok(), opened.status().toString().c_str());
        auto integrity = (*opened)->queryText("PRAGMA integrity_check");
        QVERIFY2(integrity.ok(), integrity.status().toString().c_str());
        QCOMPARE(*integrity, std::string("ok"));
        std::string error;
        const auto stored = storedMessages(**opened, &error);
        QVERIFY2(error.empty(), error.c_str());
        const std::string problem = checkAcknowledged(stored, acks);
        QVERIFY2(problem.empty(), problem.c_str());
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void openWhileBrokerRunsThenAfterCleanExit_refusedThenOpens()
    {
        const QString path = m_dir.filePath(QStringLiteral("held%1.db").arg(++m_files));
        ChildProcess child;
        const std::vector<Ack> acks = startHolder(child, path);
        QCOMPARE(acks.size(), std::size_t(2)); // one standard and one FIFO send
        verifyRefusedWhileHeld(path);
        if (QTest::currentTestFailed())
            return;

        child.closeStdin();
        std::vector<std::string> rest;
        while (auto line = child.readLine())
            rest.push_back(*line);
        const int status = child.wait();
        QVERIFY(WIFEXITED(status));
        QCOMPARE(WEXITSTATUS(status), 0);
        QCOMPARE(rest, std::vector<std::string>{"stopped"});
        verifyOpensWith(path, acks);
    }

    void openWhileBrokerRunsThenAfterSigkill_refusedThenOpens()
    {
        const QString path = m_dir.filePath(QStringLiteral("held%1.db").arg(++m_files));
        ChildProcess child;
        const std::vector<Ack> acks = startHolder(child, path);
        QCOMPARE(acks.size(), std::size_t(2));
        verifyRefusedWhileHeld(path);
        if (QTest::currentTestFailed())
            return;

        child.kill();
        const int status = child.wait();
        QVERIFY(WIFSIGNALED(status));
        QCOMPARE(WTERMSIG(status), SIGKILL);
        QVERIFY(QFile::exists(path + QStringLiteral(".lock"))); // left behind, but no longer locked
        verifyOpensWith(path, acks);
    }
};

RELAYDESK_TEST_MAIN(SecondProcessTest)
#include "second_process_test.moc"
