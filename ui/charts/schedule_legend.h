// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

#include <vector>

class QBrush;
class QColor;
class QFont;
class QGraphicsItem;
class QGraphicsRectItem;
class QGraphicsSimpleTextItem;
class QPen;

namespace relaydesk {

// The legend of the delay panel, drawn under its title as centred rows of
// swatch and text that wrap to the width: QLegend can order its entries only
// by the stacking order of the series, and cannot wrap. Its items are
// children of the graphics item passed to add(), which owns them; clear()
// deletes them early. GUI thread only.
class ScheduleLegend final {
public:
    ScheduleLegend() = default;
    ScheduleLegend(const ScheduleLegend &) = delete;
    ScheduleLegend &operator=(const ScheduleLegend &) = delete;

    // An entry reading `full` (or `brief` when compact): a line in `pen`
    // (unless Qt::NoPen) over a box of `fill` (unless Qt::NoBrush), with a
    // dot in the pen's colour if `dot`.
    void add(QGraphicsItem *parent, const QString &full, const QString &brief, const QPen &pen, const QBrush &fill,
             bool dot, const QColor &textColour);
    void clear();

    // The font and wording (full or brief) of every entry.
    void applyText(const QFont &font, bool compact);
    // The height the rows take in `width`.
    double measure(double width, bool compact) const;
    // Places the rows from `top`, centred in [left, left + width]; returns
    // their height.
    double place(double top, double left, double width, bool compact);

private:
    struct Entry {
        QGraphicsRectItem *swatch = nullptr;
        QGraphicsSimpleTextItem *text = nullptr;
        QString full;
        QString brief;
    };

    // Flows the entries into centred rows; places them unless `placeItems` is false.
    double layout(double top, double left, double width, bool compact, bool placeItems) const;

    std::vector<Entry> m_entries;
};

} // namespace relaydesk
