// SPDX-License-Identifier: MIT
#include "charts/depth_chart.h"

#include "charts/chart_style.h"
#include "charts/metric_series.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QEvent>
#include <QHorizontalBarSeries>
#include <QLegend>
#include <QValueAxis>

#include <algorithm>

namespace relaydesk {

namespace {

std::int64_t shownDepth(const QueueCounts &counts)
{
    return counts.available + counts.inFlight + counts.deadLettered;
}

} // namespace

DepthChart::DepthChart(QWidget *parent) : QChartView(parent)
{
    setObjectName(QStringLiteral("depthChart"));
    setAccessibleName(tr("Queue depths"));
    setRenderHint(QPainter::Antialiasing);
    auto *chart = new QChart;
    chart->setTitle(tr("Queue depths"));
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart->setBackgroundRoundness(0);
    m_series = new QHorizontalBarSeries(chart);
    for (std::size_t i = 0; i < m_sets.size(); ++i) {
        m_sets[i] = new QBarSet(depthName(kDepthKinds[i]), m_series);
        m_series->append(m_sets[i]);
    }
    m_series->setBarWidth(0.8);
    chart->addSeries(m_series);
    m_names = new QBarCategoryAxis(chart);
    m_count = new QValueAxis(chart);
    m_count->setLabelFormat(QStringLiteral("%d"));
    m_count->setRange(0, 5);
    chart->addAxis(m_names, Qt::AlignLeft);
    chart->addAxis(m_count, Qt::AlignBottom);
    m_series->attachAxis(m_names);
    m_series->attachAxis(m_count);
    chart->legend()->setAlignment(Qt::AlignBottom);
    setChart(chart);
    setMinimumHeight(240);
    applyPalette();
}

QStringList DepthChart::pickQueues(const MetricsSnapshot &snapshot, const QStringList &chosen)
{
    std::vector<const QueueMetrics *> queues;
    for (const QueueMetrics &queue : snapshot.queues) {
        if (chosen.isEmpty() || chosen.contains(QString::fromStdString(queue.name)))
            queues.push_back(&queue);
    }
    if (chosen.isEmpty()) {
        std::stable_sort(queues.begin(), queues.end(), [](const QueueMetrics *a, const QueueMetrics *b) {
            return shownDepth(a->depths) > shownDepth(b->depths);
        });
    }
    QStringList names;
    for (std::size_t i = 0; i < queues.size() && i < std::size_t(kMaxQueues); ++i)
        names << QString::fromStdString(queues[i]->name);
    return names;
}

void DepthChart::showMetrics(const MetricsSnapshot &snapshot, const QStringList &chosen)
{
    const QStringList queues = pickQueues(snapshot, chosen);
    // A horizontal bar chart draws its first category at the bottom: reverse,
    // so the busiest queue is on top.
    QStringList categories;
    std::array<QList<qreal>, 3> values;
    std::int64_t highest = 0;
    for (auto name = queues.crbegin(); name != queues.crend(); ++name) {
        const QueueMetrics *queue = snapshot.queue(name->toStdString());
        const QueueCounts depths = queue ? queue->depths : QueueCounts{};
        categories << (depths.deadLettered > 0 ? *name + QStringLiteral(" ✗") : *name);
        for (std::size_t i = 0; i < values.size(); ++i) {
            const std::int64_t depth = depthOf(depths, kDepthKinds[i]);
            values[i] << qreal(depth);
            highest = std::max(highest, depth);
        }
    }
    if (categories != m_names->categories()) {
        m_names->setCategories(categories);
    }
    for (std::size_t i = 0; i < values.size(); ++i) {
        QBarSet *set = m_sets[i];
        if (set->count() != values[i].size()) {
            set->remove(0, set->count());
            set->append(values[i]);
        } else {
            for (int j = 0; j < values[i].size(); ++j) {
                if (set->at(j) != values[i][j])
                    set->replace(j, values[i][j]);
            }
        }
    }
    m_count->setRange(0, double(std::max<std::int64_t>(highest, 4)) * 1.05);
    m_count->applyNiceNumbers();
    m_queues = queues;
    chart()->setTitle(queues.isEmpty() ? tr("Queue depths — no queues yet") : tr("Queue depths"));
}

void DepthChart::applyPalette()
{
    const ChartColours colours = ChartColours::from(palette());
    applyChartColours(*this, colours);
    for (std::size_t i = 0; i < m_sets.size(); ++i) {
        const QColor colour = depthColour(kDepthKinds[i], colours.dark);
        m_sets[i]->setColor(colour);
        m_sets[i]->setBorderColor(colour);
    }
}

void DepthChart::changeEvent(QEvent *event)
{
    QChartView::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        applyPalette();
}

} // namespace relaydesk
