// SPDX-License-Identifier: MIT
#pragma once

#include "broker/metrics/broker_metrics.h"

#include <QChartView>
#include <QStringList>

#include <array>

class QBarCategoryAxis;
class QBarSet;
class QHorizontalBarSeries;
class QValueAxis;

namespace relaydesk {

// The dashboard's queue depths: a horizontal bar chart with, per queue, its
// available, in-flight and dead-lettered messages side by side (a dead
// letter is also available or in flight, so the bars are not stacked). The
// queues are a chosen set, or else the busiest (most messages over the three)
// up to kMaxQueues; a queue holding dead letters is marked "✗" after its
// name. Names longer than kNameChars are shortened in the middle (the
// pointer on a bar shows the whole name and its depths), and the chart is
// at least as tall as its queues need for their labels at the current font
// (the axis would otherwise write "…"). Bounded: at most kMaxQueues
// categories and three bar sets.
//
// Ownership: owns its chart and series. Thread: GUI.
class DepthChart final : public QChartView {
    Q_OBJECT
public:
    static constexpr int kMaxQueues = 8;
    static constexpr int kNameChars = 20;

    explicit DepthChart(QWidget *parent = nullptr);

    // Draws the depths of `snapshot`'s queues: `chosen` (those that exist,
    // up to kMaxQueues) or, when it is empty, the busiest.
    void showMetrics(const MetricsSnapshot &snapshot, const QStringList &chosen = {});
    void applyPalette();

    // The queues shown, top to bottom (names without the mark).
    const QStringList &queues() const { return m_queues; }
    // For tests: the bar set of Available, In flight, Dead-lettered.
    QBarSet *barSet(std::size_t kind) const { return m_sets[kind]; }

    // The queues a snapshot's chart shows, in order (busiest first; ties by name).
    static QStringList pickQueues(const MetricsSnapshot &snapshot, const QStringList &chosen);
    // The label of `name` on the axis: whole up to kNameChars, else its start and end around "…".
    static QString shortName(const QString &name);
    // The height the chart needs for `queues` labels in its font.
    int heightFor(int queues) const;
    // What the pointer on a bar shows ("orders: 12 available"), for tests.
    QString barToolTip(int kind, int index) const;

protected:
    void changeEvent(QEvent *event) override;

private:
    QHorizontalBarSeries *m_series = nullptr;
    std::array<QBarSet *, 3> m_sets{};
    QBarCategoryAxis *m_names = nullptr;
    QValueAxis *m_count = nullptr;
    QStringList m_queues;
};

} // namespace relaydesk
