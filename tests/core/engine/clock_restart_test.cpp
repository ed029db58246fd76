// SPDX-License-Identifier: MIT
// Broker time never goes backwards across a restart (docs/behaviour.md §7): the
// clock mark stored with every commit, at every mode switch and advance and at
// shutdown, and where a reopened broker's clock resumes from it.
#include "broker/clock_mark.h"
#include "broker/wall_time_source.h"
#include "engine/broker_engine.h"
#include "support/engine_test_support.h"
#include "support/test_main.h"

#include <QTest>

using namespace relaydesk;
using namespace relaydesk::testing;
using namespace std::chrono_literals;

Q_DECLARE_METATYPE(std::optional<relaydesk::ClockMark>)
Q_DECLARE_METATYPE(std::optional<relaydesk::ClockTime>)
Q_DECLARE_METATYPE(relaydesk::ClockTime)
Q_DECLARE_METATYPE(relaydesk::ClockMode)

namespace {
const std::chrono::system_clock::time_point kWallStart{std::chrono::milliseconds(1'790'000'000'000)};
const ClockTime kWall = std::chrono::floor<ClockDuration>(kWallStart);

ClockTime at(ClockDuration offset) { return kWall + offset; }

BrokerEngineOptions modeOptions(ClockMode mode)
{
    BrokerEngineOptions options;
    options.clockMode = mode;
    options.changeInterval = 0ms;
    return options;
}

std::optional<ClockMark> storedMark(const QTemporaryDir &dir, const char *file)
{
    std::unique_ptr<Database> db = openDatabase(dir, file, OpenMode::ReadOnly);
    if (!db)
        return std::nullopt;
    Result<std::optional<ClockMark>> mark = readClockMark(*db);
    return mark ? *mark : std::nullopt;
}
} // namespace

class ClockRestartTest final : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;

private slots:
    void resumeClockTime_data()
    {
        QTest::addColumn<std::optional<ClockMark>>("mark");
        QTest::addColumn<ClockTime>("wallNow");
        QTest::addColumn<std::optional<ClockTime>>("start");
        QTest::addColumn<ClockMode>("mode");
        QTest::addColumn<ClockTime>("expected");
        const std::optional<ClockTime> none;
        const ClockMark warped{at(10h), at(0ms)}; // a warp left the clock 10 h ahead of the wall
        QTest::newRow("no mark: the wall time") << std::optional<ClockMark>() << at(0ms) << none << ClockMode::Real << at(0ms);
        QTest::newRow("no mark: the asked start") << std::optional<ClockMark>() << at(0ms) << std::optional(at(-5h))
                                                  << ClockMode::Virtual << at(-5h);
        QTest::newRow("warp offset kept, closed time added") << std::optional(warped) << at(1min) << none << ClockMode::Real
                                                             << at(10h + 1min);
        QTest::newRow("scaled start: offset kept") << std::optional(warped) << at(1min) << none << ClockMode::Scaled
                                                   << at(10h + 1min);
        QTest::newRow("virtual: resumes at the mark") << std::optional(warped) << at(1min) << none << ClockMode::Virtual
                                                      << at(10h);
        QTest::newRow("virtual start before the mark") << std::optional(warped) << at(1min) << std::optional(at(1h))
                                                       << ClockMode::Virtual << at(10h);
        QTest::newRow("start after the mark") << std::optional(warped) << at(1min) << std::optional(at(20h))
                                              << ClockMode::Virtual << at(20h);
        QTest::newRow("wall set back since the mark") << std::optional(warped) << at(-1h) << none << ClockMode::Real
                                                      << at(10h);
        QTest::newRow("mark behind the wall: the wall") << std::optional(ClockMark{at(-3h), at(-2h)}) << at(0ms)
                                                        << none << ClockMode::Real << at(0ms);
        QTest::newRow("mark ahead of the wall: the offset") << std::optional(ClockMark{at(-2h), at(-2h - 30min)})
                                                            << at(0ms) << none << ClockMode::Real << at(30min);
    }

    void resumeClockTime()
    {
        QFETCH(std::optional<ClockMark>, mark);
        QFETCH(ClockTime, wallNow);
        QFETCH(std::optional<ClockTime>, start);
        QFETCH(ClockMode, mode);
        QFETCH(ClockTime, expected);
        QCOMPARE(formatIso8601(relaydesk::resumeClockTime(mark, wallNow, start, mode)), formatIso8601(expected));
    }

    // The defect a user met: Warp 600× moved broker time hours ahead, Real was
    // chosen again, and reopening put the clock back at wall time.
    void warpThenReal_restartKeepsTheOffset()
    {
        ManualWallTimeSource wall(kWallStart);
        ClockTime before{};
        {
            BrokerEngine engine(openDatabase(m_dir, "warp.db"), wall, modeOptions(ClockMode::Real));
            QVERIFY(engine.setClockModeAndWait(ClockMode::Scaled, 600).ok());
            wall.advance(1min); // 10 h of broker time
            QVERIFY(engine.setClockModeAndWait(ClockMode::Real).ok());
            before = engine.clock().now();
            QCOMPARE(formatIso8601(before), formatIso8601(at(10h)));
        }
        wall.advance(2min);
        BrokerEngine reopened(openDatabase(m_dir, "warp.db"), wall, modeOptions(ClockMode::Real));
        QCOMPARE(formatIso8601(reopened.clock().now()), formatIso8601(before + 2min));
    }

    // A commit that wrote stores the mark with its work, so even a broker that
    // never shuts down cleanly resumes at or after every time it acted on.
    void everyWritingCommitStoresTheMark()
    {
        ManualWallTimeSource wall(kWallStart);
        BrokerEngine engine(openDatabase(m_dir, "commit.db"), wall, modeOptions(ClockMode::Real));
        QVERIFY(engine.setClockModeAndWait(ClockMode::Scaled, 600).ok());
        wall.advance(30s); // 5 h of broker time, nothing stored yet
        const Result<ClockTime> unitTime = engine.executeAndWait([](Database &db, ClockTime now) -> Result<ClockTime> {
            if (!insertSetting(db, "written").ok())
                return BrokerError(BrokerErrorCode::InternalError, "insert");
            return now;
        });
        QVERIFY(unitTime.ok());
        const std::optional<ClockMark> mark = storedMark(m_dir, "commit.db");
        QVERIFY(mark.has_value());
        QCOMPARE(formatIso8601(mark->clock), formatIso8601(*unitTime));
        QCOMPARE(formatIso8601(mark->wall), formatIso8601(at(30s)));

        // A unit that only reads commits no write, and no mark either.
        wall.advance(30s);
        const Result<std::int64_t> count = engine.executeAndWait([](Database &db, ClockTime) { return countSettings(db, "written"); });
        QVERIFY(count.ok());
        QCOMPARE(formatIso8601(storedMark(m_dir, "commit.db")->clock), formatIso8601(*unitTime));
    }

    // While warping with nothing to commit, stopping the engine stores the mark.
    void shutdownStoresTheMark()
    {
        ManualWallTimeSource wall(kWallStart);
        ClockTime last{};
        {
            BrokerEngine engine(openDatabase(m_dir, "stop.db"), wall, modeOptions(ClockMode::Scaled));
            QVERIFY(engine.setClockModeAndWait(ClockMode::Scaled, 60).ok());
            wall.advance(1min); // 1 h of broker time
            last = engine.clock().now();
        }
        QCOMPARE(formatIso8601(storedMark(m_dir, "stop.db")->clock), formatIso8601(last));
        BrokerEngine reopened(openDatabase(m_dir, "stop.db"), wall, modeOptions(ClockMode::Scaled));
        QVERIFY(reopened.clock().now() >= last);
    }

    // A virtual clock advanced by hours reopens where it stood, even when the
    // caller pins an earlier start.
    void virtualAdvance_restartResumesThere()
    {
        ManualWallTimeSource wall(kWallStart);
        ClockTime advanced{};
        {
            BrokerEngine engine(openDatabase(m_dir, "virtual.db"), wall, virtualClockOptions(kBenchStart));
            const Result<ClockTime> moved = engine.advanceClockAndWait(5h);
            QVERIFY(moved.ok());
            advanced = *moved;
        }
        BrokerEngine reopened(openDatabase(m_dir, "virtual.db"), wall, virtualClockOptions(kBenchStart));
        QCOMPARE(formatIso8601(reopened.clock().now()), formatIso8601(advanced));
        QCOMPARE(formatIso8601(advanced), formatIso8601(kBenchStart + 5h));
    }
};

RELAYDESK_TEST_MAIN(ClockRestartTest)
#include "clock_restart_test.moc"
