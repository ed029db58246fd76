// SPDX-License-Identifier: MIT
// PolicyChart (ISSUE 2 §4): the series it draws for a schedule — one per
// phase with the docs/behaviour.md §3.4 values, the legend, the compressed 100 000-retry
// phase with its label, the comparison overlay, the jitter band (docs/behaviour.md §3.5)
// and the unit of the elapsed axis.
#include "charts/policy_chart.h"

#include "policy/policy_presets.h"
#include "policy/retry_schedule.h"
#include "support/test_main.h"

#include <QAreaSeries>
#include <QCategoryAxis>
#include <QChart>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QImage>
#include <QLineSeries>
#include <QLocale>
#include <QTest>
#include <QValueAxis>

#include <algorithm>

using namespace relaydesk;

namespace {

RetrySchedule presetSchedule(const QString &name)
{
    const std::optional<PolicyPreset> preset = findPolicyPreset(name.toStdString());
    if (!preset)
        qFatal("no preset %s", qPrintable(name));
    return planSchedule(preset->policy.retryOrDefault(), preset->policy.dialect);
}

QList<QLineSeries *> lines(QChart *chart, const QString &objectName)
{
    QList<QLineSeries *> found;
    for (QAbstractSeries *series : chart->series()) {
        if (series->objectName() == objectName)
            if (auto *line = qobject_cast<QLineSeries *>(series))
                found << line;
    }
    return found;
}

QList<QPointF> pointsOf(QChart *chart, const QString &objectName)
{
    QList<QPointF> points;
    for (QLineSeries *line : lines(chart, objectName))
        points << line->points();
    return points;
}

QAreaSeries *area(QChart *chart, const QString &objectName)
{
    for (QAbstractSeries *series : chart->series()) {
        if (series->objectName() == objectName)
            return qobject_cast<QAreaSeries *>(series);
    }
    return nullptr;
}

// The legend as drawn under the title.
QStringList drawnLegend(QChart *chart)
{
    QStringList texts;
    for (QGraphicsItem *item : chart->childItems()) {
        if (auto *text = dynamic_cast<QGraphicsSimpleTextItem *>(item))
            texts << text->text();
    }
    return texts;
}

QString plain(QString text)
{
    return text.replace(QChar::Nbsp, QLatin1Char(' '));
}

} // namespace

class PolicyChartTest final : public QObject {
    Q_OBJECT

private slots:
    void phaseSeries_carrySchedulePoints_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<QString>("phase");
        QTest::addColumn<int>("firstRetry");
        QTest::addColumn<QList<int>>("delays");
        const QList<int> example60(35, 60);
        QTest::newRow("sns-example immediate") << "sns-example"
                                               << "immediate" << 1 << QList<int>{0, 0, 0};
        QTest::newRow("sns-example preBackoff") << "sns-example"
                                                << "preBackoff" << 4 << QList<int>{1, 1};
        QTest::newRow("sns-example backoff") << "sns-example"
                                             << "backoff" << 6 << QList<int>{1, 1, 1, 1, 1, 2, 4, 9, 23, 60};
        QTest::newRow("sns-example postBackoff") << "sns-example"
                                                 << "postBackoff" << 16 << example60;
        QTest::newRow("sns-default immediate (none)") << "sns-default"
                                                      << "immediate" << 1 << QList<int>{};
        QTest::newRow("sns-default backoff") << "sns-default"
                                             << "backoff" << 1 << QList<int>{20, 20, 20};
        QTest::newRow("zaqar-default preBackoff") << "zaqar-default"
                                                  << "preBackoff" << 4 << QList<int>{5, 5, 5};
        QTest::newRow("zaqar-default backoff") << "zaqar-default"
                                               << "backoff" << 7 << QList<int>{5, 10, 15, 20, 25, 30};
        QTest::newRow("zaqar-default postBackoff") << "zaqar-default"
                                                   << "postBackoff" << 13 << QList<int>{30, 30, 30};
    }

    void phaseSeries_carrySchedulePoints()
    {
        QFETCH(QString, preset);
        QFETCH(QString, phase);
        QFETCH(int, firstRetry);
        QFETCH(QList<int>, delays);
        PolicyChart chart;
        chart.setSchedule(presetSchedule(preset), preset);
        QChart *delayChart = chart.delayChartForTest();
        // One series per phase, present even when the phase is empty (its legend entry says "none").
        QCOMPARE(lines(delayChart, QStringLiteral("phase:") + phase).size(), 1);
        const QList<QPointF> points = pointsOf(delayChart, QStringLiteral("phase:") + phase);
        QCOMPARE(points.size(), delays.size());
        for (int i = 0; i < delays.size(); ++i) {
            QCOMPARE(points[i].x(), double(firstRetry + i)); // x = retry number when nothing is compressed
            QCOMPARE(points[i].y(), double(delays[i]));
        }
    }

    void legend_namesTheFourPhasesAndTheBand()
    {
        PolicyChart chart;
        chart.resize(1000, 600);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.setSchedule(presetSchedule(QStringLiteral("sns-example")), QStringLiteral("sns-example"));
        const QStringList expected{QStringLiteral("immediate · 3 × 0 s"), QStringLiteral("preBackoff · 2 × 1 s"),
                                   QStringLiteral("backoff · 10 exponential, 1→60 s"),
                                   QStringLiteral("postBackoff · 35 × 60 s"), QStringLiteral("jitter ±10 %")};
        QCOMPARE(drawnLegend(chart.delayChartForTest()), expected);
        // Each phase series is named as its legend entry.
        QCOMPARE(lines(chart.delayChartForTest(), QStringLiteral("phase:backoff")).value(0)->name(), expected[2]);
        QVERIFY(chart.delayChartForTest()->title().contains(QStringLiteral("51 attempts over 36 min 45 s")));
        QVERIFY(chart.delayChartForTest()->title().contains(QStringLiteral("sns-example")));

        // Small, the legend keeps only the names.
        chart.resize(480, 300);
        QTRY_COMPARE(drawnLegend(chart.delayChartForTest()),
                     (QStringList{QStringLiteral("immediate"), QStringLiteral("preBackoff"), QStringLiteral("backoff"),
                                  QStringLiteral("postBackoff"), QStringLiteral("jitter ±10 %")}));
    }

    void phaseColours_areDistinct()
    {
        PolicyChart chart;
        chart.setSchedule(presetSchedule(QStringLiteral("zaqar-default")), QStringLiteral("zaqar-default"));
        QList<QColor> colours;
        for (const char *phase : {"immediate", "preBackoff", "backoff", "postBackoff"})
            colours
                << lines(chart.delayChartForTest(), QStringLiteral("phase:") + QLatin1String(phase)).value(0)->color();
        for (int i = 0; i < colours.size(); ++i)
            for (int j = i + 1; j < colours.size(); ++j)
                QVERIFY2(colours[i] != colours[j], qPrintable(colours[i].name()));
    }

    void longConstantPhase_isCompressedAndLabelled()
    {
        PolicyChart chart;
        chart.setSchedule(presetSchedule(QStringLiteral("sns-aws-managed")), QStringLiteral("sns-aws-managed"));
        QChart *delayChart = chart.delayChartForTest();

        // 8 + 2 of the 100 000 post-backoff retries are drawn, in two runs.
        QCOMPARE(lines(delayChart, QStringLiteral("phase:postBackoff")).size(), 2);
        const QList<QPointF> post = pointsOf(delayChart, QStringLiteral("phase:postBackoff"));
        QCOMPARE(post.size(), 10);
        for (const QPointF &point : post)
            QCOMPARE(point.y(), 20.0);
        qsizetype drawn = 0;
        for (QAbstractSeries *series : delayChart->series()) {
            if (auto *line = qobject_cast<QXYSeries *>(series))
                drawn += line->count();
        }
        QVERIFY2(drawn < 200, qPrintable(QString::number(drawn)));
        QVERIFY(post.last().x() < 60); // the axis stays short

        // The bridge over the gap names what it hides.
        const QList<QLineSeries *> bridges = lines(delayChart, QStringLiteral("elided"));
        QCOMPARE(bridges.size(), 1);
        QCOMPARE(bridges.front()->name(), QStringLiteral("… %1 more retries × 20 s …").arg(QLocale().toString(99990)));
        bool noteShown = false;
        for (QGraphicsItem *item : delayChart->childItems()) {
            if (auto *text = dynamic_cast<QGraphicsTextItem *>(item))
                noteShown =
                    noteShown || plain(text->toPlainText()).contains(QStringLiteral("%1 more retries × 20 s").arg(QLocale().toString(99990)));
        }
        QVERIFY(noteShown);

        // The x axis ends at the real last retry.
        auto *xAxis = qobject_cast<QCategoryAxis *>(delayChart->axes(Qt::Horizontal).value(0));
        QVERIFY(xAxis);
        QCOMPARE(xAxis->categoriesLabels().last(), QLocale().toString(100015));
        QCOMPARE(xAxis->endValue(QLocale().toString(100015)), post.last().x());
    }

    void shortPhases_areNotCompressed()
    {
        PolicyChart chart;
        chart.setSchedule(presetSchedule(QStringLiteral("sns-customer-managed")),
                          QStringLiteral("sns-customer-managed"));
        QVERIFY(lines(chart.delayChartForTest(), QStringLiteral("elided")).isEmpty());
        QCOMPARE(pointsOf(chart.delayChartForTest(), QStringLiteral("phase:postBackoff")).size(), 38);
    }

    void comparison_isOverlaidAndRemoved()
    {
        PolicyChart chart;
        chart.resize(1000, 600);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.setSchedule(presetSchedule(QStringLiteral("sns-example")), QStringLiteral("sns-example"));
        QVERIFY(lines(chart.delayChartForTest(), QStringLiteral("comparison")).isEmpty());

        chart.setComparison(presetSchedule(QStringLiteral("sns-customer-managed")),
                            QStringLiteral("sns-customer-managed"));
        QVERIFY(chart.comparison());
        const QList<QLineSeries *> overlay = lines(chart.delayChartForTest(), QStringLiteral("comparison"));
        QCOMPARE(overlay.size(), 1);
        QCOMPARE(overlay.front()->count(), 50);
        QCOMPARE(overlay.front()->at(49).y(), 600.0);
        QCOMPARE(overlay.front()->pen().style(), Qt::DashLine);
        QVERIFY(drawnLegend(chart.delayChartForTest()).contains(QStringLiteral("compared: sns-customer-managed")));
        QCOMPARE(lines(chart.elapsedChartForTest(), QStringLiteral("elapsed:comparison")).size(), 1);
        QVERIFY(chart.delayChartForTest()->title().contains(QStringLiteral("sns-customer-managed")));

        // A new main schedule keeps the comparison.
        chart.setSchedule(presetSchedule(QStringLiteral("sns-default")), QStringLiteral("sns-default"));
        QCOMPARE(lines(chart.delayChartForTest(), QStringLiteral("comparison")).size(), 1);

        chart.setComparison(std::nullopt);
        QVERIFY(!chart.comparison());
        QVERIFY(lines(chart.delayChartForTest(), QStringLiteral("comparison")).isEmpty());
        QVERIFY(lines(chart.elapsedChartForTest(), QStringLiteral("elapsed:comparison")).isEmpty());
        QVERIFY(!drawnLegend(chart.delayChartForTest()).contains(QStringLiteral("compared: sns-customer-managed")));
    }

    void comparisonWithLongPhase_sharesTheCompressedAxis()
    {
        PolicyChart chart;
        chart.setSchedule(presetSchedule(QStringLiteral("sns-example")), QStringLiteral("sns-example"));
        chart.setComparison(presetSchedule(QStringLiteral("sns-aws-managed")), QStringLiteral("sns-aws-managed"));
        // All 50 retries of the main schedule stay; the comparison's hidden run starts after them.
        QCOMPARE(pointsOf(chart.delayChartForTest(), QStringLiteral("phase:postBackoff")).size(), 35);
        const QList<QLineSeries *> overlay = lines(chart.delayChartForTest(), QStringLiteral("comparison"));
        QCOMPARE(overlay.size(), 1);
        QCOMPARE(overlay.front()->count(), 52); // 50 next to the main schedule + the last 2
        bool noteShown = false;
        for (QGraphicsItem *item : chart.delayChartForTest()->childItems()) {
            if (auto *text = dynamic_cast<QGraphicsTextItem *>(item))
                noteShown =
                    noteShown || plain(text->toPlainText()).contains(QStringLiteral("%1 more retries × 20 s").arg(QLocale().toString(99963)));
        }
        QVERIFY(noteShown);
    }

    void jitterBand_followsFraction_data()
    {
        QTest::addColumn<double>("fraction");
        QTest::addColumn<bool>("band");
        QTest::addColumn<double>("high");
        QTest::addColumn<double>("low");
        QTest::newRow("none") << 0.0 << false << 0.0 << 0.0;
        QTest::newRow("default 10 %") << 0.1 << true << 66.0 << 54.0;
        QTest::newRow("25 %") << 0.25 << true << 75.0 << 45.0;
    }

    void jitterBand_followsFraction()
    {
        QFETCH(double, fraction);
        QFETCH(bool, band);
        QFETCH(double, high);
        QFETCH(double, low);
        PolicyChart chart;
        chart.setJitterFraction(fraction);
        chart.setSchedule(presetSchedule(QStringLiteral("sns-example")), QStringLiteral("sns-example"));
        QAreaSeries *jitter = area(chart.delayChartForTest(), QStringLiteral("jitter"));
        QCOMPARE(jitter != nullptr, band);
        if (!band)
            return;
        double top = 0;
        double bottom = 1e9;
        for (QAbstractSeries *series : chart.delayChartForTest()->series()) {
            if (auto *a = qobject_cast<QAreaSeries *>(series); a && a->objectName() == QLatin1String("jitter")) {
                for (const QPointF &p : a->upperSeries()->points())
                    top = std::max(top, p.y());
                for (const QPointF &p : a->lowerSeries()->points())
                    if (p.y() > 40)
                        bottom = std::min(bottom, p.y());
            }
        }
        QCOMPARE(top, high);
        QCOMPARE(bottom, low);
        // No band around zero delays: the immediate phase has none.
        for (QAbstractSeries *series : chart.delayChartForTest()->series()) {
            if (auto *a = qobject_cast<QAreaSeries *>(series); a && a->objectName() == QLatin1String("jitter"))
                QVERIFY(a->upperSeries()->points().first().x() > 3.5);
        }
    }

    void elapsedAxis_unitFollowsSpan_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<QString>("unit");
        QTest::addColumn<double>("total");
        QTest::newRow("60 s") << "sns-default"
                              << "(s)" << 60.0;
        QTest::newRow("36 min 45 s") << "sns-example"
                                     << "(min)" << 2205.0 / 60;
        QTest::newRow("6.6 h") << "sns-customer-managed"
                               << "(h)" << -1.0;
        QTest::newRow("23 days") << "sns-aws-managed"
                                 << "(d)" << -1.0;
    }

    void elapsedAxis_unitFollowsSpan()
    {
        QFETCH(QString, preset);
        QFETCH(QString, unit);
        QFETCH(double, total);
        PolicyChart chart;
        const RetrySchedule schedule = presetSchedule(preset);
        chart.setSchedule(schedule, preset);
        auto *yAxis = qobject_cast<QValueAxis *>(chart.elapsedChartForTest()->axes(Qt::Vertical).value(0));
        QVERIFY(yAxis);
        QVERIFY2(yAxis->titleText().endsWith(unit), qPrintable(yAxis->titleText()));
        QList<QPointF> points;
        for (const char *phase : {"immediate", "preBackoff", "backoff", "postBackoff"})
            points << pointsOf(chart.elapsedChartForTest(), QStringLiteral("elapsed:") + QLatin1String(phase));
        QVERIFY(!points.isEmpty());
        QCOMPARE(points.first(), QPointF(0, 0)); // attempt 0
        if (total >= 0)
            QCOMPARE(points.last().y(), total);
        QVERIFY(points.last().y() <= yAxis->max());
    }

    void renderImage_hasRequestedSize_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("default") << QSize(1200, 700);
        QTest::newRow("editor") << QSize(420, 260);
        QTest::newRow("odd") << QSize(901, 333);
    }

    void renderImage_hasRequestedSize()
    {
        QFETCH(QSize, size);
        PolicyChart chart;
        chart.setSchedule(presetSchedule(QStringLiteral("sns-aws-managed")), QStringLiteral("sns-aws-managed"));
        const QImage image = chart.renderImage(size);
        QCOMPARE(image.size(), size);
        // Something was drawn: more than one colour.
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 7)
            for (int x = 0; x < image.width(); x += 7)
                colours.insert(image.pixel(x, y));
        QVERIFY(colours.size() > 3);
    }
};

RELAYDESK_TEST_MAIN(PolicyChartTest)
#include "policy_chart_test.moc"
