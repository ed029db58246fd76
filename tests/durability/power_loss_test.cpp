// SPDX-License-Identifier: MIT
// docs/reliability.md, power loss: the broker runs a scenario (sends single
// and batched, receives, deletes, publishes fanned out to a queue and to an
// HTTP endpoint whose retries stay pending, attribute changes, a config
// import, dead letters moved back) over the power-loss VFS, which "crashes"
// at every Nth write or sync of the database or WAL: from there on every
// call fails with SQLITE_IOERR, the broker is stopped, the disk is rewritten
// as a power loss leaves it (unsynced writes dropped, or the last write torn
// at 512-byte sectors; the -shm gone) and the file is reopened through the
// normal open path. Then integrity_check passes, every acknowledged
// operation is there exactly once (FIFO sequence numbers as acknowledged),
// deleted stays deleted, each pending retry's stored attempt matches its
// log, and once the endpoint answers, the retries resume at that attempt and
// every acknowledged publish is delivered.
#include "power_loss/broker_scenario.h"
#include "power_loss/ledger_checks.h"
#include "power_loss/power_loss_vfs.h"

#include "support/test_main.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTest>

using namespace relaydesk;
using namespace relaydesk::durability;

namespace {

constexpr int kRounds = 4;
// Crash points per mode: the step N is the scenario's writes and syncs over this.
constexpr std::int64_t kCrashPoints = 250;

} // namespace

Q_DECLARE_METATYPE(relaydesk::durability::PowerLossMode)

class PowerLossTest final : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::string m_template;

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY(installPowerLossVfs());
        // A migrated, cleanly closed database each run starts from (its WAL checkpointed away).
        m_template = m_dir.filePath(QStringLiteral("template.db")).toStdString();
        std::string error;
        QVERIFY2(makeTemplateDatabase(m_template, &error), error.c_str());
    }

    void cleanupTestCase() { uninstallPowerLossVfs(); }

    void crashAtEveryNthWriteOrSync_acknowledgedSurvives_data()
    {
        QTest::addColumn<PowerLossMode>("mode");
        QTest::newRow("unsynced writes dropped") << PowerLossMode::DropUnsynced;
        QTest::newRow("last write torn at 512 B") << PowerLossMode::TornLastWrite;
    }

    void crashAtEveryNthWriteOrSync_acknowledgedSurvives()
    {
        QFETCH(PowerLossMode, mode);
        QElapsedTimer timer;
        timer.start();
        const std::string path = m_dir.filePath(QStringLiteral("broker.db")).toStdString();
        ScenarioBroker broker;
        std::string error;

        // A run without a crash: how many writes and syncs the scenario makes.
        resetPowerLossVfs();
        QVERIFY(copyTemplateDatabase(m_template, path));
        QVERIFY2(broker.open(path, &error), error.c_str());
        const std::int64_t atOpen = powerLossFigures().operations;
        Ledger complete;
        runScenario(broker, kRounds, true, complete);
        const std::int64_t operations = powerLossFigures().operations - atOpen;
        QVERIFY2(complete.errors.empty(), complete.errors.empty() ? "" : complete.errors.front().c_str());
        std::string problem = checkLedger(broker, complete, false);
        QVERIFY2(problem.empty(), problem.c_str());
        broker.close();
        const std::int64_t step = std::max<std::int64_t>(1, operations / kCrashPoints);

        int crashes = 0;
        std::int64_t acknowledged = 0;
        std::int64_t reverted = 0;
        for (std::int64_t crashAt = step; crashAt <= operations; crashAt += step) {
            resetPowerLossVfs();
            QVERIFY(copyTemplateDatabase(m_template, path));
            QVERIFY2(broker.open(path, &error), error.c_str());
            setCrashAt(powerLossFigures().operations + crashAt); // counted from the scenario's start
            Ledger ledger;
            runScenario(broker, kRounds, true, ledger);
            const bool crashed = hasCrashed();
            broker.close();
            if (!crashed)
                continue; // this run made fewer writes than the first (timing of the deliveries)
            ++crashes;
            acknowledged += ledger.acknowledged;
            for (const std::string &refusal : ledger.errors) {
                const bool storeError = refusal.find("InternalError") != std::string::npos;
                QVERIFY2(storeError, refusal.c_str());
            }
            applyPowerLoss(mode);
            reverted += powerLossFigures().unsyncedWrites;
            const std::string where = " (crash at write or sync " + std::to_string(crashAt) + " of " +
                                      std::to_string(operations) + ")";
            QVERIFY2(broker.open(path, &error), (error + where).c_str());
            problem = checkLedger(broker, ledger, true);
            QVERIFY2(problem.empty(), (problem + where).c_str());
            problem = checkRetriesResume(broker, ledger);
            QVERIFY2(problem.empty(), (problem + where).c_str());
            broker.close();
        }
        qInfo("%d crash points (every %lld of %lld writes and syncs), %lld operations acknowledged before them, "
              "%lld unsynced writes reverted or torn, 0 lost, %lld ms",
              crashes, static_cast<long long>(step), static_cast<long long>(operations),
              static_cast<long long>(acknowledged), static_cast<long long>(reverted),
              static_cast<long long>(timer.elapsed()));
        QVERIFY(crashes >= kCrashPoints / 2);
    }
};

RELAYDESK_TEST_MAIN(PowerLossTest)
#include "power_loss_test.moc"
