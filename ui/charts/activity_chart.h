// SPDX-License-Identifier: MIT
#pragma once

#include "broker/metrics/broker_metrics.h"

#include <QChartView>

#include <vector>

class QCategoryAxis;
class QToolButton;
class QLineSeries;
class QValueAxis;

namespace relaydesk {

class TimeNavigation;

// The dashboard's activity chart: x = broker clock time (UTC), one point per
// clock minute of the chosen rate window (5, 15 or 60), y = how many in that
// minute; one line per activityLines() series (publishes, sends, receives,
// deletes, delivered, failed attempts, dead-lettered) in its data colour.
// The minutes that are over are the solid line; the current minute, still
// counting, is a dashed segment of the same colour from the last whole
// minute (so a steady load does not read as a drop at the end).
// Made from the snapshot's per-minute counts, so each series holds at most
// 60 points however long the broker runs (the points are replaced, never
// appended). Background, text and grid follow the palette (ChartColours).
// Follow now shows the chosen window; Fit all the 60 minutes the snapshot
// holds; the wheel, a drag and the keys zoom and pan (TimeNavigation, whose
// buttons the page places).
//
// Ownership: owns its chart and series. Thread: GUI.
class ActivityChart final : public QChartView {
    Q_OBJECT
public:
    explicit ActivityChart(QWidget *parent = nullptr);

    // Draws `snapshot` over `window` (index into kRateWindowMinutes).
    void showMetrics(const MetricsSnapshot &snapshot, std::size_t window);
    // Follows the palette (light or dark).
    void applyPalette();

    // For tests: one series per activityLines() entry, in that order: the
    // minutes that are over (window − 1 points), and the dashed segment to the
    // current minute (2 points: the last whole minute, the current one).
    const std::vector<QLineSeries *> &lines() const { return m_lines; }
    const std::vector<QLineSeries *> &currentMinuteLines() const { return m_current; }
    // x = broker clock time, ms since the epoch (UTC); the range's right edge is now.
    QCategoryAxis *timeAxis() const { return m_time; }
    // The times the axis has a tick and a label at ("HH:mm", UTC), ascending.
    std::vector<std::int64_t> tickTimesMs() const;
    QValueAxis *countAxis() const { return m_count; }
    TimeNavigation *navigation() const { return m_navigation; }

protected:
    void changeEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    // Ticks on round minutes at an even step (charts/time_ticks.h), as many
    // as fit the plot's width whole at the axis font (2 to 7); the range is
    // left as it is, so its right edge stays now. A Qt 6.4 QDateTimeAxis only
    // spaces its ticks evenly from its minimum, hence a QCategoryAxis whose
    // boundaries are the round times.
    void fitTicks();

    std::vector<QLineSeries *> m_lines;
    std::vector<QLineSeries *> m_current;
    QCategoryAxis *m_time = nullptr;
    std::vector<std::int64_t> m_ticks; // what the axis shows now
    QValueAxis *m_count = nullptr;
    TimeNavigation *m_navigation = nullptr;
    MetricsSnapshot m_shown;       // the last snapshot drawn, for a zoom or pan
    std::size_t m_window = 0;
};

} // namespace relaydesk
