// SPDX-License-Identifier: MIT
// The live attempt chart fed with rows built here: markers per
// attempt coloured by phase and shaped by outcome, the final ring, the line
// per message and its planned schedule from the first attempt, the delay
// switch, the switch to per-phase buckets past the message bound, and memory
// bounded however long it runs.
#include "charts/attempt_chart.h"
#include "charts/attempt_tracks.h"
#include "charts/chart_style.h"
#include "support/test_main.h"

#include <QChart>
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
        // Ten hours of one attempt a second, a new message every 4 s.
        for (std::int64_t s = 0; s < 10 * 3600; ++s) {
            tracks.add(row(QStringLiteral("m%1").arg(s / 4), s % 4, "immediate", kStart + s * 1000, "retryable", 503));
            if (s % 60 == 0)
                tracks.prune(kStart + s * 1000 - 60'000);
        }
        QVERIFY(tracks.aggregated());
        QVERIFY(tracks.buckets().size() <= std::size_t(AttemptTracks::kBuckets) * 2);
        QVERIFY(tracks.tracks().empty());

        AttemptTracks few;
        few.setWindowMs(60'000);
        few.setSchedule(kSubscription, knownSchedule());
        for (std::int64_t s = 0; s < 10 * 3600; ++s) {
            few.add(row(QStringLiteral("m%1").arg(s / 600), s % 600, "postBackoff", kStart + s * 1000, "retryable", 503));
            if (s % 60 == 0)
                few.prune(kStart + s * 1000 - 60'000);
        }
        QVERIFY(!few.aggregated());
        QVERIFY(few.tracks().size() <= 2);
        for (const MessageTrack *track : few.tracks())
            QVERIFY(track->points.size() <= 181); // two windows and the edge
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
