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
#include <QToolTip>
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
    viewport()->setAccessibleName(accessibleName()); // a Tab or click stop of its own: AT-SPI reads it, so it carries the view's name
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
    QChart *placeholder = this->chart(); // QChartView(parent) made one; setChart() only lets go of it
    setChart(chart);
    delete placeholder;
    setMinimumHeight(heightFor(0));
    for (std::size_t i = 0; i < m_sets.size(); ++i) {
        connect(m_sets[i], &QBarSet::hovered, this, [this, i](bool entered, int index) {
            if (entered)
                QToolTip::showText(QCursor::pos(), barToolTip(int(i), index), this);
            else
                QToolTip::hideText();
        });
    }
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

QString DepthChart::shortName(const QString &name)
{
    if (name.size() <= kNameChars)
        return name;
    const int head = (kNameChars - 1) / 2;
    return name.left(head) + QStringLiteral("…") + name.right(kNameChars - 1 - head);
}

int DepthChart::heightFor(int queues) const
{
    // Title, legend and the count axis about six lines; each queue two lines and a half.
    const int line = fontMetrics().height();
    return std::max(240, line * 6 + std::max(queues, 3) * line * 5 / 2);
}

QString DepthChart::barToolTip(int kind, int index) const
{
    // Categories run bottom to top, m_queues top to bottom.
    const int queue = int(m_queues.size()) - 1 - index;
    if (kind < 0 || kind >= int(m_sets.size()) || queue < 0 || queue >= m_queues.size())
        return {};
    return tr("%1: %2 %3").arg(m_queues[queue]).arg(m_sets[std::size_t(kind)]->at(index)).arg(m_sets[std::size_t(kind)]->label().toLower());
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
        // Categories must differ: two names alike at both ends stay whole.
        QString label = shortName(*name);
        for (const QString &other : queues)
            if (other != *name && shortName(other) == label)
                label = *name;
        categories << (depths.deadLettered > 0 ? label + QStringLiteral(" ✗") : label);
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
    if (minimumHeight() != heightFor(int(queues.size())))
        setMinimumHeight(heightFor(int(queues.size())));
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
