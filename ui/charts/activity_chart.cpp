// SPDX-License-Identifier: MIT
#include "charts/activity_chart.h"

#include "charts/chart_style.h"
#include "charts/metric_series.h"
#include "charts/time_navigation.h"
#include "charts/time_ticks.h"

#include <QCategoryAxis>
#include <QChart>
#include <QDateTime>
#include <QEvent>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace relaydesk {

ActivityChart::ActivityChart(QWidget *parent) : QChartView(parent)
{
    setObjectName(QStringLiteral("activityChart"));
    setAccessibleName(tr("Activity per minute"));
    viewport()->setAccessibleName(accessibleName()); // a Tab or click stop of its own: AT-SPI reads it, so it carries the view's name
    setRenderHint(QPainter::Antialiasing);
    auto *chart = new QChart;
    chart->setTitle(tr("Activity per clock minute (UTC)"));
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart->setBackgroundRoundness(0);
    m_time = new QCategoryAxis(chart);
    m_time->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    m_count = new QValueAxis(chart);
    m_count->setLabelFormat(QStringLiteral("%d"));
    m_count->setRange(0, 5);
    chart->addAxis(m_time, Qt::AlignBottom);
    chart->addAxis(m_count, Qt::AlignLeft);
    const auto addLine = [&](const QString &name) {
        auto *line = new QLineSeries(chart);
        line->setName(name);
        line->setPointsVisible(true);
        chart->addSeries(line);
        line->attachAxis(m_time);
        line->attachAxis(m_count);
        return line;
    };
    for (const MetricSeries &series : activityLines())
        m_lines.push_back(addLine(series.name));
    for (const MetricSeries &series : activityLines()) {
        m_current.push_back(addLine(tr("%1 (this minute so far)").arg(series.name)));
        for (QLegendMarker *marker : chart->legend()->markers(m_current.back()))
            marker->setVisible(false); // one legend entry per figure: the solid line's
    }
    chart->legend()->setAlignment(Qt::AlignRight);
    QChart *placeholder = this->chart(); // QChartView(parent) made one; setChart() only lets go of it
    setChart(chart);
    delete placeholder;
    setMinimumHeight(240);
    m_navigation = new TimeNavigation(this, parent);
    connect(m_navigation, &TimeNavigation::changed, this, [this] { showMetrics(m_shown, m_window); });
    applyPalette();
}

void ActivityChart::showMetrics(const MetricsSnapshot &snapshot, std::size_t window)
{
    m_shown = snapshot;
    m_window = window = std::min(window, kRateWindowMinutes.size() - 1);
    const bool following = m_navigation->mode() == TimeNavigation::Mode::FollowNow;
    // Following: the window's minutes; else every minute held, for the range to pick from.
    const int minutes = following ? kRateWindowMinutes[window] : MinuteRing::kMinutes;
    const std::int64_t currentMinute = MinuteRing::minuteOf(snapshot.at);
    const auto minuteStart = [](std::int64_t minute) { return fromEpochMilliseconds(minute * 60'000); };
    std::int64_t highest = 0;
    for (std::size_t i = 0; i < m_lines.size(); ++i) {
        const auto counts = activityLines()[i].byMinute(snapshot);
        QList<QPointF> points;
        points.reserve(minutes);
        for (int back = minutes - 1; back >= 0; --back) {
            const std::int64_t value = counts[std::size_t(MinuteRing::kMinutes - 1 - back)];
            highest = std::max(highest, value);
            points.append(QPointF(qreal(toEpochMilliseconds(minuteStart(currentMinute - back))), qreal(value)));
        }
        m_current[i]->replace(points.mid(points.size() - 2));
        points.removeLast();
        m_lines[i]->replace(points);
    }
    const std::int64_t nowMs = currentMinute * 60'000;
    const TimeNavigation::Range shown = m_navigation->rangeFor(
        {nowMs - std::int64_t(kRateWindowMinutes[window] - 1) * 60'000, nowMs},
        TimeNavigation::Range{nowMs - std::int64_t(MinuteRing::kMinutes - 1) * 60'000, nowMs});
    m_time->setRange(qreal(shown.fromMs), qreal(shown.toMs));
    fitTicks();
    m_count->setRange(0, double(std::max<std::int64_t>(highest, 4)) * 1.1);
    m_count->applyNiceNumbers();
}

void ActivityChart::applyPalette()
{
    const ChartColours colours = ChartColours::from(palette());
    applyChartColours(*this, colours);
    for (std::size_t i = 0; i < m_lines.size(); ++i) {
        QPen pen(activityLines()[i].colourOn(colours.dark));
        pen.setWidthF(2.0);
        m_lines[i]->setPen(pen);
        m_lines[i]->setBrush(pen.color());
        pen.setStyle(Qt::DashLine);
        m_current[i]->setPen(pen);
        m_current[i]->setBrush(pen.color());
    }
}

void ActivityChart::fitTicks()
{
    const QFontMetrics metrics(m_time->labelsFont());
    const double label = metrics.horizontalAdvance(QStringLiteral("00:00")) * 2.0;
    const double room = chart()->plotArea().width() > 0 ? chart()->plotArea().width() : double(width()) * 0.7;
    const TicksWithin ticks = roundTicksWithin(std::llround(m_time->min()), std::llround(m_time->max()),
                                               int(std::clamp<double>(room / label, 2, 7)), 60'000);
    if (ticks.atMs == m_ticks)
        return;
    m_ticks = ticks.atMs;
    for (const QString &old : m_time->categoriesLabels())
        m_time->remove(old);
    // Category i ends on tick i, where its label is written (AxisLabelsPositionOnValue);
    // the first starts a step before, off the plot, so no line is drawn there.
    m_time->setStartValue(qreal((m_ticks.empty() ? 0 : m_ticks.front()) - ticks.stepMs));
    for (std::int64_t at : m_ticks)
        m_time->append(QDateTime::fromMSecsSinceEpoch(at, Qt::UTC).toString(QStringLiteral("HH:mm")), qreal(at));
}

std::vector<std::int64_t> ActivityChart::tickTimesMs() const
{
    std::vector<std::int64_t> times;
    for (const QString &label : m_time->categoriesLabels())
        times.push_back(std::llround(m_time->endValue(label)));
    return times;
}

void ActivityChart::resizeEvent(QResizeEvent *event)
{
    QChartView::resizeEvent(event);
    fitTicks();
}

void ActivityChart::changeEvent(QEvent *event)
{
    QChartView::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        applyPalette();
}

} // namespace relaydesk
