// SPDX-License-Identifier: MIT
// Unit tests of ClockScheduler on the test thread: due order, cancel, and the
// arming of its one timer (the wall delay for the earliest entry) in real,
// scaled and virtual mode — computed with a ManualWallTimeSource, never waited for.
#include "engine/clock_scheduler.h"

#include "broker/clock.h"
#include "broker/wall_time_source.h"
#include "support/test_main.h"

#include <QTest>

#include <vector>

using namespace relaydesk;
using namespace std::chrono_literals;

namespace {
const ClockTime kStart = fromEpochMilliseconds(1'800'000'000'000);
} // namespace

class ClockSchedulerTest final : public QObject {
    Q_OBJECT

private slots:
    void scaledMode_armsForEarliestWithScaledDelay()
    {
        ManualWallTimeSource wall;
        Clock clock(wall, ClockMode::Scaled, 60.0, kStart);
        ClockScheduler scheduler(clock);
        QVERIFY(!scheduler.armedDelay());

        scheduler.schedule(kStart + 60s, [](ClockTime) {});
        QCOMPARE(scheduler.armedDelay(), std::optional(1000ms)); // 60 s of clock time at 60x
        const ClockTimerId earlier = scheduler.schedule(kStart + 30s, [](ClockTime) {});
        QCOMPARE(scheduler.armedDelay(), std::optional(500ms)); // re-armed for the new earliest
        scheduler.schedule(kStart + 45s, [](ClockTime) {});
        QCOMPARE(scheduler.armedDelay(), std::optional(500ms)); // a later entry changes nothing

        QVERIFY(clock.setMode(ClockMode::Scaled, 120.0));
        scheduler.rearm();
        QCOMPARE(scheduler.armedDelay(), std::optional(250ms));

        wall.advance(100ms); // 12 s of clock time
        scheduler.rearm();
        QCOMPARE(scheduler.armedDelay(), std::optional(150ms)); // 18 s left at 120x

        QVERIFY(scheduler.cancel(earlier));
        QCOMPARE(scheduler.armedDelay(), std::optional(275ms)); // 33 s left to +45 s
        QVERIFY(!scheduler.cancel(earlier));
    }

    void realAndVirtualMode_arming()
    {
        ManualWallTimeSource wall;
        Clock clock(wall, ClockMode::Real, 1.0, kStart);
        ClockScheduler scheduler(clock);
        scheduler.schedule(kStart + 18s, [](ClockTime) {});
        QCOMPARE(scheduler.armedDelay(), std::optional(18000ms));

        QVERIFY(clock.setMode(ClockMode::Virtual));
        scheduler.rearm();
        QVERIFY(!scheduler.armedDelay()); // virtual: waits for an advance

        scheduler.schedule(kStart, [](ClockTime) {}); // already due: fires on the next turn, also in virtual mode
        QCOMPARE(scheduler.armedDelay(), std::optional(0ms));
    }

    void fireDue_runsDueEntriesInOrderOnly()
    {
        ManualWallTimeSource wall;
        Clock clock(wall, ClockMode::Scaled, 60.0, kStart);
        ClockScheduler scheduler(clock);
        std::vector<int> fired;
        scheduler.schedule(kStart + 5s, [&](ClockTime) { fired.push_back(5); });
        scheduler.schedule(kStart + 1s, [&](ClockTime) { fired.push_back(1); });
        scheduler.schedule(kStart + 3s, [&](ClockTime) { fired.push_back(3); });
        scheduler.schedule(kStart + 3s, [&](ClockTime) { fired.push_back(33); }); // tie: scheduling order
        scheduler.schedule(kStart + 60s, [&](ClockTime) { fired.push_back(60); });

        QCOMPARE(scheduler.fireDue(), std::size_t(0));
        wall.advance(100ms); // 6 s of clock time
        QCOMPARE(scheduler.fireDue(), std::size_t(4));
        QCOMPARE(fired, (std::vector<int>{1, 3, 33, 5}));
        QCOMPARE(scheduler.pendingCount(), std::size_t(1));
        QCOMPARE(scheduler.armedDelay(), std::optional(900ms)); // 54 s left at 60x
    }

    void callbackScheduling_dueNowRunsInSameFiring()
    {
        ManualWallTimeSource wall;
        Clock clock(wall, ClockMode::Virtual, 1.0, kStart);
        ClockScheduler scheduler(clock);
        std::vector<int> fired;
        scheduler.schedule(kStart + 1s, [&](ClockTime now) {
            fired.push_back(1);
            scheduler.schedule(now, [&](ClockTime) { fired.push_back(2); });
            scheduler.schedule(now + 1s, [&](ClockTime) { fired.push_back(3); });
        });
        QCOMPARE(scheduler.fireDue(), std::size_t(0)); // nothing due without an advance
        QVERIFY(clock.advanceTo(kStart + 1s));
        QCOMPARE(scheduler.fireDue(), std::size_t(2));
        QCOMPARE(fired, (std::vector<int>{1, 2}));
        QCOMPARE(scheduler.earliestDue(), std::optional(kStart + 2s));
    }

    void throwingCallback_doesNotStopOthers()
    {
        ManualWallTimeSource wall;
        Clock clock(wall, ClockMode::Virtual, 1.0, kStart);
        ClockScheduler scheduler(clock);
        int ran = 0;
        scheduler.schedule(kStart, [](ClockTime) { throw 42; });
        scheduler.schedule(kStart, [&](ClockTime) { ++ran; });
        QCOMPARE(scheduler.fireDue(), std::size_t(2));
        QCOMPARE(ran, 1);
    }

    void dueEntryInVirtualMode_firesOnNextEventLoopTurn()
    {
        ManualWallTimeSource wall;
        Clock clock(wall, ClockMode::Virtual, 1.0, kStart);
        ClockScheduler scheduler(clock);
        bool fired = false;
        scheduler.schedule(kStart, [&](ClockTime) { fired = true; });
        QVERIFY(!fired);
        QTRY_VERIFY_WITH_TIMEOUT(fired, 10000);
    }
};

RELAYDESK_TEST_MAIN(ClockSchedulerTest)
#include "clock_scheduler_test.moc"
