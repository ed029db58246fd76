// SPDX-License-Identifier: MIT
// The Deliveries page on a real broker: BrokerHost on a database
// file, virtual clock without jitter, its own mock endpoint scripted
// "503 x 3, then 200" over real HTTP, and a known policy. The attempt log
// model (QAbstractItemModelTester), the chart's points and colours, the
// filters, live rows, the timeline, Redeliver, Export and "Try a policy".
#include "window_test_support.h"

#include "charts/attempt_chart.h"
#include "charts/chart_style.h"
#include "charts/time_navigation.h"
#include "dialogs/try_policy_dialog.h"
#include "engine/broker_engine.h"
#include "models/attempt_log_model.h"
#include "mock/mock_endpoints.h"
#include "mock/policy_trial.h"
#include "views/attempt_filter_bar.h"
#include "views/deliveries_page.h"
#include "views/delivery_policy_page.h"
#include "views/entity_actions.h"
#include "views/entity_page.h"
#include "views/entity_tree_panel.h"
#include "views/main_window.h"
#include "views/message_timeline_panel.h"
#include "policy_editor/policy_editor.h"
#include "support/test_main.h"

#include <QAbstractItemModelTester>
#include <QChartView>
#include <QHeaderView>
#include <QTimeZone>
#include <QToolButton>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScatterSeries>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QTreeWidget>

using namespace relaydesk;
using namespace relaydesk::testing;

namespace {

constexpr int kWait = 10000; // ms; a bound, not a pace: QTRY returns as soon as it holds

// 1 immediate retry, 2 pre-backoff retries 5 s apart, 2 backoff retries 5→20 s.
const char *const kPolicy = R"({"healthyRetryPolicy": {"numRetries": 5, "numNoDelayRetries": 1,
    "numMinDelayRetries": 2, "numMaxDelayRetries": 0, "minDelayTarget": 5, "maxDelayTarget": 20,
    "backoffFunction": "linear"}})";

} // namespace

class DeliveriesPageTest final : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QTemporaryDir m_settingsDir;
    std::unique_ptr<BrokerHost> m_host;
    std::unique_ptr<EntityActions> m_actions;
    std::string m_arn;
    std::int64_t m_t0 = 0;
    int m_database = 0;

    BrokerService &service() { return m_host->service(); }

    // Advances the virtual clock while this thread keeps serving the mock endpoint.
    bool advance(int seconds)
    {
        bool done = false;
        bool ok = false;
        m_host->engine().advanceClock(std::chrono::seconds(seconds), m_actions.get(), [&](Result<ClockTime> moved) {
            ok = moved.ok();
            done = true;
        });
        return QTest::qWaitFor([&] { return done; }, kWait) && ok;
    }

    bool publish(const std::string &body = "hello")
    {
        PublishRequest request;
        request.message = body;
        return callAndWait<PublishReceipt>([&](auto r) { service().publish("events", request, nullptr, r); }).ok();
    }

    std::unique_ptr<DeliveriesPage> openPage(const LocalEntity &ref)
    {
        auto page = std::make_unique<DeliveriesPage>(*m_host, *m_actions, ref);
        page->resize(1200, 800);
        return page;
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_settingsDir.path());
    }

    // A fresh broker per test: topic "events", mock "flaky" subscribed with kPolicy.
    void init()
    {
        ServeOptions options = testBrokerOptions(m_dir.filePath(QStringLiteral("broker%1.db").arg(++m_database)));
        options.jitter = 0;
        auto started = BrokerHost::start(options);
        QVERIFY(std::holds_alternative<std::unique_ptr<BrokerHost>>(started));
        m_host = std::get<std::unique_ptr<BrokerHost>>(std::move(started));
        m_actions = std::make_unique<EntityActions>(nullptr);
        QVERIFY(m_host->mocks().set("flaky", "503 x 3, then 200").ok());
        QVERIFY(callAndWait<std::string>([&](auto r) { service().createTopic("events", {}, {}, nullptr, r); }).ok());
        const std::string url = m_host->endpointUrl().toStdString() + MockEndpoints::pathOf("flaky");
        auto receipt = callAndWait<SubscribeReceipt>([&](auto r) {
            service().subscribe("events", "http", url, {{"DeliveryPolicy", kPolicy}}, true, nullptr, r);
        });
        QVERIFY(receipt.ok());
        m_arn = receipt->subscriptionArn;
        m_t0 = toEpochMilliseconds(m_host->engine().clock().now());
    }

    void cleanup()
    {
        m_actions.reset();
        m_host.reset();
    }

    void knownPolicy_againstAFlakyMock_givesTheExpectedRowsPointsAndColours()
    {
        auto page = openPage({EntityChange::Entity::Subscription, QString::fromStdString(m_arn)});
        QAbstractItemModelTester tester(page->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(publish());
        QVERIFY(advance(60));
        QTRY_COMPARE_WITH_TIMEOUT(page->model()->rowCount(), 4, kWait);
        QTRY_COMPARE_WITH_TIMEOUT(page->countText(), QStringLiteral("4 attempts"), kWait);
        // Newest first: attempt, phase, start (s after the publish), status, outcome, final.
        struct Expected { std::int64_t attempt; const char *phase; int second; int status; const char *outcome; const char *final; };
        const Expected expected[] = {{3, "preBackoff", 10, 200, "delivered", "delivered"},
                                     {2, "preBackoff", 5, 503, "retryable", ""},
                                     {1, "immediate", 0, 503, "retryable", ""},
                                     {0, "initial", 0, 503, "retryable", ""}};
        for (int row = 0; row < 4; ++row) {
            const AttemptRecord *record = page->model()->recordAt(row);
            QVERIFY(record);
            QCOMPARE(record->attempt, expected[row].attempt);
            QCOMPARE(record->phase, std::string(expected[row].phase));
            QCOMPARE(toEpochMilliseconds(record->startedAt), m_t0 + expected[row].second * 1000);
            QCOMPARE(record->httpStatus.value_or(0), expected[row].status);
            QCOMPARE(record->outcome, std::string(expected[row].outcome));
            QCOMPARE(record->final.value_or(""), std::string(expected[row].final));
        }
        QCOMPARE(page->model()->index(0, AttemptLogModel::StatusColumn).data().toString(), QStringLiteral("200"));

        AttemptChart *chart = page->chart();
        chart->redraw();
        const auto points = [chart](const QString &name) {
            QXYSeries *series = chart->seriesForTest(name);
            return series ? series->points() : QList<QPointF>{};
        };
        QCOMPARE(points("attempts:initial:retryable"), QList<QPointF>{QPointF(AttemptChart::xOf(m_t0), 0)});
        QCOMPARE(points("attempts:immediate:retryable"), QList<QPointF>{QPointF(AttemptChart::xOf(m_t0), 1)});
        QCOMPARE(points("attempts:preBackoff:retryable"), QList<QPointF>{QPointF(AttemptChart::xOf(m_t0 + 5000), 2)});
        QCOMPARE(points("attempts:preBackoff:delivered"), QList<QPointF>{QPointF(AttemptChart::xOf(m_t0 + 10000), 3)});
        QCOMPARE(points("final:delivered"), QList<QPointF>{QPointF(AttemptChart::xOf(m_t0 + 10000), 3)});
        // The planned line comes from the subscription's effective policy (read
        // asynchronously), from the first attempt: 0, 0, 5, 10, 15, 35 s.
        const QString planned = QStringLiteral("planned:") + QString::fromStdString(page->model()->recordAt(0)->messageId);
        QVERIFY(QTest::qWaitFor([&] {
            chart->redraw();
            return points(planned).size() == 6;
        }, kWait));
        QCOMPARE(points(planned).last(), QPointF(AttemptChart::xOf(m_t0 + 35000), 5));
        auto *immediate = qobject_cast<QScatterSeries *>(chart->seriesForTest(QStringLiteral("attempts:immediate:retryable")));
        auto *pre = qobject_cast<QScatterSeries *>(chart->seriesForTest(QStringLiteral("attempts:preBackoff:delivered")));
        QCOMPARE(immediate->color(), phaseColour(RetryPhase::Immediate));
        QCOMPARE(pre->color(), phaseColour(RetryPhase::PreBackoff));
        QCOMPARE(pre->markerShape(), QScatterSeries::MarkerShapeCircle);
        QCOMPARE(immediate->markerShape(), QScatterSeries::MarkerShapeTriangle);
    }

    // The subscription's mock deleted: the attempt's row says so in words (docs/behaviour.md §4.7).
    void missingMock_statusColumnSaysSo()
    {
        QVERIFY(m_host->mocks().remove("flaky"));
        auto page = openPage({EntityChange::Entity::Subscription, QString::fromStdString(m_arn)});
        QVERIFY(publish());
        QVERIFY(advance(0));
        QTRY_COMPARE_WITH_TIMEOUT(page->model()->rowCount(), 1, kWait);
        QCOMPARE(page->model()->index(0, AttemptLogModel::StatusColumn).data().toString(),
                 QStringLiteral("404 · mock endpoint flaky does not exist"));
        QCOMPARE(page->model()->recordAt(0)->final.value_or(""), std::string("discarded"));
    }

    void liveRows_areInsertedAtTheTop_withoutAReset_andTheSelectionStays()
    {
        auto page = openPage({EntityChange::Entity::Subscription, QString::fromStdString(m_arn)});
        QAbstractItemModelTester tester(page->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(publish("first"));
        QVERIFY(advance(60));
        QTRY_COMPARE_WITH_TIMEOUT(page->model()->rowCount(), 4, kWait);
        page->tableView()->selectRow(2);
        const qint64 selectedId = page->model()->index(2, 0).data(AttemptLogModel::RowIdRole).toLongLong();
        QSignalSpy reset(page->model(), &QAbstractItemModel::modelReset);
        QSignalSpy inserted(page->model(), &QAbstractItemModel::rowsInserted);
        QVERIFY(m_host->mocks().set("flaky", "200").ok());
        QVERIFY(publish("second"));
        QVERIFY(advance(1));
        QTRY_COMPARE_WITH_TIMEOUT(page->model()->rowCount(), 5, kWait);
        QCOMPARE(reset.count(), 0);
        QVERIFY(!inserted.isEmpty());
        QCOMPARE(inserted.first().at(1).toInt(), 0);
        const QModelIndexList selected = page->tableView()->selectionModel()->selectedRows();
        QCOMPARE(selected.size(), 1);
        QCOMPARE(selected.first().data(AttemptLogModel::RowIdRole).toLongLong(), selectedId);
        QCOMPARE(page->model()->recordAt(0)->outcome, std::string("delivered"));
        QTRY_COMPARE_WITH_TIMEOUT(page->countText(), QStringLiteral("5 attempts"), kWait);
    }

    void filters_narrowTheLog_data()
    {
        QTest::addColumn<QString>("outcome");
        QTest::addColumn<QString>("phase");
        QTest::addColumn<QString>("statusClass");
        QTest::addColumn<int>("sinceSecond"); // -1: no time range
        QTest::addColumn<int>("rows");
        QTest::newRow("none") << "" << "" << "" << -1 << 4;
        QTest::newRow("outcome delivered") << "delivered" << "" << "" << -1 << 1;
        QTest::newRow("outcome retryable") << "retryable" << "" << "" << -1 << 3;
        QTest::newRow("phase preBackoff") << "" << "preBackoff" << "" << -1 << 2;
        QTest::newRow("phase initial") << "" << "initial" << "" << -1 << 1;
        QTest::newRow("status 5xx") << "" << "" << "5xx" << -1 << 3;
        QTest::newRow("status 2xx") << "" << "" << "2xx" << -1 << 1;
        QTest::newRow("status none") << "" << "" << "none" << -1 << 0;
        QTest::newRow("since 5 s") << "" << "" << "" << 5 << 2;
        QTest::newRow("phase and status") << "" << "preBackoff" << "5xx" << -1 << 1;
    }
    void filters_narrowTheLog()
    {
        QFETCH(QString, outcome);
        QFETCH(QString, phase);
        QFETCH(QString, statusClass);
        QFETCH(int, sinceSecond);
        QFETCH(int, rows);
        auto page = openPage({EntityChange::Entity::Subscription, QString::fromStdString(m_arn)});
        QVERIFY(publish());
        QVERIFY(advance(60));
        QTRY_COMPARE_WITH_TIMEOUT(page->model()->rowCount(), 4, kWait);
        QSignalSpy reset(page->model(), &QAbstractItemModel::modelReset);
        AttemptFilter filter;
        filter.outcome = outcome;
        filter.phase = phase;
        filter.statusClass = statusClass;
        if (sinceSecond >= 0)
            filter.since = fromEpochMilliseconds(m_t0 + sinceSecond * 1000);
        page->model()->setFilter(filter);
        QCOMPARE(reset.count(), 1);
        QTRY_VERIFY_WITH_TIMEOUT(!page->model()->isLoading(), kWait);
        QCOMPARE(page->model()->rowCount(), rows);
        QTRY_COMPARE_WITH_TIMEOUT(page->model()->total(), std::int64_t(rows), kWait);
    }

    void filterBar_messageId_appliesToTableAndChart()
    {
        auto page = openPage({EntityChange::Entity::Topic, QStringLiteral("events")});
        QVERIFY(publish("one"));
        QVERIFY(publish("two"));
        QVERIFY(advance(60));
        // The mock's script is per endpoint: the two messages share its three 503s.
        QTRY_COMPARE_WITH_TIMEOUT(page->model()->rowCount(), 5, kWait);
        const QString id = QString::fromStdString(page->model()->recordAt(0)->messageId);
        page->filterBar()->messageIdEdit()->setText(id);
        QTest::keyClick(page->filterBar()->messageIdEdit(), Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(!page->model()->isLoading() && page->model()->rowCount() > 0, kWait);
        for (int row = 0; row < page->model()->rowCount(); ++row)
            QCOMPARE(page->model()->index(row, AttemptLogModel::MessageIdColumn).data().toString(), id);
        page->chart()->redraw();
        QCOMPARE(page->chart()->tracks().tracks().size(), std::size_t(1));
    }

    // At 600× a finished delivery leaves the followed window in seconds: Fit
    // all, the filter on its message id and picking its row show it whole
    // however far the clock moved on.
    void finishedDelivery_staysReachable_byFitAllFilterAndRow()
    {
        auto page = openPage({EntityChange::Entity::Subscription, QString::fromStdString(m_arn)});
        page->show();
        QVERIFY(publish());
        QVERIFY(advance(60));
        QTRY_COMPARE_WITH_TIMEOUT(page->model()->rowCount(), 4, kWait);
        QVERIFY(advance(6 * 3600)); // far past it
        AttemptChart *chart = page->chart();
        const auto covers = [&](std::pair<std::int64_t, std::int64_t> range) {
            return range.first <= m_t0 && range.second >= m_t0 + 10000;
        };
        chart->redraw();
        QCOMPARE(chart->navigation()->mode(), TimeNavigation::Mode::FollowNow);
        QVERIFY(!covers(chart->shownRangeMs())); // following now: long gone
        QVERIFY(chart->navigation()->followButton()->isChecked());
        QTest::mouseClick(chart->navigation()->fitButton(), Qt::LeftButton);
        QVERIFY(covers(chart->shownRangeMs()));
        QVERIFY(chart->shownRangeMs().second - chart->shownRangeMs().first < 3600 * 1000); // not 6 hours of nothing
        QVERIFY(chart->seriesForTest(QStringLiteral("final:delivered")));
        QCOMPARE(chart->seriesForTest(QStringLiteral("final:delivered"))->count(), 1);
        QTest::keyClick(chart->findChild<QChartView *>(), Qt::Key_End);
        QVERIFY(!covers(chart->shownRangeMs()));
        QTest::keyClick(chart->findChild<QChartView *>(), Qt::Key_Home);
        QVERIFY(covers(chart->shownRangeMs()));

        // Filtered to its message id (the chart is read again from the log).
        QTest::keyClick(chart->findChild<QChartView *>(), Qt::Key_End);
        const QString id = QString::fromStdString(page->model()->recordAt(0)->messageId);
        page->filterBar()->messageIdEdit()->setText(id);
        QTest::keyClick(page->filterBar()->messageIdEdit(), Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(!page->model()->isLoading() && page->model()->rowCount() == 4, kWait);
        QTRY_VERIFY_WITH_TIMEOUT((chart->redraw(), covers(chart->shownRangeMs())), kWait);
        QCOMPARE(chart->navigation()->mode(), TimeNavigation::Mode::Chosen);

        // Picking a row shows its message whole too.
        QTest::keyClick(chart->findChild<QChartView *>(), Qt::Key_End);
        QVERIFY(!covers(chart->shownRangeMs()));
        page->tableView()->setCurrentIndex(page->model()->index(2, 0));
        QVERIFY(covers(chart->shownRangeMs()));
    }

    // The table leads with what matters and shows times without the date on the clock's day.
    void attemptTable_leadsWithStatusAndOutcome_andShowsTimes_data()
    {
        QTest::addColumn<int>("column"); // position from the left
        QTest::addColumn<QString>("header");
        QTest::newRow("message") << 0 << QStringLiteral("Message ID");
        QTest::newRow("attempt") << 1 << QStringLiteral("Attempt");
        QTest::newRow("status") << 2 << QStringLiteral("Status");
        QTest::newRow("outcome") << 3 << QStringLiteral("Outcome");
        QTest::newRow("phase") << 4 << QStringLiteral("Phase");
        QTest::newRow("due") << 5 << QStringLiteral("Due (UTC)");
        QTest::newRow("started") << 6 << QStringLiteral("Started (UTC)");
    }

    void attemptTable_leadsWithStatusAndOutcome_andShowsTimes()
    {
        QFETCH(int, column);
        QFETCH(QString, header);
        auto page = openPage({EntityChange::Entity::Subscription, QString::fromStdString(m_arn)});
        QCOMPARE(page->model()->headerData(column, Qt::Horizontal).toString(), header);
        QVERIFY(!page->model()->headerData(AttemptLogModel::DueColumn, Qt::Horizontal, Qt::ToolTipRole)
                     .toString()
                     .isEmpty());
        QVERIFY(publish());
        QVERIFY(advance(60));
        QTRY_COMPARE_WITH_TIMEOUT(page->model()->rowCount(), 4, kWait);
        const QString started = page->model()->index(0, AttemptLogModel::StartedColumn).data().toString();
        const QString expected = QDateTime::fromMSecsSinceEpoch(m_t0 + 10000, QTimeZone::utc())
                                     .toString(QStringLiteral("HH:mm:ss.zzz"));
        QCOMPARE(started, expected);
        // A day later the same row shows its date.
        QVERIFY(advance(26 * 3600));
        const QString later = page->model()->index(0, AttemptLogModel::StartedColumn).data().toString();
        QVERIFY2(later.startsWith(QDateTime::fromMSecsSinceEpoch(m_t0, QTimeZone::utc()).toString(QStringLiteral("yyyy-MM-dd"))),
                 qPrintable(later));
        // Whole in the column at the page's font.
        const int width = page->tableView()->horizontalHeader()->sectionSize(AttemptLogModel::StartedColumn);
        QVERIFY(page->tableView()->fontMetrics().horizontalAdvance(started) < width);
    }

    void timeline_showsHowItEnded_andRedeliverAddsANewDelivery()
    {
        auto page = openPage({EntityChange::Entity::Subscription, QString::fromStdString(m_arn)});
        QVERIFY(publish());
        QVERIFY(advance(60));
        QTRY_COMPARE_WITH_TIMEOUT(page->model()->rowCount(), 4, kWait);
        page->tableView()->setCurrentIndex(page->model()->index(1, 0));
        MessageTimelinePanel *timeline = page->timelinePanel();
        QTRY_COMPARE_WITH_TIMEOUT(timeline->summaryLabel()->text(), QStringLiteral("Delivered after 4 attempts"), kWait);
        QCOMPARE(timeline->attemptTree()->topLevelItemCount(), 1);
        QCOMPARE(timeline->attemptTree()->topLevelItem(0)->childCount(), 4);
        QTreeWidgetItem *third = timeline->attemptTree()->topLevelItem(0)->child(2);
        QCOMPARE(third->text(4), QStringLiteral("0 ms")); // no jitter
        QVERIFY(timeline->redeliverButton()->isEnabled());
        QVERIFY(!timeline->deadLetterButton()->isVisibleTo(timeline));

        timeline->redeliverButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(page->statusText().startsWith(QStringLiteral("Redelivery 1 of")), kWait);
        QVERIFY(advance(1));
        QTRY_COMPARE_WITH_TIMEOUT(page->model()->rowCount(), 5, kWait);
        const AttemptRecord *newest = page->model()->recordAt(0);
        QCOMPARE(newest->redelivery, std::int64_t(1));
        QCOMPARE(newest->attempt, std::int64_t(0));
        QCOMPARE(newest->outcome, std::string("delivered"));
        QCOMPARE(page->model()->index(0, AttemptLogModel::KindColumn).data().toString(),
                 QStringLiteral("notification · redelivery 1"));
        QTRY_COMPARE_WITH_TIMEOUT(timeline->attemptTree()->topLevelItemCount(), 2, kWait);
    }

    void deadLettered_timelineOpensTheDeadLetterQueue()
    {
        QVERIFY(callAndWait<std::string>([&](auto r) { service().createQueue("events-dlq", {}, {}, nullptr, r); }).ok());
        const std::string redrive = "{\"deadLetterTargetArn\":\"" + m_host->identity().queueArn("events-dlq") + "\"}";
        QVERIFY(callAndWaitStatus([&](auto r) {
                    service().setSubscriptionAttribute(m_arn, "RedrivePolicy", redrive, nullptr, r);
                }).ok());
        QVERIFY(m_host->mocks().set("flaky", "400").ok()); // permanent: dead-lettered at once
        auto page = openPage({EntityChange::Entity::Subscription, QString::fromStdString(m_arn)});
        QVERIFY(publish());
        QVERIFY(advance(1));
        QTRY_COMPARE_WITH_TIMEOUT(page->model()->rowCount(), 1, kWait);
        page->tableView()->setCurrentIndex(page->model()->index(0, 0));
        MessageTimelinePanel *timeline = page->timelinePanel();
        QTRY_COMPARE_WITH_TIMEOUT(timeline->summaryLabel()->text(),
                                  QStringLiteral("Dead-lettered to events-dlq after 1 attempt"), kWait);
        QSignalSpy open(m_actions.get(), &EntityActions::openRequested);
        timeline->deadLetterButton()->click();
        QCOMPARE(open.count(), 1);
        QCOMPARE(open.first().at(0).value<LocalEntity>(), (LocalEntity{EntityChange::Entity::Queue, QStringLiteral("events-dlq")}));
    }

    void export_writesWhatTheFiltersShow_andCopyRows()
    {
        auto page = openPage({EntityChange::Entity::Subscription, QString::fromStdString(m_arn)});
        QVERIFY(publish());
        QVERIFY(advance(60));
        QTRY_COMPARE_WITH_TIMEOUT(page->model()->rowCount(), 4, kWait);
        AttemptFilter filter;
        filter.statusClass = QStringLiteral("5xx");
        page->model()->setFilter(filter);
        const QString path = m_dir.filePath(QStringLiteral("attempts.csv"));
        page->exportTo(path, AttemptExportFormat::Csv);
        QTRY_VERIFY_WITH_TIMEOUT(page->statusText().startsWith(QStringLiteral("Exported 3 attempts")), kWait);
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = file.readAll().trimmed().split('\n');
        QCOMPARE(lines.size(), 4);
        QVERIFY(lines.first().startsWith("messageId,subscriptionArn,attempt,phase"));
        for (int i = 1; i < lines.size(); ++i)
            QVERIFY(lines[i].contains(",503,retryable,"));

        QTRY_COMPARE_WITH_TIMEOUT(page->model()->rowCount(), 3, kWait);
        page->tableView()->selectAll();
        page->copySelectedRows();
        const QStringList copied = QGuiApplication::clipboard()->text().trimmed().split(QLatin1Char('\n'));
        QCOMPARE(copied.size(), 4);
        QVERIFY(copied.first().startsWith(QStringLiteral("Message ID\tAttempt\tStatus\tOutcome\tPhase")));
    }

    void tryAPolicy_fromThePolicyTab_endsWithAttemptsOnTheDeliveriesTab()
    {
        cleanup(); // this one runs the whole window
        MainWindow window;
        ServeOptions options = testBrokerOptions(m_dir.filePath(QStringLiteral("window.db")));
        options.jitter = 0;
        QVERIFY(window.startBroker(options));
        QVERIFY(callAndWait<std::string>([&](auto r) {
                    window.broker()->service().createTopic("events", {}, {}, nullptr, r);
                }).ok());
        QTRY_VERIFY_WITH_TIMEOUT(window.entityPanel()->selectEntity({EntityChange::Entity::Topic, QStringLiteral("events")}),
                                 kWait);
        EntityPage *page = window.currentPage();
        QVERIFY(page);
        auto *policy = page->findChild<DeliveryPolicyPage *>();
        QVERIFY(policy);
        policy->editor()->setJsonText(QString::fromLatin1(kPolicy));
        policy->tryButton()->click();
        auto *dialog = window.findChild<TryPolicyDialog *>();
        QVERIFY(dialog);
        QCOMPARE(dialog->scriptEdit()->text(), QStringLiteral("503 x 7, then 200"));
        dialog->scriptEdit()->setText(QStringLiteral("503 x nonsense"));
        QVERIFY(!dialog->scriptError().isEmpty());
        QVERIFY(!dialog->tryButton()->isEnabled());
        dialog->scriptEdit()->setText(QStringLiteral("503 x 3, then 200"));
        QVERIFY(dialog->scriptError().isEmpty());
        dialog->tryButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(window.currentPage() && window.currentPage()->entity().kind == EntityChange::Entity::Subscription,
                                 kWait);
        QTabWidget *tabs = window.currentPage()->tabs();
        QCOMPARE(tabs->currentWidget()->objectName(), QStringLiteral("deliveriesPage"));
        auto *deliveries = qobject_cast<DeliveriesPage *>(tabs->currentWidget());
        QVERIFY(deliveries);
        bool done = false;
        window.broker()->engine().advanceClock(std::chrono::seconds(60), deliveries, [&](Result<ClockTime>) { done = true; });
        QTRY_VERIFY_WITH_TIMEOUT(done, kWait);
        QTRY_COMPARE_WITH_TIMEOUT(deliveries->model()->rowCount(), 4, kWait);
        QCOMPARE(deliveries->model()->recordAt(0)->final.value_or(""), std::string("delivered"));
        QCOMPARE(window.broker()->mocks().find(policy_trial::kMockName)->requestCount, std::uint64_t(4));
    }
};

RELAYDESK_TEST_MAIN(DeliveriesPageTest)
#include "deliveries_page_test.moc"
