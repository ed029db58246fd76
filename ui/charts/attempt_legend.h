// SPDX-License-Identifier: MIT
#pragma once

#include <QColor>
#include <QList>
#include <QScatterSeries>
#include <QString>
#include <QWidget>

namespace relaydesk {

// One entry of the attempt chart's legend: a marker shape, a ring, a line or
// a dashed line in a colour, then its words.
struct LegendEntry {
    enum class Glyph { Marker, Ring, Line, DashedLine, None };
    Glyph glyph = Glyph::Marker;
    QScatterSeries::MarkerShape shape = QScatterSeries::MarkerShapeCircle;
    QColor colour;
    QString text;
};

// The legend under the live attempt chart: rows of entries (phases by colour,
// outcomes by shape, the lines), then a line that says how the chart groups
// what it shows. Painted with the widget's palette; wraps to its width. Its
// accessible description is its text. Thread: GUI; owns nothing but its entries.
class AttemptLegend final : public QWidget {
    Q_OBJECT
public:
    explicit AttemptLegend(QWidget *parent = nullptr);

    void setRows(const QList<QList<LegendEntry>> &rows, const QString &note);
    // Every entry's words and the note, row by row ("; " between entries).
    QString text() const;

    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

    // Draws a marker of `shape` centred at `centre` (also the chart's shapes).
    static void paintShape(QPainter &painter, QScatterSeries::MarkerShape shape, const QPointF &centre, double size);

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    // Lays the entries out at `width`; paints them when `painter` is given. The height used.
    int layout(int width, QPainter *painter) const;

    QList<QList<LegendEntry>> m_rows;
    QString m_note;
};

} // namespace relaydesk
