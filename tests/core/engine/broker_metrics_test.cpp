// SPDX-License-Identifier: MIT
// BrokerMetrics fed by a real engine on a virtual clock: what the
// service did is what the counters say — sends (single, batch, fan-out),
// receives, deletes, publishes and HTTP/S deliveries by outcome against a
// scripted endpoint; the 5/15/60-minute windows drop what fell out of them
// as the clock advances (data-driven); the depths follow the queue; a
// deleted queue's series goes while the totals keep its counts; a failed
// unit counts nothing; the depths equal a full count of the queue as the
// virtual clock moves (delays, schedules, locks and retention ending by
// time alone), and counters found wrong at start are repaired and logged.
#include "broker/metrics/broker_metrics.h"

#include "broker/id_source.h"
#include "broker/queues/queue_depths.h"
#include "broker/store_calls.h"
#include "broker/wall_time_source.h"
#include "engine/delivery_worker.h"
#include "engine/metrics_recording.h"
#include "support/engine_test_support.h"

#include "support/script_endpoint.h"
#include "support/test_main.h"

#include <QRegularExpression>
#include <QTest>

#include <chrono>
#include <future>
#include <memory>
#include <vector>

using namespace relaydesk;
using namespace relaydesk::testing;
using namespace std::chrono_literals;

namespace {

using Burst = std::pair<int, int>; // (clock minute after the start, messages sent then)
using Bursts = std::vector<Burst>;
using Windows = std::array<std::int64_t, 3>;

void refreshDepths(BrokerEngine &engine)
{
    std::promise<void> done;
    refreshQueueDepths(engine, nullptr, [&done] { done.set_value(); });
    done.get_future().wait();
}

// A policy of two immediate retries (three attempts), no waiting.
const char *const kTwoImmediate =
    R"({"healthyRetryPolicy":{"numRetries":2,"numNoDelayRetries":2,"minDelayTarget":1,"maxDelayTarget":1}})";

// The depths of `queue` by a walk over all its messages, in a unit at the clock's now.
Result<QueueDepths> countedFully(BrokerEngine &engine, const std::string &queue)
{
    return engine.executeAndWait([queue](Database &db, ClockTime now) -> Result<QueueDepths> {
        Result<std::optional<std::int64_t>> id = selectOptionalInt64(db, "SELECT id FROM queues WHERE name = ?", queue);
        if (!id)
            return id.error();
        return queue_depths::countEveryMessage(db, id->value_or(0), now);
    });
}

} // namespace

Q_DECLARE_METATYPE(Bursts)
Q_DECLARE_METATYPE(Windows)
Q_DECLARE_METATYPE(relaydesk::QueueCounts)

class BrokerMetricsTest final : public QObject {
    Q_OBJECT

private:
    ServiceBenchSeries m_benches{"metrics"};

    ServiceBench &bench() { return m_benches.bench(); }
    BrokerService &service() { return bench().service(); }
    MetricsSnapshot snapshot() { return bench().engine().metrics().snapshot(); }

    bool sendBatch(const std::string &queue, int count)
    {
        std::vector<BatchEntry<SendRequest>> entries;
        for (int i = 0; i < count; ++i)
            entries.push_back({"e" + std::to_string(i), message("batch " + std::to_string(i))});
        return bench()
            .call<std::vector<BatchEntryResult<SendReceipt>>>(
                [&](auto reply) { service().sendMessageBatch(queue, entries, nullptr, reply); })
            .ok();
    }
    bool remove(const std::string &queue, const std::string &handle)
    {
        return bench().callStatus([&](auto reply) { service().deleteMessage(queue, handle, nullptr, reply); }).ok();
    }
    bool publish(const std::string &topic, const std::string &text)
    {
        PublishRequest request;
        request.message = text;
        return bench().call<PublishReceipt>([&](auto reply) { service().publish(topic, request, nullptr, reply); }).ok();
    }

private slots:
    void init() { m_benches.open(); }
    void cleanup() { m_benches.close(); }

    void rateWindows_dropWhatFellOut_data()
    {
        QTest::addColumn<Bursts>("bursts");
        QTest::addColumn<int>("endMinute");
        QTest::addColumn<Windows>("inWindows"); // last 5, 15, 60 minutes
        QTest::addColumn<int>("total");
        QTest::newRow("all in the current minute") << Bursts{{0, 3}} << 0 << Windows{3, 3, 3} << 3;
        QTest::newRow("4 minutes on: still in the 5-minute window") << Bursts{{0, 3}} << 4 << Windows{3, 3, 3} << 3;
        QTest::newRow("7 minutes on: out of the 5-minute window") << Bursts{{0, 3}} << 7 << Windows{0, 3, 3} << 3;
        QTest::newRow("two bursts, 7 minutes apart") << Bursts{{0, 3}, {7, 2}} << 7 << Windows{2, 5, 5} << 5;
        QTest::newRow("20 minutes on: only the hour") << Bursts{{0, 4}, {10, 1}} << 20 << Windows{0, 1, 5} << 5;
        QTest::newRow("61 minutes on: only the total") << Bursts{{0, 4}} << 61 << Windows{0, 0, 0} << 4;
        QTest::newRow("a burst every minute for 70 minutes")
            << [] { Bursts b; for (int m = 0; m < 70; ++m) b.push_back({m, 1}); return b; }() << 69
            << Windows{5, 15, 60} << 70;
    }
    void rateWindows_dropWhatFellOut()
    {
        QFETCH(Bursts, bursts);
        QFETCH(int, endMinute);
        QFETCH(Windows, inWindows);
        QFETCH(int, total);
        QVERIFY(bench().createQueue("orders"));
        int minute = 0;
        for (const auto &[at, count] : bursts) {
            if (at > minute)
                QVERIFY(bench().engine().advanceClockAndWait(std::chrono::minutes(at - minute)));
            minute = at;
            for (int i = 0; i < count; ++i)
                QVERIFY(bench().send("orders", message("m")).ok());
        }
        if (endMinute > minute)
            QVERIFY(bench().engine().advanceClockAndWait(std::chrono::minutes(endMinute - minute)));
        const MetricsSnapshot now = snapshot();
        const QueueMetrics *orders = now.queue("orders");
        QVERIFY(orders);
        QCOMPARE((*orders)[QueueCounter::Sent].inWindow, inWindows);
        QCOMPARE((*orders)[QueueCounter::Sent].total, std::int64_t(total));
        QCOMPARE(now.total(QueueCounter::Sent), (*orders)[QueueCounter::Sent]);
        QCOMPARE(now.queueTotalsByMinute[0].back(), std::int64_t(endMinute == minute ? bursts.back().second : 0));
        QCOMPARE((*orders)[QueueCounter::Sent].perMinute(0), double(inWindows[0]) / 5.0);
    }

    void sendReceiveDelete_countedPerQueue_depthsFollow()
    {
        QVERIFY(bench().createQueue("orders"));
        QVERIFY(bench().createQueue("audit"));
        for (int i = 0; i < 3; ++i)
            QVERIFY(bench().send("orders", message("o" + std::to_string(i))).ok());
        QVERIFY(sendBatch("orders", 4));
        QVERIFY(bench().send("audit", message("a")).ok());
        auto received = bench().receive("orders"); // up to 10, locked 30 s
        QVERIFY(received.ok());
        QCOMPARE(received->messages.size(), std::size_t(7));
        QVERIFY(remove("orders", received->messages[0].receiptHandle));
        QVERIFY(remove("orders", received->messages[1].receiptHandle));
        refreshDepths(bench().engine());

        const MetricsSnapshot now = snapshot();
        const QueueMetrics *orders = now.queue("orders");
        const QueueMetrics *audit = now.queue("audit");
        QVERIFY(orders && audit);
        QCOMPARE((*orders)[QueueCounter::Sent].total, std::int64_t(7));
        QCOMPARE((*orders)[QueueCounter::Received].total, std::int64_t(7));
        QCOMPARE((*orders)[QueueCounter::Deleted].total, std::int64_t(2));
        QCOMPARE((*audit)[QueueCounter::Sent].total, std::int64_t(1));
        QCOMPARE((*audit)[QueueCounter::Received].total, std::int64_t(0));
        QCOMPARE(now.total(QueueCounter::Sent).total, std::int64_t(8));
        QCOMPARE(orders->depths, (QueueCounts{0, 5, 0, 0, 0}));
        QCOMPARE(audit->depths, (QueueCounts{1, 0, 0, 0, 0}));
        QCOMPARE(now.depthTotals, (QueueCounts{1, 5, 0, 0, 0}));
        QVERIFY(orders->depthsAt.has_value());

        // The locks end by time alone: the next refresh sees them available again.
        QVERIFY(bench().engine().advanceClockAndWait(31s));
        refreshDepths(bench().engine());
        QCOMPARE(bench().engine().metrics().snapshot().queue("orders")->depths, (QueueCounts{5, 0, 0, 0, 0}));
    }

    // The states that change by time alone, one clock step after another:
    // after each, a refresh gives exactly what a full count gives.
    void depths_followTheVirtualClock_matchFullCount_data()
    {
        QTest::addColumn<int>("seconds");     // the clock, after the start
        QTest::addColumn<QueueCounts>("depths");
        // At 0: "now" available; "locked" in flight until 10; "later" delayed
        // until 20; "planned" scheduled at 30; "brief" available, expiring at 40.
        QTest::newRow("start") << 0 << QueueCounts{2, 1, 1, 1, 0};
        QTest::newRow("lock ended") << 10 << QueueCounts{3, 0, 1, 1, 0};
        QTest::newRow("delay ended") << 20 << QueueCounts{4, 0, 0, 1, 0};
        QTest::newRow("schedule reached") << 30 << QueueCounts{5, 0, 0, 0, 0};
        QTest::newRow("retention ended") << 41 << QueueCounts{4, 0, 0, 0, 0};
    }
    void depths_followTheVirtualClock_matchFullCount()
    {
        QFETCH(int, seconds);
        QFETCH(QueueCounts, depths);
        BrokerEngine &engine = bench().engine();
        QVERIFY(bench().createQueue("clocked"));
        QVERIFY(bench().send("clocked", message("locked")).ok());
        QCOMPARE(bench().receive("clocked", 10)->messages.size(), std::size_t(1));
        QVERIFY(bench().send("clocked", message("now")).ok());
        SendRequest later = message("later");
        later.delaySeconds = 20;
        QVERIFY(bench().send("clocked", later).ok());
        SendRequest planned = message("planned");
        planned.scheduledEnqueueTime = engine.clock().now() + 30s;
        QVERIFY(bench().send("clocked", planned).ok());
        SendRequest brief = message("brief");
        brief.timeToLiveSeconds = 40;
        QVERIFY(bench().send("clocked", brief).ok());
        if (seconds > 0)
            QVERIFY(engine.advanceClockAndWait(std::chrono::seconds(seconds)));
        refreshDepths(engine);
        const MetricsSnapshot now = snapshot();   // kept: `clocked` points into it
        const QueueMetrics *clocked = now.queue("clocked");
        QVERIFY(clocked);
        QCOMPARE(clocked->depths, depths);
        Result<QueueDepths> counted = countedFully(engine, "clocked");
        QVERIFY(counted.ok());
        QCOMPARE(clocked->depths, counted->counts);
    }

    // Counters that disagree with the messages (here: altered by hand) are
    // rewritten from a full count at the next start, and the log says so.
    void startCheck_wrongCounters_repairedAndLogged()
    {
        QVERIFY(bench().createQueue("tampered"));
        QVERIFY(bench().send("tampered", message("a")).ok());
        QVERIFY(bench().send("tampered", message("b")).ok());
        QVERIFY(bench().engine().executeAndWait([](Database &db, ClockTime) -> Result<bool> {
            if (Status changed = executeStatement(db, "UPDATE queues SET depth_stored = 7"); !changed)
                return changed.error();
            return true;
        }));
        m_benches.reopen();
        QTest::ignoreMessage(QtWarningMsg,
                             QRegularExpression("queue depths: the counters of queue tampered differed from a full count "
                                                "and were repaired \\(kept: available 7,.*counted: available 2,.*\\)"));
        refreshDepths(bench().engine());
        QCOMPARE(snapshot().queue("tampered")->depths, (QueueCounts{2, 0, 0, 0, 0}));
        // Repaired in the store: the next start finds nothing to say.
        m_benches.reopen();
        QTest::failOnWarning(QRegularExpression("queue depths"));
        refreshDepths(bench().engine());
        QCOMPARE(snapshot().queue("tampered")->depths, (QueueCounts{2, 0, 0, 0, 0}));
    }

    void publish_countedOnTopic_fanOutSentToQueues()
    {
        QVERIFY(bench().createTopic("news"));
        QVERIFY(bench().createQueue("inbox"));
        QVERIFY(bench().subscribe("news", "sqs", bench().identity().queueArn("inbox")).ok());
        QVERIFY(publish("news", "one"));
        QVERIFY(publish("news", "two"));
        const MetricsSnapshot now = snapshot();
        QCOMPARE((*now.topic("news"))[TopicCounter::Published].total, std::int64_t(2));
        QCOMPARE((*now.queue("inbox"))[QueueCounter::Sent].total, std::int64_t(2));
        QCOMPARE(now.total(TopicCounter::Delivered).total, std::int64_t(0)); // sqs fan-out is not an HTTP delivery
    }

    void deletedQueue_seriesGoes_totalsKeep()
    {
        QVERIFY(bench().createQueue("brief"));
        QVERIFY(bench().createTopic("short"));
        QVERIFY(bench().send("brief", message("x")).ok());
        QVERIFY(publish("short", "y"));
        QVERIFY(snapshot().queue("brief"));
        QVERIFY(bench().callStatus([&](auto reply) { service().deleteQueue("brief", nullptr, reply); }).ok());
        QVERIFY(bench().callStatus([&](auto reply) { service().deleteTopic("short", nullptr, reply); }).ok());
        const MetricsSnapshot now = snapshot();
        QVERIFY(!now.queue("brief"));
        QVERIFY(!now.topic("short"));
        QCOMPARE(now.total(QueueCounter::Sent).total, std::int64_t(1));
        QCOMPARE(now.total(TopicCounter::Published).total, std::int64_t(1));
    }

    void refusedOperation_countsNothing()
    {
        QVERIFY(!bench().send("missing", message("x")).ok());
        QVERIFY(!publish("missing", "x"));
        const MetricsSnapshot now = snapshot();
        QCOMPARE(now.total(QueueCounter::Sent).total, std::int64_t(0));
        QCOMPARE(now.total(TopicCounter::Published).total, std::int64_t(0));
        QVERIFY(now.queues.empty());
    }

    void firstRefresh_readsEntitiesFromStore()
    {
        QVERIFY(bench().createQueue("kept"));
        QVERIFY(bench().createTopic("told"));
        QVERIFY(bench().send("kept", message("x")).ok());
        // A second engine over the same file: counters from zero, depths from the store.
        const std::string path = bench().engine().databasePath();
        m_benches.close();
        SystemWallTimeSource wall;
        DatabaseOptions options;
        auto database = Database::open(path, options);
        QVERIFY(database.ok());
        BrokerEngine engine(std::move(database).value(), wall, virtualClockOptions());
        QVERIFY(engine.metrics().snapshot().queues.empty());
        refreshDepths(engine);
        const MetricsSnapshot now = engine.metrics().snapshot();
        QCOMPARE(now.queues.size(), std::size_t(1));
        QCOMPARE(now.queues[0].name, std::string("kept"));
        QCOMPARE(now.queues[0].depths.available, std::int64_t(1));
        QCOMPARE(now.queues[0][QueueCounter::Sent].total, std::int64_t(0));
        QCOMPARE(now.topics.size(), std::size_t(1));
        engine.stop();
        m_benches.open();
    }

    void httpDeliveries_countedByOutcome()
    {
        // Answers, on a worker whose request timeout only ends a hang: an
        // endpoint failing twice then answering, then refusing.
        SystemWallTimeSource wall;
        ScriptEndpoint endpoint(&bench().engine().clock());
        endpoint.setScript({respond(503), respond(503), respond(200), respond(400)});
        DeliveryWorkerOptions options;
        options.jitterFraction = 0;
        options.requestTimeout = 60s; // wall time: a bound on a hang, never on an answer
        auto answering = std::make_unique<DeliveryWorker>(bench().engine(), wall, BrokerIdentity{}, options);
        answering->start();
        service().setDeliveryWorker(answering.get());
        QVERIFY(bench().createTopic("orders"));
        QVERIFY(bench()
                    .call<SubscribeReceipt>([&](auto reply) {
                        service().subscribe("orders", "http", endpoint.url(), {{"DeliveryPolicy", kTwoImmediate}}, true,
                                            nullptr, reply);
                    })
                    .ok());
        QVERIFY(publish("orders", "first"));   // 503, 503, 200
        QVERIFY(bench().engine().advanceClockAndWait(10s));
        QVERIFY(publish("orders", "second"));  // 400: permanent, discarded (no dead-letter queue)
        QVERIFY(bench().engine().advanceClockAndWait(10s));
        service().setDeliveryWorker(nullptr);
        answering->stop();
        answering.reset();

        // Timeouts, on a worker with a short timeout and an endpoint that
        // only ever hangs (nothing has to beat the limit).
        ScriptEndpoint hanging(&bench().engine().clock());
        hanging.setScript({hang()});
        options.requestTimeout = 300ms; // wall time; short on purpose
        DeliveryWorker timingOut(bench().engine(), wall, BrokerIdentity{}, options);
        timingOut.start();
        service().setDeliveryWorker(&timingOut);
        QVERIFY(bench().createTopic("slow"));
        QVERIFY(bench()
                    .call<SubscribeReceipt>([&](auto reply) {
                        service().subscribe("slow", "http", hanging.url(), {{"DeliveryPolicy", kTwoImmediate}}, true,
                                            nullptr, reply);
                    })
                    .ok());
        QVERIFY(publish("slow", "late"));      // timeout × 3, discarded
        QVERIFY(bench().engine().advanceClockAndWait(10s));
        service().setDeliveryWorker(nullptr);
        timingOut.stop();

        const MetricsSnapshot now = snapshot();   // kept: `orders` and `slow` point into it
        const TopicMetrics *orders = now.topic("orders");
        QVERIFY(orders);
        QCOMPARE((*orders)[TopicCounter::Published].total, std::int64_t(2));
        QCOMPARE((*orders)[TopicCounter::Retryable].total, std::int64_t(2));
        QCOMPARE((*orders)[TopicCounter::Delivered].total, std::int64_t(1));
        QCOMPARE((*orders)[TopicCounter::Permanent].total, std::int64_t(1));
        QCOMPARE((*orders)[TopicCounter::Discarded].total, std::int64_t(1));
        QCOMPARE((*orders)[TopicCounter::DeadLettered].total, std::int64_t(0));
        QCOMPARE((*orders)[TopicCounter::Timeout].total, std::int64_t(0));
        const TopicMetrics *slow = now.topic("slow");
        QVERIFY(slow);
        QCOMPARE((*slow)[TopicCounter::Timeout].total, std::int64_t(3));
        QCOMPARE((*slow)[TopicCounter::Delivered].total, std::int64_t(0));
        QCOMPARE((*slow)[TopicCounter::Discarded].total, std::int64_t(1));
        QCOMPARE(snapshot().total(TopicCounter::Delivered).total, std::int64_t(1));
        QCOMPARE(snapshot().total(TopicCounter::Discarded).total, std::int64_t(2));
    }
};

RELAYDESK_TEST_MAIN(BrokerMetricsTest)
#include "broker_metrics_test.moc"
