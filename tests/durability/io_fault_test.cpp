// SPDX-License-Identifier: MIT
// docs/reliability.md, I/O faults: the broker scenario of the power-loss
// test runs over the test VFS with one fault armed after the set-up — the
// Nth write, sync or read of the database or WAL fails with SQLITE_IOERR or
// SQLITE_FULL — for N across the whole scenario. The client whose operation
// met the fault gets InternalError with the store's reason; nothing of that
// operation is visible; every later operation of the same running broker
// succeeds (it recovers by itself); nothing acknowledged is lost, in the
// running broker and after a restart; pending retries resume.
#include "power_loss/broker_scenario.h"
#include "power_loss/ledger_checks.h"
#include "power_loss/power_loss_vfs.h"

#include "support/test_main.h"

#include <sqlite3.h>

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTest>

using namespace relaydesk;
using namespace relaydesk::durability;

namespace {

constexpr int kRounds = 4;
constexpr std::int64_t kFaultsPerRow = 40;

std::int64_t callsOf(const PowerLossFigures &figures, FaultKind kind)
{
    switch (kind) {
    case FaultKind::Write:
        return figures.writes;
    case FaultKind::Sync:
        return figures.syncs;
    case FaultKind::Read:
        return figures.reads;
    }
    return 0;
}

} // namespace

Q_DECLARE_METATYPE(relaydesk::durability::FaultKind)

class IoFaultTest final : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::string m_template;

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY(installPowerLossVfs());
        m_template = m_dir.filePath(QStringLiteral("template.db")).toStdString();
        std::string error;
        QVERIFY2(makeTemplateDatabase(m_template, &error), error.c_str());
    }

    void cleanupTestCase() { uninstallPowerLossVfs(); }

    void faultAtNthCall_refusedCleanlyThenRecovers_data()
    {
        QTest::addColumn<FaultKind>("kind");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("reason");
        QTest::newRow("write, I/O error") << FaultKind::Write << int(SQLITE_IOERR_WRITE) << QStringLiteral("input/output error");
        QTest::newRow("write, disk full") << FaultKind::Write << int(SQLITE_FULL) << QStringLiteral("disk is full");
        QTest::newRow("sync, I/O error") << FaultKind::Sync << int(SQLITE_IOERR_FSYNC) << QStringLiteral("input/output error");
        QTest::newRow("read, I/O error") << FaultKind::Read << int(SQLITE_IOERR_READ) << QStringLiteral("input/output error");
    }

    void faultAtNthCall_refusedCleanlyThenRecovers()
    {
        QFETCH(FaultKind, kind);
        QFETCH(int, code);
        QFETCH(QString, reason);
        QElapsedTimer timer;
        timer.start();
        const std::string path = m_dir.filePath(QStringLiteral("faults.db")).toStdString();
        ScenarioBroker broker;
        std::string error;

        // A run without a fault: how many calls of this kind follow the set-up.
        resetPowerLossVfs();
        QVERIFY(copyTemplateDatabase(m_template, path));
        QVERIFY2(broker.open(path, &error), error.c_str());
        Ledger complete;
        PowerLossFigures atSetUp;
        runScenario(broker, kRounds, false, complete, [&] { atSetUp = powerLossFigures(); });
        const std::int64_t calls = callsOf(powerLossFigures(), kind) - callsOf(atSetUp, kind);
        QVERIFY2(complete.errors.empty(), complete.errors.empty() ? "" : complete.errors.front().c_str());
        broker.close();
        QVERIFY2(calls > 0, "the scenario makes no call of this kind after its set-up");
        const std::int64_t step = std::max<std::int64_t>(1, calls / kFaultsPerRow);

        int injected = 0;
        int refusedOperations = 0;
        for (std::int64_t n = 1; n <= calls; n += step) {
            resetPowerLossVfs();
            QVERIFY(copyTemplateDatabase(m_template, path));
            QVERIFY2(broker.open(path, &error), error.c_str());
            Ledger ledger;
            runScenario(broker, kRounds, false, ledger, [&] { failNext(kind, n, code); });
            if (faultArmed()) { // this run made fewer calls than the first
                broker.close();
                continue;
            }
            ++injected;
            const std::string where = " (fault at call " + std::to_string(n) + " of " + std::to_string(calls) + ")";
            // At most the one operation that met the fault was refused, with the store's reason.
            const std::string refusals = ledger.errors.empty() ? std::string() : ledger.errors.front() + " and more";
            QVERIFY2(ledger.errors.size() <= 1, (refusals + where).c_str());
            refusedOperations += int(ledger.errors.size());
            for (const std::string &refusal : ledger.errors) {
                const bool storeError = refusal.find("InternalError") != std::string::npos &&
                                        refusal.find(reason.toStdString()) != std::string::npos;
                QVERIFY2(storeError, (refusal + where).c_str());
            }
            // The same running broker: nothing refused is visible, nothing acknowledged lost.
            std::string problem = checkLedger(broker, ledger, false);
            QVERIFY2(problem.empty(), (problem + where).c_str());
            // And after a restart, with the retries resuming.
            broker.close();
            QVERIFY2(broker.open(path, &error), (error + where).c_str());
            problem = checkLedger(broker, ledger, false);
            QVERIFY2(problem.empty(), (problem + " after a restart" + where).c_str());
            problem = checkRetriesResume(broker, ledger);
            QVERIFY2(problem.empty(), (problem + where).c_str());
            broker.close();
        }
        qInfo("%d faults injected (every %lld of %lld calls after the set-up), %d met a client's operation, "
              "the rest background work; 0 lost, %lld ms",
              injected, static_cast<long long>(step), static_cast<long long>(calls), refusedOperations,
              static_cast<long long>(timer.elapsed()));
        QVERIFY(injected > 0);
    }
};

RELAYDESK_TEST_MAIN(IoFaultTest)
#include "io_fault_test.moc"
