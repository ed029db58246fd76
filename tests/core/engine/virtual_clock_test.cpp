// SPDX-License-Identifier: MIT
// Tests of the engine's virtual clock (docs/behaviour.md §7): nothing fires until an
// advance; an advance moves the clock to each due time in order, runs what is
// due there (also what callbacks schedule within the window) and replies only
// after all of it ran and its store work committed.
#include "engine/broker_engine.h"

#include "broker/wall_time_source.h"
#include "engine/clock_scheduler.h"
#include "support/engine_test_support.h"
#include "support/test_main.h"

#include <QTest>

#include <mutex>
#include <vector>

using namespace relaydesk;
using namespace relaydesk::testing;
using namespace std::chrono_literals;

namespace {
const ClockTime kStart = fromEpochMilliseconds(1'800'000'000'000);

BrokerEngineOptions virtualOptions()
{
    BrokerEngineOptions options;
    options.clockMode = ClockMode::Virtual;
    options.clockStart = kStart;
    return options;
}

// What the callbacks saw, written on the broker thread, read by the test after a round trip.
struct Record {
    std::mutex mutex;
    std::vector<int> fired;
    std::vector<ClockTime> unitTimes;
    std::vector<std::int64_t> seenBefore;
    void add(int tag)
    {
        std::lock_guard lock(mutex);
        fired.push_back(tag);
    }
};
} // namespace

class VirtualClockTest final : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    ManualWallTimeSource m_wall;

    // Schedules, on the broker thread, a callback at kStart + `offset` that
    // records `tag` and runs a unit inserting "t<tag>" which records its clock
    // time and how many earlier "t" rows it saw committed.
    static void scheduleRecording(BrokerEngine &engine, Record &record, ClockDuration offset, int tag)
    {
        engine.postAndWait([&engine, &record, offset, tag] {
            engine.scheduler().schedule(kStart + offset, [&engine, &record, tag](ClockTime) {
                record.add(tag);
                engine.execute(
                    [&record, tag](Database &db, ClockTime now) -> Result<std::int64_t> {
                        const Result<std::int64_t> before = countSettings(db, "t%");
                        {
                            std::lock_guard lock(record.mutex);
                            record.unitTimes.push_back(now);
                            record.seenBefore.push_back(before.ok() ? *before : -1);
                        }
                        return insertSetting(db, "t" + std::to_string(tag));
                    },
                    nullptr, [](Result<std::int64_t>) {});
            });
        });
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void advance_firesInDueOrderAndRepliesAfterCommit()
    {
        BrokerEngine engine(openDatabase(m_dir, "order.db"), m_wall, virtualOptions());
        Record record;
        scheduleRecording(engine, record, 5s, 5);
        scheduleRecording(engine, record, 1s, 1);
        scheduleRecording(engine, record, 3s, 3);

        const Result<ClockTime> advanced = engine.advanceClockAndWait(10s);
        QVERIFY(advanced.ok());
        QCOMPARE(*advanced, kStart + 10s);
        QCOMPARE(engine.clock().now(), kStart + 10s);

        std::lock_guard lock(record.mutex);
        QCOMPARE(record.fired, (std::vector<int>{1, 3, 5}));
        QCOMPARE(record.unitTimes, (std::vector<ClockTime>{kStart + 1s, kStart + 3s, kStart + 5s}));
        QCOMPARE(record.seenBefore, (std::vector<std::int64_t>{0, 1, 2})); // each step saw the earlier commits
        auto reader = openDatabase(m_dir, "order.db", OpenMode::ReadOnly);
        QVERIFY(reader);
        QCOMPARE(*countSettings(*reader, "t%"), 3); // committed by the time of the reply
    }

    void callbackScheduledWithinWindow_alsoRuns()
    {
        BrokerEngine engine(openDatabase(m_dir, "chain.db"), m_wall, virtualOptions());
        Record record;
        engine.postAndWait([&engine, &record] {
            engine.scheduler().schedule(kStart + 1s, [&engine, &record](ClockTime now) {
                record.add(1);
                engine.scheduler().schedule(now + 1s, [&record](ClockTime) { record.add(2); });
                engine.scheduler().schedule(now + 20s, [&record](ClockTime) { record.add(21); }); // beyond the window
            });
            engine.scheduler().schedule(kStart + 3s, [&record](ClockTime) { record.add(3); });
        });
        QVERIFY(engine.advanceClockAndWait(10s).ok());
        {
            std::lock_guard lock(record.mutex);
            QCOMPARE(record.fired, (std::vector<int>{1, 2, 3}));
        }
        QVERIFY(engine.advanceClockAndWait(11s).ok()); // to kStart + 21 s
        std::lock_guard lock(record.mutex);
        QCOMPARE(record.fired, (std::vector<int>{1, 2, 3, 21}));
    }

    void nothingFires_withoutAdvance()
    {
        BrokerEngine engine(openDatabase(m_dir, "still.db"), m_wall, virtualOptions());
        Record record;
        scheduleRecording(engine, record, 1s, 1);
        m_wall.advance(std::chrono::hours(1)); // wall time passing moves nothing
        // Round trips through the broker thread's event loop and the commit path.
        for (int i = 0; i < 3; ++i) {
            engine.postAndWait([] {});
            QVERIFY(engine.executeAndWait([](Database &, ClockTime) { return Result<int>(0); }).ok());
        }
        QCOMPARE(engine.clock().now(), kStart);
        std::size_t pending = 0;
        engine.postAndWait([&] { pending = engine.scheduler().pendingCount(); });
        QCOMPARE(pending, std::size_t(1));
        std::lock_guard lock(record.mutex);
        QVERIFY(record.fired.empty());
    }

    void advanceInRealMode_isClockNotVirtual()
    {
        BrokerEngine engine(openDatabase(m_dir, "real.db"), m_wall);
        const Result<ClockTime> refused = engine.advanceClockAndWait(1s);
        QVERIFY(!refused.ok());
        QCOMPARE(refused.error().code, BrokerErrorCode::ClockNotVirtual);
        QVERIFY(!engine.advanceClockAndWait(-1s).ok());
    }

    void advanceReply_toContextAndQueuedAdvances()
    {
        BrokerEngine engine(openDatabase(m_dir, "queued.db"), m_wall, virtualOptions());
        std::vector<ClockTime> replies;
        engine.advanceClock(2s, this, [&replies](Result<ClockTime> r) { replies.push_back(r.ok() ? *r : ClockTime{}); });
        engine.advanceClockTo(kStart + 5s, this, [&replies](Result<ClockTime> r) { replies.push_back(r.ok() ? *r : ClockTime{}); });
        QTRY_COMPARE_WITH_TIMEOUT(replies.size(), std::size_t(2), 30000);
        QCOMPARE(replies, (std::vector<ClockTime>{kStart + 2s, kStart + 5s}));
    }

    void heldAdvance_waitsForAsynchronousWork()
    {
        BrokerEngine engine(openDatabase(m_dir, "hold.db"), m_wall, virtualOptions());
        Record record;
        std::shared_ptr<void> hold;
        engine.postAndWait([&] {
            engine.scheduler().schedule(kStart + 1s, [&](ClockTime) {
                record.add(1);
                hold = engine.holdAdvance(); // e.g. an HTTP request goes out
            });
            engine.scheduler().schedule(kStart + 3s, [&record](ClockTime) { record.add(3); });
        });
        std::optional<Result<ClockTime>> reply;
        engine.advanceClock(10s, this, [&reply](Result<ClockTime> r) { reply.emplace(std::move(r)); });
        for (int i = 0; i < 3; ++i) // let every step the advance posted run
            engine.postAndWait([] {});
        QCOMPARE(engine.clock().now(), kStart + 1s);
        {
            std::lock_guard lock(record.mutex);
            QCOMPARE(record.fired, (std::vector<int>{1}));
        }
        QCoreApplication::processEvents();
        QVERIFY(!reply);

        hold.reset(); // the response came back
        QTRY_VERIFY_WITH_TIMEOUT(reply.has_value(), 30000);
        QVERIFY(reply->ok());
        QCOMPARE(**reply, kStart + 10s);
        std::lock_guard lock(record.mutex);
        QCOMPARE(record.fired, (std::vector<int>{1, 3}));
    }

    void modeSwitch_rearmsTimer()
    {
        BrokerEngine engine(openDatabase(m_dir, "rearm.db"), m_wall, virtualOptions());
        std::optional<std::chrono::milliseconds> armed;
        engine.postAndWait([&] {
            engine.scheduler().schedule(kStart + 60s, [](ClockTime) {});
            armed = engine.scheduler().armedDelay();
        });
        QVERIFY(!armed);
        QVERIFY(engine.setClockModeAndWait(ClockMode::Scaled, 60.0).ok());
        engine.postAndWait([&] { armed = engine.scheduler().armedDelay(); });
        QCOMPARE(armed, std::optional(1000ms));
        QVERIFY(engine.setClockModeAndWait(ClockMode::Virtual).ok());
        engine.postAndWait([&] { armed = engine.scheduler().armedDelay(); });
        QVERIFY(!armed);
    }
};

RELAYDESK_TEST_MAIN(VirtualClockTest)
#include "virtual_clock_test.moc"
