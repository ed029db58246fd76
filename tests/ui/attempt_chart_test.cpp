// SPDX-License-Identifier: MIT
// The live attempt chart fed with rows built here: markers per
// attempt coloured by phase and shaped by outcome, the final ring, the line
// per message and its planned schedule from the first attempt, the delay
// switch, the switch to per-phase buckets past the message bound, and memory
// bounded however long it runs.
#include "charts/attempt_chart.h"
#include "charts/attempt_tracks.h"
#include "charts/chart_style.h"
#include "charts/time_navigation.h"
#include "support/test_main.h"

#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QMouseEvent>
#include <QToolButton>
#include <QWheelEvent>
#include <QComboBox>
#include <QScatterSeries>
#include <QTest>

using namespace relaydesk;

namespace {

constexpr std::int64_t kStart = 1'800'000'000'000; // clock ms of the first attempt
const QString kSubscription = QStringLiteral("arn:aws:sns:us-east-1:000000000000:events:abc");

// 1 immediate retry, 2 pre-backoff retries 5 s apart, 2 backoff retries 5→20 s linear.
RetrySchedule knownSchedule()
{
    RetryPolicy policy;
    policy.numRetries = 5;
    policy.numNoDelayRetries = 1;
    policy.numMinDelayRetries = 2;
    policy.minDelayTarget = 5;
    policy.maxDelayTarget = 20;
    return planSchedule(policy, Dialect::Sns);
}

AttemptRecord row(const QString &messageId, std::int64_t attempt, const char *phase, std::int64_t atMs,
                  const char *outcome, std::optional<int> status, std::optional<std::string> final = {})
{
    static std::int64_t id = 0;
    AttemptRecord record;
    record.id = ++id;
    record.messageId = messageId.toStdString();
    record.subscriptionArn = kSubscription.toStdString();
    record.attempt = attempt;
    record.phase = phase;
    record.plannedAt = fromEpochMilliseconds(atMs);
    record.startedAt = fromEpochMilliseconds(atMs);
    record.durationMs = 3;
    record.httpStatus = status;
    record.outcome = outcome;
    record.final = std::move(final);
    return record;
}

// 503, 503, 503, 200 at 0, 0, +5 s, +10 s.
std::vector<AttemptRecord> fourAttempts(const QString &messageId, std::int64_t start = kStart)
{
    return {row(messageId, 0, "initial", start, "retryable", 503),
            row(messageId, 1, "immediate", start, "retryable", 503),
            row(messageId, 2, "preBackoff", start + 5000, "retryable", 503),
            row(messageId, 3, "preBackoff", start + 10000, "delivered", 200, "delivered")};
}

QList<QPointF> pointsOf(const AttemptChart &chart, const QString &name)
{
    QXYSeries *series = chart.seriesForTest(name);
    return series ? series->points() : QList<QPointF>{};
}

} // namespace

class AttemptChartTest : public QObject {
    Q_OBJECT

private slots:
    void markers_placedByTimeAndAttempt_colouredByPhase_shapedByOutcome()
    {
        AttemptChart chart;
        chart.setSchedule(kSubscription, knownSchedule());
        chart.addAttempts(fourAttempts(QStringLiteral("m1")));
        chart.redraw();
        QCOMPARE(pointsOf(chart, QStringLiteral("attempts:initial:retryable")),
                 QList<QPointF>{QPointF(AttemptChart::xOf(kStart), 0)});
        QCOMPARE(pointsOf(chart, QStringLiteral("attempts:immediate:retryable")),
                 QList<QPointF>{QPointF(AttemptChart::xOf(kStart), 1)});
        QCOMPARE(pointsOf(chart, QStringLiteral("attempts:preBackoff:retryable")),
                 QList<QPointF>{QPointF(AttemptChart::xOf(kStart + 5000), 2)});
        QCOMPARE(pointsOf(chart, QStringLiteral("attempts:preBackoff:delivered")),
                 QList<QPointF>{QPointF(AttemptChart::xOf(kStart + 10000), 3)});
        QCOMPARE(pointsOf(chart, QStringLiteral("final:delivered")),
                 QList<QPointF>{QPointF(AttemptChart::xOf(kStart + 10000), 3)});

        auto *immediate = qobject_cast<QScatterSeries *>(chart.seriesForTest(QStringLiteral("attempts:immediate:retryable")));
        auto *delivered = qobject_cast<QScatterSeries *>(chart.seriesForTest(QStringLiteral("attempts:preBackoff:delivered")));
        QVERIFY(immediate && delivered);
        QCOMPARE(immediate->color(), phaseColour(RetryPhase::Immediate));
        QCOMPARE(delivered->color(), phaseColour(RetryPhase::PreBackoff));
        QCOMPARE(immediate->markerShape(), QScatterSeries::MarkerShapeTriangle);
        QCOMPARE(delivered->markerShape(), QScatterSeries::MarkerShapeCircle);
        QVERIFY(!chart.isAggregated());
        QVERIFY(chart.legendText().contains(QStringLiteral("One line per message: 1 shown")));
    }

    void outcomeShapes_differ_data()
    {
        QTest::addColumn<QString>("outcome");
        QTest::addColumn<int>("shape");
        QTest::newRow("delivered") << "delivered" << int(QScatterSeries::MarkerShapeCircle);
        QTest::newRow("retryable") << "retryable" << int(QScatterSeries::MarkerShapeTriangle);
        QTest::newRow("permanent") << "permanent" << int(QScatterSeries::MarkerShapeRectangle);
        QTest::newRow("timeout") << "timeout" << int(QScatterSeries::MarkerShapeRotatedRectangle);
        QTest::newRow("connectionError") << "connectionError" << int(QScatterSeries::MarkerShapeStar);
        QTest::newRow("throttled-wait") << "throttled-wait" << int(QScatterSeries::MarkerShapePentagon);
    }
    void outcomeShapes_differ()
    {
        QFETCH(QString, outcome);
        QFETCH(int, shape);
        QCOMPARE(int(AttemptChart::outcomeShape(outcome)), shape);
    }

    void plannedLine_startsAtTheFirstAttempt_andFollowsTheSchedule()
    {
        AttemptChart chart;
        chart.setSchedule(kSubscription, knownSchedule());
        chart.addAttempts(fourAttempts(QStringLiteral("m1")));
        chart.redraw();
        // Planned: 0, 0, 5, 10, then backoff 5 and 20 s later: 15 and 35 s from the first attempt.
        const QList<QPointF> planned = pointsOf(chart, QStringLiteral("planned:m1"));
        const QList<QPointF> expected{{AttemptChart::xOf(kStart), 0},         {AttemptChart::xOf(kStart), 1},
                                      {AttemptChart::xOf(kStart + 5000), 2},  {AttemptChart::xOf(kStart + 10000), 3},
                                      {AttemptChart::xOf(kStart + 15000), 4}, {AttemptChart::xOf(kStart + 35000), 5}};
        QCOMPARE(planned, expected);
        QCOMPARE(pointsOf(chart, QStringLiteral("actual:m1")).size(), 4);
    }

    void delayAxis_showsTheTimeSinceThePreviousAttempt()
    {
        AttemptChart chart;
        chart.setSchedule(kSubscription, knownSchedule());
        chart.addAttempts(fourAttempts(QStringLiteral("m1")));
        chart.yAxisBox()->setCurrentIndex(1);
        QCOMPARE(chart.yAxis(), AttemptChart::YAxis::Delay);
        QCOMPARE(pointsOf(chart, QStringLiteral("attempts:preBackoff:retryable")),
                 QList<QPointF>{QPointF(AttemptChart::xOf(kStart + 5000), 5)});
        QCOMPARE(pointsOf(chart, QStringLiteral("planned:m1")).last(), QPointF(AttemptChart::xOf(kStart + 35000), 20));
    }

    void throttledWait_isAMarker_notPartOfTheLine()
    {
        AttemptChart chart;
        std::vector<AttemptRecord> rows = fourAttempts(QStringLiteral("m1"));
        rows.insert(rows.begin() + 2, row(QStringLiteral("m1"), 2, "preBackoff", kStart + 4000, "throttled-wait", {}));
        chart.addAttempts(rows);
        chart.redraw();
        QCOMPARE(pointsOf(chart, QStringLiteral("attempts:preBackoff:throttled-wait")),
                 QList<QPointF>{QPointF(AttemptChart::xOf(kStart + 4000), 2)});
        QCOMPARE(pointsOf(chart, QStringLiteral("actual:m1")).size(), 4);
        // The attempt after the wait is still 5 s after the previous attempt.
        chart.setYAxis(AttemptChart::YAxis::Delay);
        QCOMPARE(pointsOf(chart, QStringLiteral("attempts:preBackoff:retryable")).value(0).y(), 5.0);
    }

    void manyMessages_areAggregatedPerPhaseAndBucket_andTheLegendSaysSo()
    {
        AttemptChart chart;
        chart.setWindowSeconds(600);
        const int messages = int(AttemptTracks::kMessageBound) + 1;
        for (int i = 0; i < messages; ++i)
            chart.addAttempts(fourAttempts(QStringLiteral("m%1").arg(i), kStart + i * 1000));
        chart.redraw();
        QVERIFY(chart.isAggregated());
        QCOMPARE(chart.tracks().aggregatedAttempts(), std::int64_t(messages) * 4);
        double initial = 0;
        const QList<QPointF> steps = pointsOf(chart, QStringLiteral("aggregate:initial"));
        for (int i = 0; i < steps.size(); i += 2)
            initial += steps[i].y();
        QCOMPARE(initial, double(messages));
        QVERIFY(pointsOf(chart, QStringLiteral("attempts:initial:retryable")).isEmpty());
        QVERIFY(chart.legendText().contains(QStringLiteral("aggregated")));
        chart.clear();
        chart.redraw();
        QVERIFY(!chart.isAggregated());
    }

    void longRuns_stayBounded()
    {
        AttemptTracks tracks;
        tracks.setWindowMs(60'000);
        // Ten hours of one attempt a second, a new message every 2 s: 30 in a window.
        for (std::int64_t s = 0; s < 10 * 3600; ++s)
            tracks.add(row(QStringLiteral("m%1").arg(s / 2), s % 2, "immediate", kStart + s * 1000, "retryable", 503));
        QVERIFY(tracks.aggregated());
        QVERIFY(tracks.buckets().size() <= std::size_t(AttemptTracks::kBuckets) * 2);
        QVERIFY(tracks.tracks().empty());

        // A message every 10 min: old ones make room, never aggregated, and the newest are kept.
        AttemptTracks few;
        few.setWindowMs(60'000);
        few.setSchedule(kSubscription, knownSchedule());
        for (std::int64_t s = 0; s < 10 * 3600; ++s)
            few.add(row(QStringLiteral("m%1").arg(s / 600), s % 600, "postBackoff", kStart + s * 1000, "retryable", 503));
        QVERIFY(!few.aggregated());
        QCOMPARE(few.tracks().size(), AttemptTracks::kMessageBound);
        QCOMPARE(few.tracks().back()->messageId, QStringLiteral("m59"));
        for (const MessageTrack *track : few.tracks())
            QVERIFY(track->points.size() <= AttemptTracks::kPointsPerTrack);
    }

    // Fit all shows what the clock left behind; the wheel, keys and a drag zoom and pan.
    void fitAllZoomAndPan()
    {
        AttemptChart chart;
        chart.resize(800, 400);
        chart.show();
        chart.addAttempts(fourAttempts(QStringLiteral("old")));
        chart.addAttempts({row(QStringLiteral("new"), 0, "initial", kStart + 5 * 3600 * 1000, "delivered", 200, "delivered")});
        chart.redraw();
        const auto shown = [&] { return chart.shownRangeMs(); };
        QVERIFY(shown().first > kStart + 10000); // follows the newest: the old one is out of view
        chart.navigation()->fitButton()->click();
        QVERIFY(shown().first <= kStart && shown().second >= kStart + 5 * 3600 * 1000);
        QVERIFY(chart.navigation()->fitButton()->isChecked());
        QVERIFY(!chart.navigation()->followButton()->isChecked());
        QCOMPARE(pointsOf(chart, QStringLiteral("actual:old")).size(), 4);

        auto *view = chart.findChild<QChartView *>();
        QVERIFY(view);
        view->setFocus();
        const auto before = shown();
        QTest::keyClick(view, Qt::Key_Plus);
        QCOMPARE(chart.navigation()->mode(), TimeNavigation::Mode::Chosen);
        QVERIFY(!chart.navigation()->fitButton()->isChecked());
        QCOMPARE(shown().second - shown().first, (before.second - before.first) / 2);
        const auto zoomed = shown();
        QTest::keyClick(view, Qt::Key_Right);
        QVERIFY(shown().first > zoomed.first);
        QTest::keyClick(view, Qt::Key_Minus);
        QCOMPARE(shown().second - shown().first, before.second - before.first);

        // The wheel zooms in around the pointer.
        const auto beforeWheel = shown();
        const QPoint centre = view->viewport()->rect().center();
        QWheelEvent wheel(centre, view->viewport()->mapToGlobal(centre), QPoint(), QPoint(0, 120), Qt::NoButton,
                          Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(view->viewport(), &wheel);
        QVERIFY(shown().second - shown().first < beforeWheel.second - beforeWheel.first);
        // A drag to the right shows earlier times.
        const auto beforeDrag = shown();
        QTest::mousePress(view->viewport(), Qt::LeftButton, {}, centre);
        QMouseEvent move(QEvent::MouseMove, QPointF(centre + QPoint(100, 0)),
                         QPointF(view->viewport()->mapToGlobal(centre + QPoint(100, 0))), Qt::NoButton, Qt::LeftButton,
                         Qt::NoModifier);
        QApplication::sendEvent(view->viewport(), &move);
        QTest::mouseRelease(view->viewport(), Qt::LeftButton, {}, centre + QPoint(100, 0));
        QVERIFY(shown().first < beforeDrag.first);

        QTest::keyClick(view, Qt::Key_Home);
        QVERIFY(shown().first <= kStart);
        QTest::keyClick(view, Qt::Key_End);
        QVERIFY(shown().first > kStart + 10000);
        QVERIFY(chart.navigation()->followButton()->isChecked());

        // One message whole.
        chart.showMessage(QStringLiteral("old"));
        QVERIFY(shown().first <= kStart && shown().second >= kStart + 10000);
        QVERIFY(shown().second < kStart + 3600 * 1000);
    }

    void repaint_waitsForTheTimer()
    {
        AttemptChart chart;
        chart.addAttempts(fourAttempts(QStringLiteral("m1")));
        const int before = chart.redrawCount();
        chart.addAttempts(fourAttempts(QStringLiteral("m2")));
        QCOMPARE(chart.redrawCount(), before); // nothing drawn until the next repaint
        QVERIFY(pointsOf(chart, QStringLiteral("attempts:initial:retryable")).isEmpty());
        chart.redraw();
        QCOMPARE(pointsOf(chart, QStringLiteral("attempts:initial:retryable")).size(), 2);
    }
};

RELAYDESK_TEST_MAIN(AttemptChartTest)
#include "attempt_chart_test.moc"
