// SPDX-License-Identifier: MIT
#pragma once

#include "broker/metrics/broker_metrics.h"

#include <QColor>
#include <QString>

#include <array>
#include <cstdint>
#include <vector>

class QChart;
class QChartView;

namespace relaydesk {

struct ChartColours;

// One figure the dashboard shows: a counter of BrokerMetrics, or the sum of
// a few (e.g. "Failed attempts"), with its name and data colour. The rate
// table and the activity chart are both made from these, so a line and its
// row always agree. Plain values; GUI thread for the colours' use only.
struct MetricSeries {
    QString name;                              // "Sends", "Delivered", …
    std::vector<QueueCounter> queueCounters;   // summed over every queue
    std::vector<TopicCounter> topicCounters;   // summed over every topic
    QColor colour;                             // the data colour on a light base

    // The series' count in the snapshot (total and per rate window).
    MetricCount countIn(const MetricsSnapshot &snapshot) const;
    // Its counts per clock minute over the last hour, oldest first; the
    // last entry is the snapshot's current minute.
    std::array<std::int64_t, MinuteRing::kMinutes> byMinute(const MetricsSnapshot &snapshot) const;
    // The colour to draw with on a light or dark base.
    QColor colourOn(bool dark) const;
};

// The rows of the rate table: publishes, sends, receives, deletes, then the
// deliveries by outcome (delivered, retryable failures, permanent failures,
// timeouts, connection errors, throttled waits, dead-lettered, discarded).
const std::vector<MetricSeries> &rateRows();
// The lines of the activity chart: publishes, sends, receives, deletes,
// delivered, failed attempts (retryable + permanent + timeout + connection
// error), dead-lettered.
const std::vector<MetricSeries> &activityLines();
// What a rate row counts, when its name alone could mislead (the rate table's tooltip); empty otherwise.
QString rateRowHelp(const MetricSeries &series);

// A queue's depths as the dashboard draws them.
enum class DepthKind { Available, InFlight, DeadLettered };
inline constexpr std::array<DepthKind, 3> kDepthKinds{DepthKind::Available, DepthKind::InFlight, DepthKind::DeadLettered};
QString depthName(DepthKind kind);             // "Available", "In flight", "Dead-lettered"
QColor depthColour(DepthKind kind, bool dark);
std::int64_t depthOf(const QueueCounts &counts, DepthKind kind);

// "5 min", "15 min", "60 min": the rate windows' names (kRateWindowMinutes order).
QString rateWindowName(std::size_t window);

// Gives a dashboard chart (and its view) the palette's colours: background,
// title, legend, and every axis's labels, grid and line. GUI thread.
void applyChartColours(QChartView &view, const ChartColours &colours);

} // namespace relaydesk
