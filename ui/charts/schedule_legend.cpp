// SPDX-License-Identifier: MIT
#include "charts/schedule_legend.h"

#include <QBrush>
#include <QColor>
#include <QFont>
#include <QGraphicsEllipseItem>
#include <QGraphicsLineItem>
#include <QGraphicsRectItem>
#include <QGraphicsSimpleTextItem>
#include <QPen>

#include <algorithm>

namespace relaydesk {

void ScheduleLegend::add(QGraphicsItem *parent, const QString &full, const QString &brief, const QPen &pen,
                         const QBrush &fill, bool dot, const QColor &textColour)
{
    constexpr double kWidth = 26;
    constexpr double kHeight = 12;
    auto *swatch = new QGraphicsRectItem(0, 0, kWidth, kHeight, parent);
    swatch->setPen(Qt::NoPen);
    swatch->setZValue(100);
    if (fill.style() != Qt::NoBrush) {
        auto *box = new QGraphicsRectItem(0, 1, kWidth, kHeight - 2, swatch);
        box->setBrush(fill);
        box->setPen(Qt::NoPen);
    }
    if (pen.style() != Qt::NoPen) {
        auto *line = new QGraphicsLineItem(1, kHeight / 2, kWidth - 1, kHeight / 2, swatch);
        line->setPen(pen);
    }
    if (dot) {
        auto *circle = new QGraphicsEllipseItem(kWidth / 2 - 3.5, kHeight / 2 - 3.5, 7, 7, swatch);
        circle->setBrush(pen.color());
        circle->setPen(Qt::NoPen);
    }
    auto *text = new QGraphicsSimpleTextItem(full, parent);
    text->setBrush(textColour);
    text->setZValue(100);
    m_entries.push_back({swatch, text, full, brief});
}

void ScheduleLegend::clear()
{
    for (const Entry &entry : m_entries) {
        delete entry.swatch;
        delete entry.text;
    }
    m_entries.clear();
}

void ScheduleLegend::applyText(const QFont &font, bool compact)
{
    for (const Entry &entry : m_entries) {
        entry.text->setFont(font);
        entry.text->setText(compact ? entry.brief : entry.full);
    }
}

double ScheduleLegend::measure(double width, bool compact) const
{
    return layout(0, 0, width, compact, false);
}

double ScheduleLegend::place(double top, double left, double width, bool compact)
{
    return layout(top, left, width, compact, true);
}

double ScheduleLegend::layout(double top, double left, double width, bool compact, bool placeItems) const
{
    if (m_entries.empty())
        return 0;
    const double gap = compact ? 12 : 22;
    constexpr double kSwatchGap = 6;
    const auto entryWidth = [](const Entry &entry) {
        return entry.swatch->rect().width() + kSwatchGap + entry.text->boundingRect().width();
    };
    std::vector<std::vector<const Entry *>> rows(1);
    double used = 0;
    for (const Entry &entry : m_entries) {
        const double w = entryWidth(entry);
        if (!rows.back().empty() && used + gap + w > width) {
            rows.emplace_back();
            used = 0;
        }
        used += (rows.back().empty() ? 0 : gap) + w;
        rows.back().push_back(&entry);
    }
    const double rowHeight = m_entries.front().text->boundingRect().height() + 3;
    if (!placeItems)
        return double(rows.size()) * rowHeight + 6;
    double y = top + 2;
    for (const auto &row : rows) {
        double rowWidth = -gap;
        for (const Entry *entry : row)
            rowWidth += entryWidth(*entry) + gap;
        double x = left + std::max(0.0, (width - rowWidth) / 2);
        for (const Entry *entry : row) {
            const double textHeight = entry->text->boundingRect().height();
            entry->swatch->setPos(x, y + (textHeight - entry->swatch->rect().height()) / 2);
            entry->text->setPos(x + entry->swatch->rect().width() + kSwatchGap, y);
            x += entryWidth(*entry) + gap;
        }
        y += rowHeight;
    }
    return y - top + 4;
}

} // namespace relaydesk
