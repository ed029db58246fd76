// SPDX-License-Identifier: MIT
#include "charts/metric_series.h"

#include "charts/chart_style.h"

#include <QAbstractAxis>
#include <QChart>
#include <QChartView>
#include <QCoreApplication>
#include <QLegend>

namespace relaydesk {

namespace {

// The Okabe–Ito palette (colour-blind safe); on a dark base each is drawn
// lighter, so every line keeps its contrast in both palettes.
const QColor kBlue(0x00, 0x72, 0xB2);
const QColor kSky(0x56, 0xB4, 0xE9);
const QColor kGreen(0x00, 0x9E, 0x73);
const QColor kOrange(0xE6, 0x9F, 0x00);
const QColor kVermillion(0xD5, 0x5E, 0x00);
const QColor kPurple(0xCC, 0x79, 0xA7);
const QColor kOchre(0xB5, 0x9A, 0x00);
const QColor kGrey(0x8A, 0x8A, 0x8A);
const QColor kDarkGrey(0x5E, 0x5E, 0x5E);

QString tr(const char *text) { return QCoreApplication::translate("MetricSeries", text); }

QColor lighterOnDark(const QColor &colour, bool dark) { return dark ? colour.lighter(135) : colour; }

} // namespace

MetricCount MetricSeries::countIn(const MetricsSnapshot &snapshot) const
{
    MetricCount sum;
    const auto add = [&sum](const MetricCount &count) {
        sum.total += count.total;
        for (std::size_t i = 0; i < sum.inWindow.size(); ++i)
            sum.inWindow[i] += count.inWindow[i];
    };
    for (QueueCounter counter : queueCounters)
        add(snapshot.total(counter));
    for (TopicCounter counter : topicCounters)
        add(snapshot.total(counter));
    return sum;
}

std::array<std::int64_t, MinuteRing::kMinutes> MetricSeries::byMinute(const MetricsSnapshot &snapshot) const
{
    std::array<std::int64_t, MinuteRing::kMinutes> sum{};
    const auto add = [&sum](const std::array<std::int64_t, MinuteRing::kMinutes> &minutes) {
        for (std::size_t i = 0; i < sum.size(); ++i)
            sum[i] += minutes[i];
    };
    for (QueueCounter counter : queueCounters)
        add(snapshot.queueTotalsByMinute[std::size_t(counter)]);
    for (TopicCounter counter : topicCounters)
        add(snapshot.topicTotalsByMinute[std::size_t(counter)]);
    return sum;
}

QColor MetricSeries::colourOn(bool dark) const { return lighterOnDark(colour, dark); }

const std::vector<MetricSeries> &rateRows()
{
    using Q = QueueCounter;
    using T = TopicCounter;
    static const std::vector<MetricSeries> rows = {
        {tr("Publishes"), {}, {T::Published}, kPurple},
        {tr("Sends"), {Q::Sent}, {}, kBlue},
        {tr("Receives"), {Q::Received}, {}, kSky},
        {tr("Deletes"), {Q::Deleted}, {}, kOchre},
        {tr("Delivered"), {}, {T::Delivered}, kGreen},
        {tr("Retryable failures"), {}, {T::Retryable}, kOrange},
        {tr("Permanent failures"), {}, {T::Permanent}, kPurple.darker(130)},
        {tr("Timeouts"), {}, {T::Timeout}, kOrange.darker(125)},
        {tr("Connection errors"), {}, {T::ConnectionError}, kSky.darker(140)},
        {tr("Throttled waits"), {}, {T::ThrottledWait}, kGrey},
        {tr("Deliveries dead-lettered"), {}, {T::DeadLettered}, kVermillion},
        {tr("Discarded"), {}, {T::Discarded}, kDarkGrey},
    };
    return rows;
}

const std::vector<MetricSeries> &activityLines()
{
    using Q = QueueCounter;
    using T = TopicCounter;
    static const std::vector<MetricSeries> lines = {
        {tr("Publishes"), {}, {T::Published}, kPurple},
        {tr("Sends"), {Q::Sent}, {}, kBlue},
        {tr("Receives"), {Q::Received}, {}, kSky},
        {tr("Deletes"), {Q::Deleted}, {}, kOchre},
        {tr("Delivered"), {}, {T::Delivered}, kGreen},
        {tr("Failed attempts"), {}, {T::Retryable, T::Permanent, T::Timeout, T::ConnectionError}, kOrange},
        {tr("Deliveries dead-lettered"), {}, {T::DeadLettered}, kVermillion},
    };
    return lines;
}

QString rateRowHelp(const MetricSeries &series)
{
    if (series.topicCounters == std::vector<TopicCounter>{TopicCounter::DeadLettered})
        return tr("Notification deliveries that ended in a dead-letter queue during the period. Messages a queue "
                  "moved to its dead-letter queue are not counted here; the Dead letters list shows what the "
                  "queues hold now.");
    if (series.topicCounters == std::vector<TopicCounter>{TopicCounter::Discarded})
        return tr("Notification deliveries that ended without a dead-letter queue during the period.");
    return {};
}

QString depthName(DepthKind kind)
{
    switch (kind) {
    case DepthKind::Available:
        return tr("Available");
    case DepthKind::InFlight:
        return tr("In flight");
    case DepthKind::DeadLettered:
        return tr("Dead-lettered");
    }
    return {};
}

QColor depthColour(DepthKind kind, bool dark)
{
    switch (kind) {
    case DepthKind::Available:
        return lighterOnDark(kBlue, dark);
    case DepthKind::InFlight:
        return lighterOnDark(kOrange, dark);
    case DepthKind::DeadLettered:
        return lighterOnDark(kVermillion, dark);
    }
    return {};
}

std::int64_t depthOf(const QueueCounts &counts, DepthKind kind)
{
    switch (kind) {
    case DepthKind::Available:
        return counts.available;
    case DepthKind::InFlight:
        return counts.inFlight;
    case DepthKind::DeadLettered:
        return counts.deadLettered;
    }
    return 0;
}

void applyChartColours(QChartView &view, const ChartColours &colours)
{
    QChart *chart = view.chart();
    chart->setBackgroundBrush(colours.background);
    chart->setBackgroundPen(Qt::NoPen);
    chart->setTitleBrush(colours.text);
    chart->legend()->setLabelColor(colours.text);
    for (QAbstractAxis *axis : chart->axes()) {
        axis->setLabelsColor(colours.text);
        axis->setTitleBrush(colours.text);
        axis->setGridLineColor(colours.grid);
        axis->setLinePenColor(colours.muted);
    }
    view.setBackgroundBrush(colours.background);
}

QString rateWindowName(std::size_t window)
{
    return tr("%1 min").arg(window < kRateWindowMinutes.size() ? kRateWindowMinutes[window] : 0);
}

} // namespace relaydesk
