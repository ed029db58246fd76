// SPDX-License-Identifier: MIT
// Tests of the long-poll waiters through the engine, on the virtual clock:
// notify wakes a waiter whose retry succeeds, a failed retry keeps it waiting,
// the deadline ends it at virtual time, a wake time retries it, cancel and
// stop end it as Cancelled.
#include "engine/broker_engine.h"

#include "broker/wall_time_source.h"
#include "engine/waiter_registry.h"
#include "support/engine_test_support.h"
#include "support/test_main.h"

#include <QTest>

#include <array>
#include <atomic>
#include <optional>
#include <vector>

using namespace relaydesk;
using namespace relaydesk::testing;
using namespace std::chrono_literals;

namespace {
const ClockTime kStart = fromEpochMilliseconds(1'800'000'000'000);

struct Probe {
    std::atomic<bool> ready{false};
    std::atomic<int> retries{0};
    std::optional<WaitOutcome> outcome; // written and read on the broker thread, or after a round trip
};
} // namespace

class WaiterRegistryTest final : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    ManualWallTimeSource m_wall;
    int m_file = 0;

    std::unique_ptr<BrokerEngine> makeEngine()
    {
        BrokerEngineOptions options;
        options.clockMode = ClockMode::Virtual;
        options.clockStart = kStart;
        const std::string name = "waiters" + std::to_string(++m_file) + ".db";
        return std::make_unique<BrokerEngine>(openDatabase(m_dir, name.c_str()), m_wall, options);
    }

    static WaiterId startWaiting(BrokerEngine &engine, Probe &probe, const char *key, ClockDuration deadline,
                                 std::optional<ClockDuration> wake = std::nullopt)
    {
        WaiterId id = 0;
        engine.postAndWait([&] {
            std::optional<ClockTime> wakeAt;
            if (wake)
                wakeAt = kStart + *wake;
            id = engine.waiters().wait(
                key, kStart + deadline,
                [&probe] {
                    probe.retries.fetch_add(1);
                    return probe.ready.load();
                },
                [&probe](WaitOutcome outcome) { probe.outcome = outcome; }, wakeAt);
        });
        return id;
    }

    static std::optional<WaitOutcome> outcomeOf(BrokerEngine &engine, Probe &probe)
    {
        std::optional<WaitOutcome> seen;
        engine.postAndWait([&] { seen = probe.outcome; }); // after everything posted before
        return seen;
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void notify_wakesWaiterWhoseRetrySucceeds()
    {
        auto engine = makeEngine();
        Probe probe;
        startWaiting(*engine, probe, "queue:a", 20s);
        engine->notify("queue:b"); // another key: not retried
        QVERIFY(!outcomeOf(*engine, probe));
        QCOMPARE(probe.retries.load(), 0);

        engine->notify("queue:a"); // retry fails: keeps waiting
        QVERIFY(!outcomeOf(*engine, probe));
        QCOMPARE(probe.retries.load(), 1);

        probe.ready = true;
        engine->notify("queue:a");
        QCOMPARE(outcomeOf(*engine, probe), std::optional(WaitOutcome::Satisfied));
        QCOMPARE(probe.retries.load(), 2);
        QVERIFY(engine->advanceClockAndWait(30s).ok()); // its deadline timer is gone
        QCOMPARE(outcomeOf(*engine, probe), std::optional(WaitOutcome::Satisfied));
    }

    void deadline_endsWaiterAtVirtualTime()
    {
        auto engine = makeEngine();
        Probe probe;
        startWaiting(*engine, probe, "queue:a", 20s);
        QVERIFY(engine->advanceClockAndWait(19s).ok());
        QVERIFY(!outcomeOf(*engine, probe));
        QVERIFY(engine->advanceClockAndWait(1s).ok());
        QCOMPARE(outcomeOf(*engine, probe), std::optional(WaitOutcome::DeadlineReached));
        QCOMPARE(probe.retries.load(), 0);
    }

    void wakeTime_retriesBeforeDeadline()
    {
        auto engine = makeEngine();
        Probe probe;
        probe.ready = true;
        startWaiting(*engine, probe, "queue:a", 20s, 5s);
        QVERIFY(engine->advanceClockAndWait(4s).ok());
        QCOMPARE(probe.retries.load(), 0);
        QVERIFY(engine->advanceClockAndWait(1s).ok());
        QCOMPARE(probe.retries.load(), 1);
        QCOMPARE(outcomeOf(*engine, probe), std::optional(WaitOutcome::Satisfied));
    }

    void cancel_endsWaiterAndNotifyNoLongerRetries()
    {
        auto engine = makeEngine();
        Probe probe;
        const WaiterId id = startWaiting(*engine, probe, "queue:a", 20s);
        bool cancelled = false;
        bool again = true;
        engine->postAndWait([&] {
            cancelled = engine->waiters().cancel(id);
            again = engine->waiters().cancel(id);
        });
        QVERIFY(cancelled);
        QVERIFY(!again);
        QCOMPARE(outcomeOf(*engine, probe), std::optional(WaitOutcome::Cancelled));
        probe.ready = true;
        engine->notify("queue:a");
        QVERIFY(engine->advanceClockAndWait(30s).ok());
        QCOMPARE(probe.retries.load(), 0);
    }

    // waitingCount(key): the waiters under one key, until they end.
    void waitingCount_perKey()
    {
        auto engine = makeEngine();
        Probe a1;
        Probe a2;
        Probe b;
        startWaiting(*engine, a1, "queue:a", 20s);
        startWaiting(*engine, a2, "queue:a", 20s);
        const WaiterId onB = startWaiting(*engine, b, "queue:b", 20s);
        auto counts = [&] {
            std::array<std::size_t, 4> seen{};
            engine->postAndWait([&] {
                WaiterRegistry &waiters = engine->waiters();
                seen = {waiters.waitingCount("queue:a"), waiters.waitingCount("queue:b"),
                        waiters.waitingCount("queue:c"), waiters.waitingCount()};
            });
            return seen;
        };
        QCOMPARE(counts(), (std::array<std::size_t, 4>{2, 1, 0, 3}));
        a1.ready = true;
        engine->notify("queue:a");
        QCOMPARE(outcomeOf(*engine, a1), std::optional(WaitOutcome::Satisfied));
        QCOMPARE(counts(), (std::array<std::size_t, 4>{1, 1, 0, 2}));
        engine->postAndWait([&] { engine->waiters().cancel(onB); });
        QCOMPARE(counts(), (std::array<std::size_t, 4>{1, 0, 0, 1}));
        QVERIFY(engine->advanceClockAndWait(20s).ok());
        QCOMPARE(counts(), (std::array<std::size_t, 4>{0, 0, 0, 0}));
    }

    void notify_retriesWaitersInArrivalOrder()
    {
        auto engine = makeEngine();
        Probe first;
        Probe second;
        startWaiting(*engine, first, "queue:a", 20s);
        startWaiting(*engine, second, "queue:a", 20s);
        first.ready = true;
        second.ready = true;
        std::size_t retried = 0;
        engine->postAndWait([&] { retried = engine->waiters().notify("queue:a"); });
        QCOMPARE(retried, std::size_t(2));
        QCOMPARE(outcomeOf(*engine, first), std::optional(WaitOutcome::Satisfied));
        QCOMPARE(outcomeOf(*engine, second), std::optional(WaitOutcome::Satisfied));
    }

    void asyncRetry_runsUnitAndSucceedsAfterCommittedSend()
    {
        auto engine = makeEngine();
        BrokerEngine *e = engine.get();
        std::optional<WaitOutcome> outcome;
        std::atomic<int> attempts{0};
        engine->postAndWait([&] {
            e->waiters().waitAsync(
                "queue:a", kStart + 20s,
                [e, &attempts](WaiterRegistry::Finished finished) {
                    attempts.fetch_add(1);
                    e->execute([](Database &db, ClockTime) { return countSettings(db, "msg%"); }, nullptr,
                               [finished](Result<std::int64_t> count) { finished(count.ok() && *count > 0); });
                },
                [&outcome](WaitOutcome o) { outcome = o; });
        });
        auto seen = [&] {
            std::optional<WaitOutcome> copy;
            e->postAndWait([&] { copy = outcome; });
            return copy;
        };
        engine->notify("queue:a"); // nothing sent yet: keeps waiting
        QTRY_COMPARE_WITH_TIMEOUT(attempts.load(), 1, 30000);
        QVERIFY(engine->executeAndWait([](Database &, ClockTime) { return Result<int>(0); }).ok()); // its unit committed
        QVERIFY(!seen());

        QVERIFY(engine->executeAndWait([](Database &db, ClockTime) { return insertSetting(db, "msg1"); }).ok());
        engine->notify("queue:a");
        QTRY_COMPARE_WITH_TIMEOUT(seen(), std::optional(WaitOutcome::Satisfied), 30000);
        QCOMPARE(attempts.load(), 2);
    }

    void asyncRetry_inFlightAtDeadline_reportsItsResult_andNotifyRetriesAfter()
    {
        auto engine = makeEngine();
        BrokerEngine *e = engine.get();
        std::optional<WaitOutcome> outcome;
        std::vector<WaiterRegistry::Finished> pending; // attempts held open by the test (broker thread)
        engine->postAndWait([&] {
            e->waiters().waitAsync(
                "queue:a", kStart + 20s, [&pending](WaiterRegistry::Finished finished) { pending.push_back(std::move(finished)); },
                [&outcome](WaitOutcome o) { outcome = o; });
        });
        engine->notify("queue:a");
        engine->notify("queue:a"); // while the first attempt is in flight: remembered
        std::size_t attempts = 0;
        engine->postAndWait([&] { attempts = pending.size(); });
        QCOMPARE(attempts, std::size_t(1));

        engine->postAndWait([&] { pending[0](false); }); // fails: the remembered notify retries once more
        engine->postAndWait([&] { attempts = pending.size(); });
        QCOMPARE(attempts, std::size_t(2));

        QVERIFY(engine->advanceClockAndWait(25s).ok()); // deadline passes while attempt 2 is in flight
        std::optional<WaitOutcome> seen;
        engine->postAndWait([&] { seen = outcome; });
        QVERIFY(!seen);
        engine->postAndWait([&] {
            pending[1](true);
            pending[1](false); // a second call is ignored
            seen = outcome;
        });
        QCOMPARE(seen, std::optional(WaitOutcome::Satisfied));
    }

    void stop_cancelsWaiters()
    {
        auto engine = makeEngine();
        Probe probe;
        startWaiting(*engine, probe, "queue:a", 20s);
        engine->stop();
        QCOMPARE(probe.outcome, std::optional(WaitOutcome::Cancelled)); // stop() joined the broker thread
    }
};

RELAYDESK_TEST_MAIN(WaiterRegistryTest)
#include "waiter_registry_test.moc"
