// SPDX-License-Identifier: MIT
// ScheduleDrawing, the layout: fonts and wording for the size, value-axis
// ranges, the shared plot edges of both panels, the legend rows, the retry
// tick labels and the notes over the plots. The content is built in
// schedule_drawing.cpp.
#include "charts/schedule_drawing.h"

#include <QAreaSeries>
#include <QCategoryAxis>
#include <QChart>
#include <QFontMetricsF>
#include <QGraphicsLayout>
#include <QGraphicsRectItem>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QLineSeries>
#include <QPainter>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <iterator>

namespace relaydesk {
namespace {

// Share of the height (less the legend) given to the delay panel; the elapsed
// panel gets the rest.
constexpr double kDelayPanelShare = 0.57;

} // namespace

// Nice ranges for both value axes (fewer ticks when compact; the unit in the
// labels when tiny), and the break shades up to the top.
void ScheduleDrawing::fitValueAxes(const TextStyle *style)
{
    const bool compact = style && style->compact;
    const auto fit = [&](QValueAxis *axis, double top, int ticks, const QString &unit) {
        axis->setRange(0, top);
        axis->setTickCount(ticks);
        axis->applyNiceNumbers();
        const double interval = (axis->max() - axis->min()) / (axis->tickCount() - 1);
        const QString suffix = style && style->tiny ? QLatin1Char(' ') + unit : QString();
        axis->setLabelFormat((interval >= 1 ? QStringLiteral("%.0f") : QStringLiteral("%.1f")) + suffix);
    };
    fit(m_delayY, m_delayTop * 1.06, compact ? 4 : 6, QStringLiteral("s"));
    fit(m_elapsedY, m_elapsedTop * 1.15, compact ? 3 : 5, m_elapsedUnit);
    for (const auto &[chart, axis] : {std::pair{m_delay, m_delayY}, std::pair{m_elapsed, m_elapsedY}}) {
        for (QAbstractSeries *series : chart->series()) {
            if (series->objectName() != QLatin1String("break"))
                continue;
            QLineSeries *upper = static_cast<QAreaSeries *>(series)->upperSeries();
            upper->replace({{upper->at(0).x(), axis->max()}, {upper->at(1).x(), axis->max()}});
        }
    }
}

void ScheduleDrawing::applyText(const TextStyle &style)
{
    m_delay->setTitleFont(style.title);
    m_delay->setTitle(style.tiny ? m_titleTiny : style.compact ? m_titleCompact : m_titleFull);
    QFont axisTitle = style.body;
    axisTitle.setBold(true);
    for (QAbstractAxis *axis : {static_cast<QAbstractAxis *>(m_delayX), static_cast<QAbstractAxis *>(m_delayY),
                                static_cast<QAbstractAxis *>(m_elapsedX), static_cast<QAbstractAxis *>(m_elapsedY)}) {
        axis->setLabelsFont(style.body);
        axis->setTitleFont(axisTitle);
    }
    m_elapsedX->setTitleText(style.compact ? QStringLiteral("Retry number")
                                           : QStringLiteral("Retry number (0 = first attempt)"));
    for (QAbstractAxis *axis : {static_cast<QAbstractAxis *>(m_delayY), static_cast<QAbstractAxis *>(m_elapsedX),
                                static_cast<QAbstractAxis *>(m_elapsedY)})
        axis->setTitleVisible(!style.tiny);
    m_legend.applyText(style.body, style.compact);
    for (const Note &note : m_notes) {
        if (auto *text = dynamic_cast<QGraphicsTextItem *>(note.text))
            text->setFont(style.body);
        else if (auto *simple = dynamic_cast<QGraphicsSimpleTextItem *>(note.text))
            simple->setFont(style.body);
    }
}

// Tick labels at round retry numbers that fit the width, in every shown run,
// and always at the last retry.
void ScheduleDrawing::updateRetryLabels(QCategoryAxis *axis, double plotWidth)
{
    for (const QString &label : axis->categoriesLabels())
        axis->remove(label);
    axis->setStartValue(m_axis.low());
    const double pixelsPerUnit = plotWidth / (m_axis.high() - m_axis.low());
    const QFontMetricsF metrics(axis->labelsFont());
    const double minGap = metrics.horizontalAdvance(groupedNumber(m_axis.lastRetry()) + QStringLiteral("000"));
    static constexpr int64_t kSteps[] = {1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000};
    int64_t step = kSteps[std::size(kSteps) - 1];
    for (int64_t candidate : kSteps) {
        if (double(candidate) * pixelsPerUnit >= minGap) {
            step = candidate;
            break;
        }
    }
    const int64_t last = m_axis.lastRetry();
    std::vector<std::pair<double, int64_t>> ticks;
    for (const auto &[from, to] : m_axis.shownRuns(0, last)) {
        for (int64_t r = (from + step - 1) / step * step; r <= to; r += step)
            ticks.emplace_back(m_axis.x(r), r);
    }
    if (ticks.empty() || ticks.back().second != last) {
        while (!ticks.empty() && (m_axis.x(last) - ticks.back().first) * pixelsPerUnit < minGap)
            ticks.pop_back();
        ticks.emplace_back(m_axis.x(last), last);
    }
    double previous = -1e300;
    for (const auto &[x, retry] : ticks) {
        if ((x - previous) * pixelsPerUnit < minGap && retry != last)
            continue;
        axis->append(groupedNumber(retry), x);
        previous = x;
    }
    axis->setRange(m_axis.low(), m_axis.high());
}

void ScheduleDrawing::placeNotes()
{
    for (const Note &note : m_notes) {
        const QRectF plot = note.chart->plotArea();
        const double yMax = (note.chart == m_delay ? m_delayY : m_elapsedY)->max();
        const double span = m_axis.high() - m_axis.low();
        const double px = plot.left() + (note.at.x() - m_axis.low()) / span * plot.width();
        if (!note.box) { // a total: right-aligned above the end of its line
            const QRectF bounds = note.text->boundingRect();
            const double py = plot.bottom() - note.at.y() / yMax * plot.height();
            note.text->setPos(px - bounds.width() - 8, py - bounds.height() - 4);
            continue;
        }
        auto *text = static_cast<QGraphicsTextItem *>(note.text);
        text->setTextWidth(std::max(note.widthUnits / span * plot.width() - 8, 110.0));
        const QRectF bounds = text->boundingRect();
        const double py = plot.top() + plot.height() * note.at.y();
        text->setPos(px - bounds.width() / 2, py - bounds.height() / 2);
        note.box->setRect(QRectF(text->pos(), bounds.size()).adjusted(2, 2, -2, -2));
    }
}

void ScheduleDrawing::layout(const QSizeF &size)
{
    const TextStyle style(size);
    m_scene.setSceneRect(QRectF(QPointF(0, 0), size));
    applyText(style);
    // The delay panel's share leaves out its legend, so that rows of legend
    // on a narrow chart do not squeeze its plot.
    const double legendEstimate = m_legend.measure(size.width() * 0.85, style.compact);
    const double delayHeight = std::round((size.height() - legendEstimate) * kDelayPanelShare + legendEstimate);
    m_delay->setGeometry(QRectF(0, 0, size.width(), delayHeight));
    m_elapsed->setGeometry(QRectF(0, delayHeight, size.width(), size.height() - delayHeight));
    fitValueAxes(&style);
    const auto settle = [this] {
        for (QChart *chart : {m_delay, m_elapsed}) {
            chart->layout()->invalidate();
            chart->layout()->activate();
        }
    };
    const auto relabel = [this](double plotWidth) {
        updateRetryLabels(m_delayX, plotWidth);
        updateRetryLabels(m_elapsedX, plotWidth);
    };
    // Each chart lays itself out; then both plot areas get the same left and
    // right edges, so that the panels share their x axis, and the delay panel
    // gives its legend room under the title.
    m_delay->setPlotArea(QRectF());
    m_elapsed->setPlotArea(QRectF());
    relabel(size.width() * 0.85);
    settle();
    const QString longTitle = QStringLiteral("Delay before retry (s)");
    const bool longFits =
        QFontMetricsF(m_delayY->titleFont()).horizontalAdvance(longTitle) + 70 < m_delay->plotArea().height();
    m_delayY->setTitleText(longFits && !style.compact ? longTitle : QStringLiteral("Delay (s)"));
    settle();
    const QRectF top = m_delay->plotArea();
    const QRectF bottom = m_elapsed->plotArea();
    const double left = std::max(top.left(), bottom.left());
    const double right = std::min(top.right(), bottom.right());
    const double legendHeight = m_legend.place(top.top(), left, right - left, style.compact);
    m_delay->setPlotArea(
        QRectF(left, top.top() + legendHeight, right - left, std::max(20.0, top.height() - legendHeight)));
    m_elapsed->setPlotArea(QRectF(left, bottom.top(), right - left, bottom.height()));
    relabel(right - left);
    // Point markers (radius) scale with the room each retry has.
    const double pixelsPerRetry = (right - left) / (m_axis.high() - m_axis.low());
    for (QAbstractSeries *series : m_delay->series()) {
        if (auto *line = qobject_cast<QLineSeries *>(series); line && line->pointsVisible())
            line->setMarkerSize(std::clamp(pixelsPerRetry * 0.18, 2.0, 4.5));
    }
    settle();
    placeNotes();
}

void ScheduleDrawing::render(QPainter *painter, const QSizeF &size)
{
    painter->setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    painter->fillRect(QRectF(QPointF(0, 0), size), m_colours.background);
    m_scene.render(painter, QRectF(QPointF(0, 0), size), QRectF(QPointF(0, 0), size));
}

} // namespace relaydesk
