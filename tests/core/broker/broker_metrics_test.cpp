// SPDX-License-Identifier: MIT
// BrokerMetrics and its MinuteRing without an engine: the rings' windows at
// minute boundaries (data-driven), bounded memory over many minutes and many
// queues and topics created and deleted, loading the store's entities, the
// depths' refresh rule, and the counter names (the attempt log's words).
#include "broker/metrics/broker_metrics.h"

#include "broker/clock.h"
#include "broker/wall_time_source.h"
#include "support/test_main.h"

#include <QtTest>

using namespace relaydesk;
using namespace std::chrono_literals;

namespace {

const ClockTime kStart = fromEpochMilliseconds(1'800'000'000'000); // a whole minute

ClockTime atMinute(double minute)
{
    return kStart + ClockDuration(static_cast<std::int64_t>(minute * 60000));
}

MetricEvent queueEvent(QueueCounter counter, const std::string &name, std::int64_t count = 1)
{
    return MetricEvent{MetricEvent::Entity::Queue, int(counter), name, count};
}

MetricEvent topicEvent(TopicCounter counter, const std::string &name, std::int64_t count = 1)
{
    return MetricEvent{MetricEvent::Entity::Topic, int(counter), name, count};
}

} // namespace

class BrokerMetricsCoreTest final : public QObject {
    Q_OBJECT

private slots:
    void minuteRing_windows_data()
    {
        QTest::addColumn<double>("addedAt");  // minutes after the start
        QTest::addColumn<double>("readAt");
        QTest::addColumn<int>("window");      // minutes
        QTest::addColumn<int>("expected");
        QTest::newRow("same minute") << 0.0 << 0.9 << 5 << 1;
        QTest::newRow("4.9 minutes on, 5-minute window") << 0.5 << 4.9 << 5 << 1;
        QTest::newRow("5 minutes on, 5-minute window") << 0.0 << 5.0 << 5 << 0;
        QTest::newRow("14 minutes on, 15-minute window") << 0.0 << 14.0 << 15 << 1;
        QTest::newRow("59 minutes on, hour") << 0.0 << 59.99 << 60 << 1;
        QTest::newRow("60 minutes on, hour") << 0.0 << 60.0 << 60 << 0;
        QTest::newRow("a window wider than the ring is the hour") << 0.0 << 10.0 << 500 << 1;
    }
    void minuteRing_windows()
    {
        QFETCH(double, addedAt);
        QFETCH(double, readAt);
        QFETCH(int, window);
        QFETCH(int, expected);
        MinuteRing ring;
        ring.add(atMinute(addedAt), 1);
        QCOMPARE(ring.inLast(window, atMinute(readAt)), std::int64_t(expected));
        QCOMPARE(ring.total(), std::int64_t(1));
    }

    void minuteRing_laterAddClearsSkippedMinutes()
    {
        MinuteRing ring;
        ring.add(atMinute(0), 5);
        ring.add(atMinute(60), 2);      // the same slot an hour later
        QCOMPARE(ring.inLast(60, atMinute(60)), std::int64_t(2));
        ring.add(atMinute(200), 1);     // far later: everything before is out
        QCOMPARE(ring.inLast(60, atMinute(200)), std::int64_t(1));
        ring.add(atMinute(199.5), 3);   // a little late (an earlier unit's time): its own minute
        QCOMPARE(ring.inLast(1, atMinute(200)), std::int64_t(1));
        QCOMPARE(ring.inLast(2, atMinute(200)), std::int64_t(4));
        ring.add(atMinute(100), 7);     // over an hour late: the total only
        QCOMPARE(ring.inLast(60, atMinute(200)), std::int64_t(4));
        QCOMPARE(ring.total(), std::int64_t(18));
        const auto hour = ring.lastHour(atMinute(200));
        QCOMPARE(hour.back(), std::int64_t(1));
        QCOMPARE(hour[58], std::int64_t(3));
    }

    void manyMinutesAndEntities_boundedSeries()
    {
        ManualWallTimeSource wall;
        Clock clock(wall, ClockMode::Virtual, 1.0, kStart);
        BrokerMetrics metrics(clock);
        // Ten days of minutes; every minute a new queue and topic appear,
        // are counted, and the one before goes.
        constexpr int kMinutes = 10 * 24 * 60;
        for (int minute = 0; minute < kMinutes; ++minute) {
            const std::string name = "q" + std::to_string(minute);
            metrics.addQueue(name);
            metrics.addTopic(name);
            metrics.record({queueEvent(QueueCounter::Sent, name, 2), topicEvent(TopicCounter::Published, name)},
                           atMinute(minute));
            if (minute > 0) {
                metrics.removeQueue("q" + std::to_string(minute - 1));
                metrics.removeTopic("q" + std::to_string(minute - 1));
            }
        }
        const MetricsSnapshot snapshot = metrics.snapshotAt(atMinute(kMinutes - 1));
        QCOMPARE(snapshot.queues.size(), std::size_t(1)); // only the live ones
        QCOMPARE(snapshot.topics.size(), std::size_t(1));
        QCOMPARE(snapshot.total(QueueCounter::Sent).total, std::int64_t(2 * kMinutes));
        QCOMPARE(snapshot.total(QueueCounter::Sent).inWindow, (std::array<std::int64_t, 3>{10, 30, 120}));
        QCOMPARE(snapshot.total(TopicCounter::Published).inWindow, (std::array<std::int64_t, 3>{5, 15, 60}));
        // Each series is a fixed ring of an hour, whatever the run time.
        static_assert(sizeof(MinuteRing) <= (MinuteRing::kMinutes + 3) * sizeof(std::int64_t));
    }

    void loadEntities_keepsCountersOfThoseThatStay()
    {
        ManualWallTimeSource wall;
        Clock clock(wall, ClockMode::Virtual, 1.0, kStart);
        BrokerMetrics metrics(clock);
        QVERIFY(!metrics.entitiesLoaded());
        metrics.record({queueEvent(QueueCounter::Sent, "stays", 3), queueEvent(QueueCounter::Sent, "gone")}, kStart);
        EntityOverview overview;
        QueueOverview stays;
        stays.name = "stays";
        stays.counts = QueueCounts{3, 0, 0, 0, 0};
        QueueOverview fresh;
        fresh.name = "fresh";
        fresh.counts = QueueCounts{0, 0, 1, 0, 0};
        fresh.nextVisible = atMinute(1);
        overview.queues = {fresh, stays};
        overview.topics = {TopicOverview{"news", false, {}}};
        metrics.loadEntities(overview, kStart);
        QVERIFY(metrics.entitiesLoaded());
        const MetricsSnapshot snapshot = metrics.snapshotAt(kStart);
        QCOMPARE(snapshot.queues.size(), std::size_t(2));
        QCOMPARE(snapshot.queue("stays")->counters[0].total, std::int64_t(3));
        QCOMPARE(snapshot.queue("stays")->depths.available, std::int64_t(3));
        QVERIFY(!snapshot.queue("gone"));
        QCOMPARE(snapshot.total(QueueCounter::Sent).total, std::int64_t(4)); // totals keep what went
        QVERIFY(snapshot.topic("news"));
        // The refresh rule: nothing stale now; "fresh" once its delay ends, "stays" once marked.
        QVERIFY(metrics.queuesToRefresh(kStart).empty());
        QCOMPARE(metrics.queuesToRefresh(atMinute(1)), std::vector<std::string>{"fresh"});
        metrics.markStale("stays");
        QCOMPARE(metrics.queuesToRefresh(kStart), std::vector<std::string>{"stays"});
        metrics.setDepths("stays", QueueCounts{2, 1, 0, 0, 0}, atMinute(0.5), kStart);
        QVERIFY(metrics.queuesToRefresh(kStart).empty());
        metrics.setDepths("unknown", QueueCounts{}, std::nullopt, kStart); // deleted meanwhile: ignored
        QVERIFY(!metrics.snapshotAt(kStart).queue("unknown"));
    }

    void afterLoad_goneEntityCountsOnlyInTotals()
    {
        ManualWallTimeSource wall;
        Clock clock(wall, ClockMode::Virtual, 1.0, kStart);
        BrokerMetrics metrics(clock);
        metrics.loadEntities(EntityOverview{}, kStart);
        // A delivery in flight when its topic went, a count racing a deleted queue.
        metrics.record({topicEvent(TopicCounter::Retryable, "gone"), queueEvent(QueueCounter::Sent, "gone")}, kStart);
        metrics.markStale("gone");
        MetricsSnapshot snapshot = metrics.snapshotAt(kStart);
        QVERIFY(snapshot.queues.empty());
        QVERIFY(snapshot.topics.empty());
        QCOMPARE(snapshot.total(TopicCounter::Retryable).total, std::int64_t(1));
        QCOMPARE(snapshot.total(QueueCounter::Sent).total, std::int64_t(1));
        metrics.addQueue("new"); // created: appears, its depths to be read
        metrics.record({queueEvent(QueueCounter::Sent, "new")}, kStart);
        QCOMPARE(metrics.snapshotAt(kStart).queue("new")->counters[0].total, std::int64_t(1));
        QCOMPARE(metrics.queuesToRefresh(kStart), std::vector<std::string>{"new"});
    }

    // queuesToRefresh keeps an index beside the series: a queue's old
    // visibility time goes when a read gives a new one, a removed queue
    // leaves it, a re-added one is to be read again.
    void refreshIndex_followsReadsAndRemovals()
    {
        ManualWallTimeSource wall;
        Clock clock(wall, ClockMode::Virtual, 1.0, kStart);
        BrokerMetrics metrics(clock);
        metrics.loadEntities(EntityOverview{}, kStart);
        metrics.addQueue("a");
        metrics.addQueue("b");
        QCOMPARE(metrics.queuesToRefresh(kStart), (std::vector<std::string>{"a", "b"}));
        metrics.setDepths("a", QueueCounts{}, atMinute(1), kStart);
        metrics.setDepths("b", QueueCounts{}, atMinute(2), kStart);
        QVERIFY(metrics.queuesToRefresh(kStart).empty());
        metrics.setDepths("a", QueueCounts{}, atMinute(3), kStart); // its minute-1 time is gone
        QVERIFY(metrics.queuesToRefresh(atMinute(1)).empty());
        QCOMPARE(metrics.queuesToRefresh(atMinute(2)), std::vector<std::string>{"b"});
        QCOMPARE(metrics.queuesToRefresh(atMinute(3)), (std::vector<std::string>{"a", "b"}));
        metrics.markStale("b"); // stale and due: named once
        QCOMPARE(metrics.queuesToRefresh(atMinute(3)), (std::vector<std::string>{"a", "b"}));
        metrics.removeQueue("a");
        QCOMPARE(metrics.queuesToRefresh(atMinute(3)), std::vector<std::string>{"b"});
        metrics.addQueue("a");
        QCOMPARE(metrics.queuesToRefresh(kStart), (std::vector<std::string>{"a", "b"}));
        metrics.setDepths("b", QueueCounts{}, std::nullopt, kStart);
        QCOMPARE(metrics.queuesToRefresh(atMinute(9)), std::vector<std::string>{"a"});
    }

    void counterNames_areTheAttemptLogWords()
    {
        QCOMPARE(queueCounterName(QueueCounter::Sent), std::string_view("sent"));
        QCOMPARE(queueCounterName(QueueCounter::Deleted), std::string_view("deleted"));
        for (AttemptOutcome outcome : {AttemptOutcome::Delivered, AttemptOutcome::Retryable, AttemptOutcome::Permanent,
                                       AttemptOutcome::Timeout, AttemptOutcome::ConnectionError,
                                       AttemptOutcome::ThrottledWait})
            QCOMPARE(topicCounterName(topicCounterOf(outcome)), attemptOutcomeName(outcome));
        for (DeliveryEnd end : {DeliveryEnd::DeadLettered, DeliveryEnd::Discarded})
            QCOMPARE(topicCounterName(*topicCounterOf(end)), deliveryEndName(end));
        QVERIFY(!topicCounterOf(DeliveryEnd::Delivered));
        QVERIFY(!topicCounterOf(DeliveryEnd::Confirmed));
    }
};

RELAYDESK_TEST_MAIN(BrokerMetricsCoreTest)
#include "broker_metrics_test.moc"
