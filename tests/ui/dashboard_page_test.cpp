// SPDX-License-Identifier: MIT
// The dashboard fed by a real engine (BrokerHost on a database file, virtual
// clock, real HTTP to its own mock endpoints): the figures shown equal what
// was done (sends, receives, deletes, publishes, deliveries by outcome), the
// rate windows drop what fell out of them as the clock moves, queue depths
// and dead letters (a click selects the entity), nothing is redrawn without
// a change, the charts stay bounded however long it runs, and every control
// has an accessible name.
#include "window_test_support.h"

#include "broker/metrics/broker_metrics.h"
#include "broker/clock.h"
#include "broker/wall_time_source.h"
#include "charts/activity_chart.h"
#include "charts/time_navigation.h"
#include "charts/depth_chart.h"
#include "charts/metric_series.h"
#include "engine/broker_engine.h"
#include "models/entity_tree_model.h"
#include "models/rate_table_model.h"
#include "mock/mock_endpoints.h"
#include "views/connection_help.h"
#include "views/dashboard_page.h"
#include "views/dead_letter_list.h"
#include "views/entity_actions.h"
#include "host/broker_host.h"
#include "support/test_main.h"

#include <QAbstractButton>
#include <QAbstractItemModelTester>
#include <QToolButton>
#include <QBarSet>
#include <QCategoryAxis>
#include <QLineSeries>
#include <QFont>
#include <QClipboard>
#include <QGuiApplication>
#include <QLabel>
#include <QListWidget>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTest>

#include <set>

using namespace relaydesk;
using namespace relaydesk::testing;
using namespace std::chrono_literals;

namespace {

constexpr int kWait = 15000; // ms; a bound, not a pace: QTRY returns as soon as it holds

int rowOf(const QString &name)
{
    const auto &rows = rateRows();
    for (std::size_t i = 0; i < rows.size(); ++i)
        if (rows[i].name == name)
            return int(i);
    qFatal("no rate row %s", qPrintable(name));
}

} // namespace

class DashboardPageTest final : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_settingsDir;
    std::unique_ptr<TestBroker> m_broker;
    std::unique_ptr<EntityActions> m_actions;
    std::unique_ptr<EntityTreeModel> m_model;
    std::unique_ptr<DashboardPage> m_page;

    BrokerService &service() { return m_broker->service(); }
    BrokerEngine &engine() { return m_broker->host->engine(); }

    // The figure the page shows now (after a tick) in `column` of row `name`.
    qint64 figure(const QString &name, int column = RateTableModel::InWindowColumn)
    {
        m_page->tick();
        return m_page->rateModel()->index(rowOf(name), column).data(RateTableModel::CountRole).toLongLong();
    }
    QString figureText(const QString &name, int column)
    {
        m_page->tick();
        return m_page->rateModel()->index(rowOf(name), column).data().toString();
    }
    // The depth bar of `queue` (of the kind's bar set) the page draws now.
    qreal depthBar(const QString &queue, DepthKind kind)
    {
        m_page->tick();
        DepthChart *chart = m_page->depthChart();
        const int index = int(chart->queues().size()) - 1 - int(chart->queues().indexOf(queue)); // drawn bottom-up
        QBarSet *set = chart->barSet(std::size_t(kind));
        return chart->queues().contains(queue) && index < set->count() ? set->at(index) : -1;
    }
    std::vector<ReceivedMessage> receive(const std::string &queue, int max, std::optional<int> visibility = {})
    {
        ReceiveRequest request;
        request.maxNumberOfMessages = max;
        request.visibilityTimeout = visibility;
        auto result = callAndWait<ReceiveResult>([&](auto r) { service().receiveMessage(queue, request, nullptr, r); });
        return result ? result->messages : std::vector<ReceivedMessage>{};
    }
    bool publish(const std::string &topic, const std::string &message)
    {
        PublishRequest request;
        request.message = message;
        return callAndWait<PublishReceipt>([&](auto r) { service().publish(topic, request, nullptr, r); }).ok();
    }
    bool subscribeMock(const std::string &topic, const std::string &mock)
    {
        const std::string url = m_broker->host->endpointUrl().toStdString() + MockEndpoints::pathOf(mock);
        return callAndWait<SubscribeReceipt>([&](auto r) {
                   service().subscribe(topic, "http", url, {}, true, nullptr, r);
               }).ok();
    }

    // Advances the virtual clock without blocking this thread, which serves
    // the mock endpoints the deliveries go to (an advance waits for the
    // requests it makes due).
    bool advanceServing(ClockDuration by)
    {
        std::optional<bool> advanced;
        engine().advanceClock(by, m_page.get(), [&advanced](Result<ClockTime> result) { advanced = result.ok(); });
        (void)QTest::qWaitFor([&] { return advanced.has_value(); }, kWait);
        return advanced.value_or(false);
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_settingsDir.path());
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_settingsDir.path());
    }

    void init()
    {
        m_broker = std::make_unique<TestBroker>();
        QVERIFY(m_broker->start());
        m_actions = std::make_unique<EntityActions>(nullptr);
        m_model = std::make_unique<EntityTreeModel>(&engine(), m_broker->host->identity());
        m_page = std::make_unique<DashboardPage>(*m_actions);
        m_page->setBroker(m_broker->host.get(), m_model.get());
        new QAbstractItemModelTester(m_page->rateModel(), QAbstractItemModelTester::FailureReportingMode::QtTest,
                                     m_page.get());
    }

    void cleanup()
    {
        m_page.reset();
        m_model.reset();
        m_actions.reset();
        m_broker.reset();
    }

    void queueFigures_matchWhatWasDone_data()
    {
        QTest::addColumn<QString>("row");
        QTest::addColumn<qint64>("expected");
        // 5 sends to orders, 2 to jobs, 3 publishes fanned out to orders
        // (each a send), 4 received from orders, 2 of them deleted.
        QTest::newRow("publishes") << QStringLiteral("Publishes") << qint64(3);
        QTest::newRow("sends") << QStringLiteral("Sends") << qint64(10);
        QTest::newRow("receives") << QStringLiteral("Receives") << qint64(4);
        QTest::newRow("deletes") << QStringLiteral("Deletes") << qint64(2);
        QTest::newRow("delivered") << QStringLiteral("Delivered") << qint64(0);
    }

    void queueFigures_matchWhatWasDone()
    {
        QFETCH(QString, row);
        QFETCH(qint64, expected);
        QVERIFY(m_broker->createQueue("orders").ok());
        QVERIFY(m_broker->createQueue("jobs").ok());
        QVERIFY(m_broker->createTopic("events").ok());
        QVERIFY(m_broker->subscribeQueue("events", "orders").ok());
        for (int i = 0; i < 5; ++i)
            QVERIFY(m_broker->send("orders", "order " + std::to_string(i)).ok());
        for (int i = 0; i < 2; ++i)
            QVERIFY(m_broker->send("jobs", "job").ok());
        for (int i = 0; i < 3; ++i)
            QVERIFY(publish("events", "event"));
        const std::vector<ReceivedMessage> received = receive("orders", 4);
        QCOMPARE(received.size(), std::size_t(4));
        for (int i = 0; i < 2; ++i)
            QVERIFY(callAndWaitStatus([&](auto r) {
                        service().deleteMessage("orders", received[std::size_t(i)].receiptHandle, nullptr, r);
                    }).ok());

        for (int column : {int(RateTableModel::InWindowColumn), int(RateTableModel::TotalColumn)})
            QCOMPARE(figure(row, column), expected);
        QCOMPARE(figureText(row, RateTableModel::PerMinuteColumn), QLocale().toString(double(expected) / 5.0, 'f', 1));
        // Depths: orders holds 5 + 3 − 2 = 6 (2 of them still in flight), jobs 2.
        QTRY_COMPARE_WITH_TIMEOUT(depthBar(QStringLiteral("orders"), DepthKind::Available), qreal(4), kWait);
        QCOMPARE(depthBar(QStringLiteral("orders"), DepthKind::InFlight), qreal(2));
        QCOMPARE(depthBar(QStringLiteral("jobs"), DepthKind::Available), qreal(2));
        QCOMPARE(m_page->depthChart()->queues(), (QStringList{QStringLiteral("orders"), QStringLiteral("jobs")}));
    }

    void rateWindows_dropWhatFellOutAsTheClockMoves()
    {
        QVERIFY(m_broker->createQueue("orders").ok());
        for (int i = 0; i < 6; ++i)
            QVERIFY(m_broker->send("orders", "early").ok());
        QVERIFY(engine().advanceClockAndWait(7min).ok());
        QVERIFY(m_broker->send("orders", "late").ok());
        QCOMPARE(figure(QStringLiteral("Sends")), qint64(1)); // 5 min: the late one only
        auto *fifteen = m_page->findChild<QAbstractButton *>(QStringLiteral("rateWindow15"));
        QVERIFY(fifteen);
        QTest::mouseClick(fifteen, Qt::LeftButton);
        QCOMPARE(m_page->rateWindow(), std::size_t(1));
        QCOMPARE(m_page->rateModel()->headerData(RateTableModel::InWindowColumn, Qt::Horizontal).toString(),
                 QStringLiteral("Last 15 min"));
        QCOMPARE(figure(QStringLiteral("Sends")), qint64(7));
        QCOMPARE(figureText(QStringLiteral("Sends"), RateTableModel::PerMinuteColumn), QLocale().toString(7.0 / 15.0, 'f', 1));
        QCOMPARE(figure(QStringLiteral("Sends"), RateTableModel::TotalColumn), qint64(7));
        // The activity chart spans the window, a point per minute; its sends
        // line holds the 6 early sends in the minutes that are over, and the
        // dashed segment runs from the last whole minute to the current one,
        // which holds the late send.
        QLineSeries *sends = m_page->activityChart()->lines()[1];
        QLineSeries *sendsNow = m_page->activityChart()->currentMinuteLines()[1];
        QCOMPARE(sends->name(), QStringLiteral("Sends"));
        QCOMPARE(sends->count(), 14);
        qreal sum = 0;
        for (const QPointF &point : sends->points())
            sum += point.y();
        QCOMPARE(sum, qreal(6));
        QCOMPARE(sendsNow->count(), 2);
        QCOMPARE(sendsNow->points().front(), sends->points().back());
        QCOMPARE(sendsNow->points().back().y(), qreal(1));
        QCOMPARE(sendsNow->pen().style(), Qt::DashLine);
        QCOMPARE(sendsNow->pen().color(), sends->pen().color());
        QCOMPARE(sendsNow->points().back().x(), m_page->activityChart()->timeAxis()->max()); // the right edge is now
        // Fit all: the hour the broker keeps per minute; + zooms in; a window button follows now again.
        ActivityChart *activity = m_page->activityChart();
        const qreal max = activity->timeAxis()->max();
        QTest::mouseClick(activity->navigation()->fitButton(), Qt::LeftButton);
        QCOMPARE(sends->count(), MinuteRing::kMinutes - 1);
        QVERIFY(activity->timeAxis()->min() <= max - 59 * 60'000);
        QVERIFY(activity->timeAxis()->max() >= max);
        activity->setFocus();
        QTest::keyClick(activity, Qt::Key_Plus);
        QVERIFY(activity->timeAxis()->max() - activity->timeAxis()->min() < 40 * 60'000);
        QTest::mouseClick(m_page->findChild<QAbstractButton *>(QStringLiteral("rateWindow5")), Qt::LeftButton);
        QCOMPARE(activity->navigation()->mode(), TimeNavigation::Mode::FollowNow);
        QCOMPARE(activity->timeAxis()->max(), max);
        QCOMPARE(activity->timeAxis()->min(), max - 4 * 60'000);
        QVERIFY(engine().advanceClockAndWait(61min).ok());
        QCOMPARE(figure(QStringLiteral("Sends")), qint64(0));
        QCOMPARE(figure(QStringLiteral("Sends"), RateTableModel::TotalColumn), qint64(7));
    }

    void deliveries_areCountedByOutcome()
    {
        QVERIFY(m_broker->host->mocks().set("flaky", "503 x 2, then 200").ok());
        QVERIFY(m_broker->host->mocks().set("gone", "404").ok());
        QVERIFY(m_broker->createTopic("hooks").ok());
        QVERIFY(subscribeMock("hooks", "flaky"));
        QVERIFY(subscribeMock("hooks", "gone"));
        QVERIFY(publish("hooks", "{\"n\": 1}"));
        // Each retry waits its planned delay of clock time: step the clock
        // until the flaky mock has had its three requests, letting every
        // request the mocks received be counted before the next step.
        MockEndpoints &mocks = m_broker->host->mocks();
        const auto received = [&] { return mocks.find("flaky")->requestCount + mocks.find("gone")->requestCount; };
        const auto counted = [&] {
            const MetricsSnapshot snapshot = m_broker->host->metrics().snapshot();
            return std::uint64_t(snapshot.total(TopicCounter::Delivered).total + snapshot.total(TopicCounter::Retryable).total +
                                 snapshot.total(TopicCounter::Permanent).total);
        };
        for (int step = 0; step < 40 && mocks.find("flaky")->requestCount < 3; ++step) {
            QTRY_COMPARE_WITH_TIMEOUT(counted(), received(), kWait);
            QVERIFY(advanceServing(10s));
        }
        QTRY_COMPARE_WITH_TIMEOUT(figure(QStringLiteral("Delivered")), qint64(1), kWait);
        QTRY_COMPARE_WITH_TIMEOUT(figure(QStringLiteral("Permanent failures")), qint64(1), kWait);
        QCOMPARE(figure(QStringLiteral("Retryable failures")), qint64(2));
        QCOMPARE(figure(QStringLiteral("Discarded")), qint64(1));
        QCOMPARE(figure(QStringLiteral("Deliveries dead-lettered")), qint64(0));
        QCOMPARE(figure(QStringLiteral("Publishes")), qint64(1));
        QCOMPARE(figure(QStringLiteral("Timeouts")), qint64(0));
    }

    void deadLetters_areListed_andAClickChoosesTheEntity()
    {
        QVERIFY(m_broker->createQueue("orders-dlq").ok());
        const std::string dlqArn = m_broker->host->identity().queueArn("orders-dlq");
        QVERIFY(m_broker->createQueue("orders", {{"RedrivePolicy", "{\"deadLetterTargetArn\":\"" + dlqArn +
                                                                        "\",\"maxReceiveCount\":\"1\"}"}})
                    .ok());
        QVERIFY(m_broker->send("orders", "poison").ok());
        QCOMPARE(receive("orders", 1, 0).size(), std::size_t(1));
        QCOMPARE(receive("orders", 1, 0).size(), std::size_t(0)); // moved to orders-dlq
        DeadLetterList *list = m_page->deadLetterList();
        QTRY_COMPARE_WITH_TIMEOUT((m_page->tick(), list->item(0)->text()),
                                  QStringLiteral("Queue orders-dlq holds 1 dead letter"), kWait);
        QCOMPARE(list->count(), 1);
        // The rate row counts notification deliveries in the period, the list what is held now; each says so.
        QCOMPARE(figure(QStringLiteral("Deliveries dead-lettered")), qint64(0));
        const QString help = m_page->rateModel()->index(rowOf(QStringLiteral("Deliveries dead-lettered")),
                                                        RateTableModel::NameColumn).data(Qt::ToolTipRole).toString();
        QVERIFY2(help.contains(QStringLiteral("not counted here")) && help.contains(QStringLiteral("hold now")),
                 qPrintable(help));
        QString heading;
        for (QLabel *label : m_page->findChildren<QLabel *>())
            if (label->buddy() == list)
                heading = label->text();
        QVERIFY2(heading.contains(QStringLiteral("held now")), qPrintable(heading));
        QCOMPARE(depthBar(QStringLiteral("orders-dlq"), DepthKind::DeadLettered), qreal(1));
        QVERIFY(m_page->depthChart()->queues().contains(QStringLiteral("orders-dlq")));
        QSignalSpy chosen(m_page.get(), &DashboardPage::entityChosen);
        list->show();
        QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->visualItemRect(list->item(0)).center());
        QCOMPARE(chosen.count(), 1);
        QCOMPARE(chosen.front().front().value<LocalEntity>(),
                 (LocalEntity{EntityChange::Entity::Queue, QStringLiteral("orders-dlq")}));
    }

    void chosenQueues_replaceTheBusiest()
    {
        for (const char *name : {"a", "b", "c"})
            QVERIFY(m_broker->createQueue(name).ok());
        QVERIFY(m_broker->send("c", "x").ok());
        QTRY_COMPARE_WITH_TIMEOUT(depthBar(QStringLiteral("c"), DepthKind::Available), qreal(1), kWait);
        QCOMPARE(m_page->depthChart()->queues().front(), QStringLiteral("c")); // the busiest first
        m_page->setChosenQueues({QStringLiteral("a"), QStringLiteral("b")});
        QCOMPARE(m_page->depthChart()->queues(), (QStringList{QStringLiteral("a"), QStringLiteral("b")}));
    }

    void nothingChanged_nothingRedrawn()
    {
        QVERIFY(m_broker->createQueue("quiet").ok());
        m_page->tick();
        QTRY_VERIFY_WITH_TIMEOUT((m_page->tick(), m_page->depthChart()->queues().contains(QStringLiteral("quiet"))), kWait);
        const int redraws = m_page->redrawCount();
        for (int i = 0; i < 10; ++i)
            m_page->tick();
        QCOMPARE(m_page->redrawCount(), redraws);
        QVERIFY(m_broker->send("quiet", "x").ok());
        m_page->tick();
        QCOMPARE(m_page->redrawCount(), redraws + 1);
    }

    void charts_stayBounded_howeverLongItRuns()
    {
        ManualWallTimeSource wall;
        Clock clock(wall, ClockMode::Virtual);
        BrokerMetrics metrics(clock);
        ActivityChart activity;
        DepthChart depths;
        for (int q = 0; q < 100; ++q)
            metrics.addQueue("queue-" + std::to_string(q));
        for (int minute = 0; minute < 3 * 24 * 60; minute += 7) { // three days of clock time
            QVERIFY(clock.advanceBy(7min).ok());
            metrics.record({MetricEvent{MetricEvent::Entity::Queue, int(QueueCounter::Sent), "queue-1", 3}}, clock.now());
            metrics.setDepths("queue-" + std::to_string(minute % 100), QueueCounts{minute, 1, 0, 0, 0, }, {}, clock.now());
            const MetricsSnapshot snapshot = metrics.snapshot();
            activity.showMetrics(snapshot, 2);
            depths.showMetrics(snapshot);
            for (QLineSeries *line : activity.lines())
                QVERIFY(line->count() <= MinuteRing::kMinutes);
            for (QLineSeries *line : activity.currentMinuteLines())
                QVERIFY(line->count() <= 2);
            QVERIFY(depths.queues().size() <= DepthChart::kMaxQueues);
            for (std::size_t kind = 0; kind < kDepthKinds.size(); ++kind)
                QVERIFY(depths.barSet(kind)->count() <= DepthChart::kMaxQueues);
        }
        QCOMPARE(activity.lines()[1]->count(), 59);
        QCOMPARE(activity.currentMinuteLines()[1]->count(), 2);
        QCOMPARE(activity.timeAxis()->max(), qreal(MinuteRing::minuteOf(clock.now()) * 60'000));
        QCOMPARE(depths.queues().size(), DepthChart::kMaxQueues);
    }

    // Issue 34: ticks at 16:02, 16:04, 16:06, 16:09. At any width and window the
    // activity chart's ticks fall on round minutes at one even step, each
    // labelled with its UTC time, and the right edge stays now.
    void activityChart_ticksAreRoundAndEven_data()
    {
        QTest::addColumn<int>("width");
        QTest::addColumn<int>("window"); // index into kRateWindowMinutes
        for (int width : {420, 700, 1000, 1500})
            for (int window = 0; window < 3; ++window)
                QTest::addRow("%d px, %d min", width, kRateWindowMinutes[std::size_t(window)]) << width << window;
    }
    void activityChart_ticksAreRoundAndEven()
    {
        QFETCH(int, width);
        QFETCH(int, window);
        ManualWallTimeSource wall;
        Clock clock(wall, ClockMode::Virtual);
        BrokerMetrics metrics(clock);
        QVERIFY(clock.advanceBy(16h + 9min + 17s).ok()); // a "now" that is not round
        ActivityChart activity;
        activity.resize(width, 320);
        activity.show();
        QVERIFY(QTest::qWaitForWindowExposed(&activity));
        activity.showMetrics(metrics.snapshot(), std::size_t(window));
        QCoreApplication::processEvents(); // the plot area follows the size; ticks follow the plot area
        activity.showMetrics(metrics.snapshot(), std::size_t(window));
        const std::vector<std::int64_t> ticks = activity.tickTimesMs();
        QVERIFY2(ticks.size() >= 2, qPrintable(QString::number(ticks.size())));
        const std::int64_t step = ticks[1] - ticks[0];
        QVERIFY(std::set<std::int64_t>({60'000, 120'000, 300'000, 600'000, 900'000, 1'800'000}).count(step) == 1);
        const QStringList labels = activity.timeAxis()->categoriesLabels();
        for (std::size_t i = 0; i < ticks.size(); ++i) {
            QCOMPARE(ticks[i] % step, std::int64_t(0));
            if (i > 0)
                QCOMPARE(ticks[i] - ticks[i - 1], step);
            QVERIFY(qreal(ticks[i]) >= activity.timeAxis()->min() && qreal(ticks[i]) <= activity.timeAxis()->max());
            QCOMPARE(labels[int(i)], QDateTime::fromMSecsSinceEpoch(ticks[i], Qt::UTC).toString(QStringLiteral("HH:mm")));
        }
        QCOMPARE(activity.timeAxis()->max(), qreal(MinuteRing::minuteOf(clock.now()) * 60'000));
        QCOMPARE(activity.lines()[0]->count() + 1, kRateWindowMinutes[std::size_t(window)]);
    }

    void rateModel_marksDeadLettersBold_andSignalsOnlyWhatChanged()
    {
        RateTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        MetricsSnapshot snapshot;
        snapshot.topicTotals[std::size_t(TopicCounter::DeadLettered)] = MetricCount{2, {1, 2, 2}};
        snapshot.queueTotals[std::size_t(QueueCounter::Sent)] = MetricCount{9, {3, 6, 9}};
        model.apply(snapshot, 0);
        QCOMPARE(changed.count(), 2); // the two rows that are not zero
        const QModelIndex deadLettered = model.index(rowOf(QStringLiteral("Deliveries dead-lettered")), RateTableModel::NameColumn);
        QVERIFY(deadLettered.data(Qt::FontRole).value<QFont>().bold());
        QVERIFY(!model.index(rowOf(QStringLiteral("Sends")), 0).data(Qt::FontRole).isValid());
        QCOMPARE(model.index(rowOf(QStringLiteral("Sends")), RateTableModel::InWindowColumn).data().toString(),
                 QStringLiteral("3"));
        QCOMPARE(model.index(rowOf(QStringLiteral("Sends")), RateTableModel::PerMinuteColumn).data(RateTableModel::CountRole)
                     .toDouble(),
                 0.6);
        model.apply(snapshot, 0);
        QCOMPARE(changed.count(), 2); // nothing new, nothing signalled
    }

    // At the first start the connection help is above the figures, in sight
    // at 1280×800, with a copy button per line; once the broker holds
    // something it moves below them.
    void firstStart_connectionHelpFirst_thenAfterTheFigures()
    {
        m_page->resize(900, 740);
        m_page->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_page.get()));
        QVERIFY(m_page->isConnectionHelpFirst());
        ConnectionHelp *help = m_page->connectionHelp();
        const QStringList lines = help->lines();
        const QString url = m_broker->host->endpointUrl();
        QVERIFY2(lines.contains(QStringLiteral("Endpoint: ") + url), qPrintable(lines.join(QLatin1Char('\n'))));
        for (const char *start : {"aws CLI: AWS_ACCESS_KEY_ID=test AWS_SECRET_ACCESS_KEY=test aws --endpoint-url ", "boto3 (Python): boto3.client(", "AWS SDK for JavaScript: new SQSClient(",
                                  "Service Bus: Endpoint=sb://localhost:"}) {
            bool found = false;
            for (const QString &line : lines)
                found = found || line.startsWith(QLatin1String(start));
            QVERIFY2(found, start);
        }
        QCoreApplication::processEvents();
        const QRect inPage(help->mapTo(m_page.get(), QPoint(0, 0)), help->size());
        QVERIFY2(inPage.bottom() < m_page->height(), qPrintable(QString::number(inPage.bottom())));
        QToolButton *copy = help->copyButton(QStringLiteral("Service Bus"));
        QVERIFY(copy);
        QCOMPARE(copy->accessibleName(), QStringLiteral("Copy Service Bus"));
        QTest::mouseClick(copy, Qt::LeftButton);
        QVERIFY(QGuiApplication::clipboard()->text().startsWith(QStringLiteral("Endpoint=sb://localhost:")));

        QVERIFY(m_broker->createQueue("orders").ok());
        QTRY_VERIFY_WITH_TIMEOUT((m_model->refresh(), !m_page->isConnectionHelpFirst()), kWait);
    }

    // With TLS on: the AMQPS connection string (no UseDevelopmentEmulator),
    // the management API's (the emulator's form, on the management port)
    // and the local CA's file, whose Copy button copies its path.
    void connectionHelp_tlsLines_copyTheCaPath_data()
    {
        QTest::addColumn<QString>("amqpsUrl");
        QTest::addColumn<QString>("managementUrl");
        QTest::addColumn<QString>("authorityPath");
        QTest::addColumn<QStringList>("expected");   // lines that must be there
        QTest::addColumn<QStringList>("absent");     // labels that must not
        const QString path = QStringLiteral("/home/u/.local/share/Relaydesk/Relaydesk/tls/relaydesk-ca.pem");
        const QString tlsLine = QStringLiteral("Service Bus over TLS: Endpoint=sb://localhost:5671;"
                                               "SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=SAS_KEY_VALUE");
        const QString managementLine = QStringLiteral(
            "Service Bus management: Endpoint=sb://localhost:5300;SharedAccessKeyName=RootManageSharedAccessKey;"
            "SharedAccessKey=SAS_KEY_VALUE;UseDevelopmentEmulator=true");
        QTest::newRow("TLS with the local CA")
            << "amqps://127.0.0.1:5671" << "https://127.0.0.1:5300" << path
            << QStringList{tlsLine, managementLine, "CA certificate to trust: " + path} << QStringList{};
        QTest::newRow("management only") << QString() << "https://127.0.0.1:5300" << path
                                         << QStringList{managementLine, "CA certificate to trust: " + path}
                                         << QStringList{"Service Bus over TLS"};
        QTest::newRow("TLS with the user's own certificate")
            << "amqps://127.0.0.1:5671" << "https://127.0.0.1:5300" << QString() << QStringList{tlsLine, managementLine}
            << QStringList{"CA certificate to trust"};
        QTest::newRow("TLS off") << QString() << QString() << path << QStringList{}
                                 << QStringList{"Service Bus over TLS", "Service Bus management", "CA certificate to trust"};
    }
    void connectionHelp_tlsLines_copyTheCaPath()
    {
        QFETCH(QString, amqpsUrl);
        QFETCH(QString, managementUrl);
        QFETCH(QString, authorityPath);
        QFETCH(QStringList, expected);
        QFETCH(QStringList, absent);
        ConnectionHelp help;
        help.showBroker({QStringLiteral("http://127.0.0.1:9911"), QStringLiteral("us-east-1"),
                         QStringLiteral("amqp://127.0.0.1:5672"), amqpsUrl, managementUrl, authorityPath});
        const QStringList lines = help.lines();
        for (const QString &line : expected)
            QVERIFY2(lines.contains(line), qPrintable(lines.join(QLatin1Char('\n'))));
        for (const QString &label : absent)
            for (const QString &line : lines)
                QVERIFY2(!line.startsWith(label + QStringLiteral(": ")), qPrintable(line));
        if (authorityPath.isEmpty() || amqpsUrl.isEmpty())
            return;
        QToolButton *copy = help.copyButton(QStringLiteral("CA certificate to trust"));
        QVERIFY(copy);
        QCOMPARE(copy->accessibleName(), QStringLiteral("Copy CA certificate to trust"));
        QCOMPARE(copy->focusPolicy(), Qt::StrongFocus);
        QTest::mouseClick(copy, Qt::LeftButton);
        QCOMPARE(QGuiApplication::clipboard()->text(), authorityPath);
    }

    void controls_haveAccessibleNames()
    {
        m_page->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_page.get()));
        QCOMPARE(m_page->findChild<QAbstractButton *>(QStringLiteral("rateWindow5"))->accessibleName(), QStringLiteral("5 min"));
        QCOMPARE(m_page->activityChart()->accessibleName(), QStringLiteral("Activity per minute"));
        QCOMPARE(m_page->depthChart()->accessibleName(), QStringLiteral("Queue depths"));
        QCOMPARE(m_page->deadLetterList()->accessibleName(), QStringLiteral("Dead letters"));
        for (QWidget *widget : m_page->findChildren<QWidget *>()) {
            auto *area = qobject_cast<QAbstractScrollArea *>(widget->parentWidget());
            if (widget->focusPolicy() == Qt::NoFocus || !widget->isVisibleTo(m_page.get()) ||
                widget->inherits("QScrollBar") || (area && area->viewport() == widget))
                continue;
            auto *button = qobject_cast<QAbstractButton *>(widget);
            auto *label = qobject_cast<QLabel *>(widget); // selectable text: its text is its name
            const QString name = !widget->accessibleName().isEmpty() ? widget->accessibleName()
                                 : button                          ? button->text()
                                 : label                           ? label->text()
                                                                   : QString();
            if (widget->inherits("QAbstractScrollArea") && !qobject_cast<QAbstractItemView *>(widget) &&
                !widget->inherits("QGraphicsView"))
                continue; // the page's own scroll area
            QVERIFY2(!name.isEmpty(), qPrintable(QStringLiteral("%1 (%2) has no accessible name")
                                                     .arg(widget->objectName(), widget->metaObject()->className())));
        }
    }
};

RELAYDESK_TEST_MAIN(DashboardPageTest)
#include "dashboard_page_test.moc"
