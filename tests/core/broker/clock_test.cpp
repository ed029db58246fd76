// SPDX-License-Identifier: MIT
// Unit tests of Clock (docs/behaviour.md §7) driven by a ManualWallTimeSource, and of the
// ISO 8601 clock-time format. Expected times are worked out from the rule
// "clock = anchor + wall elapsed × rate" and from the calendar (epoch days
// counted by hand in the row comments); no sleeps.

#include "broker/clock.h"
#include "broker/wall_time_source.h"
#include "support/test_main.h"

#include <QString>
#include <QtTest>

#include <atomic>
#include <thread>
#include <vector>

using namespace relaydesk;
using namespace std::chrono_literals;

Q_DECLARE_METATYPE(relaydesk::ClockMode)

namespace {

// 2026-01-01T00:00:00Z: 56 years after 1970 with 14 leap days = 20 454 days.
constexpr int64_t kNewYear2026 = 1'767'225'600'000;

std::chrono::system_clock::time_point wallAt(int64_t epochMs)
{
    return std::chrono::system_clock::time_point(std::chrono::milliseconds(epochMs));
}

int64_t ms(ClockTime time) { return toEpochMilliseconds(time); }

} // namespace

class ClockTest final : public QObject {
    Q_OBJECT

private slots:
    void realMode_startsAtCalendarTimeAndFollowsWall();
    void realMode_systemTimeStepsBack_clockDoesNotGoBack();
    void scaledMode_multipliesWallElapsed_data();
    void scaledMode_multipliesWallElapsed();
    void modeSwitches_keepTimeContinuous();
    void virtualMode_standsStillUntilAdvanced();
    void advance_backwardsOrNegative_refusedAndUnchanged();
    void advance_outsideVirtualMode_refused();
    void setMode_badScale_refusedAndUnchanged_data();
    void setMode_badScale_refusedAndUnchanged();
    void catchUpWithWallTime_onlyMovesForward();
    void wallDelayUntil_convertsClockToWallTime_data();
    void wallDelayUntil_convertsClockToWallTime();
    void generation_changesWithMapping();
    void now_concurrentReadersAndAdvancer_neverGoesBack();
    void clockModeName_roundTrips();
    void formatIso8601_knownTimes_data();
    void formatIso8601_knownTimes();
    void parseIso8601_texts_data();
    void parseIso8601_texts();
};

void ClockTest::realMode_startsAtCalendarTimeAndFollowsWall()
{
    ManualWallTimeSource wall(wallAt(kNewYear2026));
    Clock clock(wall);
    QCOMPARE(clock.mode(), ClockMode::Real);
    QCOMPARE(ms(clock.now()), kNewYear2026);
    wall.advance(1500ms);
    QCOMPARE(ms(clock.now()), kNewYear2026 + 1500);
    QCOMPARE(clock.rate(), 1.0);
}

void ClockTest::realMode_systemTimeStepsBack_clockDoesNotGoBack()
{
    ManualWallTimeSource wall(wallAt(kNewYear2026));
    Clock clock(wall);
    wall.advance(10s);
    wall.setSystemTime(wallAt(kNewYear2026 - 3'600'000)); // the user sets the system time back an hour
    QCOMPARE(ms(clock.now()), kNewYear2026 + 10'000);
    wall.advance(1s);
    QCOMPARE(ms(clock.now()), kNewYear2026 + 11'000);
}

void ClockTest::scaledMode_multipliesWallElapsed_data()
{
    QTest::addColumn<double>("scale");
    QTest::addColumn<int64_t>("wallElapsedMs");
    QTest::addColumn<int64_t>("clockElapsedMs");

    QTest::newRow("60x: a wall second is a clock minute") << 60.0 << int64_t(1000) << int64_t(60'000);
    QTest::newRow("600x: 6 wall s = 1 clock hour") << 600.0 << int64_t(6000) << int64_t(3'600'000);
    QTest::newRow("10x") << 10.0 << int64_t(250) << int64_t(2500);
    QTest::newRow("1x") << 1.0 << int64_t(777) << int64_t(777);
    QTest::newRow("0.5x: half speed") << 0.5 << int64_t(1000) << int64_t(500);
    QTest::newRow("0.5x truncates to whole ms") << 0.5 << int64_t(3) << int64_t(1);
}

void ClockTest::scaledMode_multipliesWallElapsed()
{
    QFETCH(double, scale);
    QFETCH(int64_t, wallElapsedMs);
    QFETCH(int64_t, clockElapsedMs);

    ManualWallTimeSource wall(wallAt(0));
    Clock clock(wall, ClockMode::Scaled, scale, fromEpochMilliseconds(kNewYear2026));
    QCOMPARE(clock.mode(), ClockMode::Scaled);
    QCOMPARE(clock.rate(), scale);
    wall.advance(std::chrono::milliseconds(wallElapsedMs));
    QCOMPARE(ms(clock.now()), kNewYear2026 + clockElapsedMs);
}

void ClockTest::modeSwitches_keepTimeContinuous()
{
    ManualWallTimeSource wall(wallAt(kNewYear2026));
    Clock clock(wall);
    wall.advance(1s);                                    // real: +1 s
    QVERIFY(clock.setMode(ClockMode::Scaled, 60.0).ok());
    QCOMPARE(ms(clock.now()), kNewYear2026 + 1000);      // no jump at the switch
    wall.advance(2s);                                    // scaled 60x: +120 s
    QCOMPARE(ms(clock.now()), kNewYear2026 + 121'000);
    QVERIFY(clock.setMode(ClockMode::Virtual).ok());
    QCOMPARE(ms(clock.now()), kNewYear2026 + 121'000);
    wall.advance(1h);                                    // virtual: stands still
    QCOMPARE(ms(clock.now()), kNewYear2026 + 121'000);
    QVERIFY(clock.advanceBy(9s).ok());
    QCOMPARE(ms(clock.now()), kNewYear2026 + 130'000);
    QVERIFY(clock.setMode(ClockMode::Real).ok());        // continues from the virtual time, not the wall
    QCOMPARE(ms(clock.now()), kNewYear2026 + 130'000);
    wall.advance(500ms);
    QCOMPARE(ms(clock.now()), kNewYear2026 + 130'500);
    QVERIFY(clock.setMode(ClockMode::Scaled, 10.0).ok());
    QCOMPARE(clock.scale(), 10.0);
    wall.advance(100ms);
    QCOMPARE(ms(clock.now()), kNewYear2026 + 131'500);
}

void ClockTest::virtualMode_standsStillUntilAdvanced()
{
    ManualWallTimeSource wall(wallAt(123));
    Clock clock(wall, ClockMode::Virtual, 1.0, fromEpochMilliseconds(kNewYear2026));
    QCOMPARE(clock.rate(), 0.0);
    wall.advance(24h);
    QCOMPARE(ms(clock.now()), kNewYear2026);
    QVERIFY(clock.advanceTo(fromEpochMilliseconds(kNewYear2026 + 6 * 3'600'000)).ok());   // a 6-hour policy, at once
    QCOMPARE(ms(clock.now()), kNewYear2026 + 6 * 3'600'000);
    QVERIFY(clock.advanceBy(250ms).ok());
    QCOMPARE(ms(clock.now()), kNewYear2026 + 6 * 3'600'000 + 250);
    QVERIFY(clock.advanceTo(clock.now()).ok());                                          // to now: a no-op
    QCOMPARE(ms(clock.now()), kNewYear2026 + 6 * 3'600'000 + 250);
}

void ClockTest::advance_backwardsOrNegative_refusedAndUnchanged()
{
    ManualWallTimeSource wall;
    Clock clock(wall, ClockMode::Virtual, 1.0, fromEpochMilliseconds(kNewYear2026));
    const Status back = clock.advanceTo(fromEpochMilliseconds(kNewYear2026 - 1));
    QVERIFY(!back.ok());
    QCOMPARE(back.error().code, BrokerErrorCode::InvalidParameterValue);
    const Status negative = clock.advanceBy(-1ms);
    QVERIFY(!negative.ok());
    QCOMPARE(negative.error().code, BrokerErrorCode::InvalidParameterValue);
    QCOMPARE(ms(clock.now()), kNewYear2026);
}

void ClockTest::advance_outsideVirtualMode_refused()
{
    ManualWallTimeSource wall(wallAt(kNewYear2026));
    Clock clock(wall, ClockMode::Scaled, 60.0);
    const Status by = clock.advanceBy(1s);
    QVERIFY(!by.ok());
    QCOMPARE(by.error().code, BrokerErrorCode::ClockNotVirtual);
    QVERIFY(clock.setMode(ClockMode::Real).ok());
    const Status to = clock.advanceTo(fromEpochMilliseconds(kNewYear2026 + 1000));
    QVERIFY(!to.ok());
    QCOMPARE(to.error().code, BrokerErrorCode::ClockNotVirtual);
    QCOMPARE(ms(clock.now()), kNewYear2026);
}

void ClockTest::setMode_badScale_refusedAndUnchanged_data()
{
    QTest::addColumn<double>("scale");
    QTest::newRow("zero") << 0.0;
    QTest::newRow("negative") << -60.0;
    QTest::newRow("above maximum") << 2'000'000.0;
    QTest::newRow("infinite") << std::numeric_limits<double>::infinity();
    QTest::newRow("NaN") << std::numeric_limits<double>::quiet_NaN();
}

void ClockTest::setMode_badScale_refusedAndUnchanged()
{
    QFETCH(double, scale);
    ManualWallTimeSource wall(wallAt(kNewYear2026));
    Clock clock(wall);
    const Status status = clock.setMode(ClockMode::Scaled, scale);
    QVERIFY(!status.ok());
    QCOMPARE(status.error().code, BrokerErrorCode::InvalidParameterValue);
    QCOMPARE(clock.mode(), ClockMode::Real);
    QCOMPARE(clock.generation(), uint64_t(0));
}

void ClockTest::catchUpWithWallTime_onlyMovesForward()
{
    ManualWallTimeSource wall(wallAt(kNewYear2026));
    Clock clock(wall, ClockMode::Virtual);
    QVERIFY(!clock.catchUpWithWallTime());                 // virtual: never
    wall.advance(10min);                                    // paused for 10 minutes
    QVERIFY(clock.setMode(ClockMode::Real).ok());
    QCOMPARE(ms(clock.now()), kNewYear2026);                // continuous: still 10 min behind the wall
    QVERIFY(clock.catchUpWithWallTime());
    QCOMPARE(ms(clock.now()), kNewYear2026 + 600'000);

    QVERIFY(clock.setMode(ClockMode::Scaled, 60.0).ok());
    wall.advance(1min);                                     // clock +60 min, wall +1 min: clock ahead
    QVERIFY(!clock.catchUpWithWallTime());                  // would go back: no
    QCOMPARE(ms(clock.now()), kNewYear2026 + 600'000 + 3'600'000);
}

void ClockTest::wallDelayUntil_convertsClockToWallTime_data()
{
    QTest::addColumn<ClockMode>("mode");
    QTest::addColumn<double>("scale");
    QTest::addColumn<int64_t>("dueInMs");        // clock time from now
    QTest::addColumn<int64_t>("expectedWallMs"); // -1: no timer (virtual)

    QTest::newRow("real: 1 s ahead") << ClockMode::Real << 1.0 << int64_t(1000) << int64_t(1000);
    QTest::newRow("real: due now") << ClockMode::Real << 1.0 << int64_t(0) << int64_t(0);
    QTest::newRow("real: overdue") << ClockMode::Real << 1.0 << int64_t(-5000) << int64_t(0);
    QTest::newRow("60x: a clock minute is a wall second") << ClockMode::Scaled << 60.0 << int64_t(60'000) << int64_t(1000);
    QTest::newRow("60x: 1 ms rounds up") << ClockMode::Scaled << 60.0 << int64_t(1) << int64_t(1);
    QTest::newRow("60x: 61 ms rounds up to 2") << ClockMode::Scaled << 60.0 << int64_t(61) << int64_t(2);
    QTest::newRow("0.5x: twice as long") << ClockMode::Scaled << 0.5 << int64_t(1000) << int64_t(2000);
    QTest::newRow("virtual: no timer") << ClockMode::Virtual << 1.0 << int64_t(1000) << int64_t(-1);
    QTest::newRow("virtual: overdue, no timer") << ClockMode::Virtual << 1.0 << int64_t(-1000) << int64_t(-1);
}

void ClockTest::wallDelayUntil_convertsClockToWallTime()
{
    QFETCH(ClockMode, mode);
    QFETCH(double, scale);
    QFETCH(int64_t, dueInMs);
    QFETCH(int64_t, expectedWallMs);

    ManualWallTimeSource wall(wallAt(kNewYear2026));
    Clock clock(wall, mode, scale);
    const auto delay = clock.wallDelayUntil(clock.now() + ClockDuration(dueInMs));
    if (expectedWallMs < 0) {
        QVERIFY(!delay.has_value());
        return;
    }
    QVERIFY(delay.has_value());
    QCOMPARE(int64_t(delay->count()), expectedWallMs);
    // Waking after the delay finds the time due.
    const ClockTime due = clock.now() + ClockDuration(dueInMs);
    wall.advance(*delay);
    QVERIFY(clock.now() >= due);
}

void ClockTest::generation_changesWithMapping()
{
    ManualWallTimeSource wall(wallAt(kNewYear2026));
    Clock clock(wall, ClockMode::Virtual);
    const uint64_t start = clock.generation();
    wall.advance(1s);
    QCOMPARE(clock.generation(), start);                 // reading time changes nothing
    QVERIFY(clock.advanceBy(1s).ok());
    QVERIFY(clock.generation() > start);
    const uint64_t afterAdvance = clock.generation();
    QVERIFY(clock.setMode(ClockMode::Scaled, 60.0).ok());
    QVERIFY(clock.generation() > afterAdvance);
}

void ClockTest::now_concurrentReadersAndAdvancer_neverGoesBack()
{
    ManualWallTimeSource wall(wallAt(kNewYear2026));
    Clock clock(wall, ClockMode::Virtual);
    std::atomic<bool> wentBack = false;
    std::atomic<bool> done = false;
    std::vector<std::thread> readers;
    for (int r = 0; r < 3; ++r) {
        readers.emplace_back([&] {
            ClockTime last = clock.now();
            while (!done) {
                const ClockTime now = clock.now();
                if (now < last)
                    wentBack = true;
                last = now;
            }
        });
    }
    for (int i = 0; i < 20'000; ++i) {
        QVERIFY(clock.advanceBy(1ms).ok());
        if (i == 10'000)
            QVERIFY(clock.setMode(ClockMode::Virtual).ok());
    }
    done = true;
    for (std::thread &reader : readers)
        reader.join();
    QVERIFY(!wentBack);
    QCOMPARE(ms(clock.now()), kNewYear2026 + 20'000);
}

void ClockTest::clockModeName_roundTrips()
{
    for (ClockMode mode : {ClockMode::Real, ClockMode::Scaled, ClockMode::Virtual})
        QCOMPARE(parseClockMode(clockModeName(mode)), std::optional<ClockMode>(mode));
    QCOMPARE(QString::fromUtf8(clockModeName(ClockMode::Scaled).data()), QStringLiteral("scaled"));
    QVERIFY(!parseClockMode("Real").has_value());
    QVERIFY(!parseClockMode("").has_value());
}

void ClockTest::formatIso8601_knownTimes_data()
{
    QTest::addColumn<qint64>("epochMs");
    QTest::addColumn<QString>("text");

    QTest::newRow("epoch") << qint64(0) << "1970-01-01T00:00:00.000Z";
    QTest::newRow("2026 new year") << qint64(kNewYear2026) << "2026-01-01T00:00:00.000Z";
    // 2000-02-29: 10 957 days to 2000-01-01 (7 leap days), +31 +28 = 11 016 days.
    QTest::newRow("leap day with ms") << qint64(951'782'400'123) << "2000-02-29T00:00:00.123Z";
    QTest::newRow("last ms of 2025") << qint64(kNewYear2026 - 1) << "2025-12-31T23:59:59.999Z";
    QTest::newRow("before the epoch") << qint64(-1) << "1969-12-31T23:59:59.999Z";
}

void ClockTest::formatIso8601_knownTimes()
{
    QFETCH(qint64, epochMs);
    QFETCH(QString, text);
    QCOMPARE(QString::fromStdString(formatIso8601(fromEpochMilliseconds(epochMs))), text);
    QCOMPARE(parseIso8601(text.toStdString()), std::optional<ClockTime>(fromEpochMilliseconds(epochMs)));
}

void ClockTest::parseIso8601_texts_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<qint64>("epochMs");

    QTest::newRow("no fraction") << "2026-01-01T00:00:00Z" << true << qint64(kNewYear2026);
    QTest::newRow("one fraction digit") << "2026-01-01T00:00:00.5Z" << true << qint64(kNewYear2026 + 500);
    QTest::newRow("microseconds cut") << "2026-01-01T00:00:00.123999Z" << true << qint64(kNewYear2026 + 123);
    QTest::newRow("offset +01:00") << "2026-01-01T01:00:00+01:00" << true << qint64(kNewYear2026);
    QTest::newRow("offset -00:30") << "2025-12-31T23:30:00-00:30" << true << qint64(kNewYear2026);
    QTest::newRow("no zone") << "2026-01-01T00:00:00" << false << qint64(0);
    QTest::newRow("space separator") << "2026-01-01 00:00:00Z" << false << qint64(0);
    QTest::newRow("30 February") << "2026-02-30T00:00:00Z" << false << qint64(0);
    QTest::newRow("hour 24") << "2026-01-01T24:00:00Z" << false << qint64(0);
    QTest::newRow("empty fraction") << "2026-01-01T00:00:00.Z" << false << qint64(0);
    QTest::newRow("trailing text") << "2026-01-01T00:00:00Zx" << false << qint64(0);
    QTest::newRow("empty") << "" << false << qint64(0);
}

void ClockTest::parseIso8601_texts()
{
    QFETCH(QString, text);
    QFETCH(bool, valid);
    QFETCH(qint64, epochMs);
    const auto parsed = parseIso8601(text.toStdString());
    QCOMPARE(parsed.has_value(), valid);
    if (valid)
        QCOMPARE(toEpochMilliseconds(*parsed), epochMs);
}

RELAYDESK_TEST_MAIN(ClockTest)
#include "clock_test.moc"
