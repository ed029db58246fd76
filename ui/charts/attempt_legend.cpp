// SPDX-License-Identifier: MIT
#include "charts/attempt_legend.h"

#include <QFontMetrics>
#include <QPainter>
#include <QPainterPath>
#include <QtMath>

namespace relaydesk {

namespace {

constexpr int kGlyph = 12;   // glyph box, pixels
constexpr int kGap = 5;      // glyph to words
constexpr int kSpacing = 14; // between entries
constexpr int kRowGap = 3;

} // namespace

AttemptLegend::AttemptLegend(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("attemptLegend"));
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Minimum);
    setAccessibleName(tr("Legend"));
}

void AttemptLegend::setRows(const QList<QList<LegendEntry>> &rows, const QString &note)
{
    m_rows = rows;
    m_note = note;
    setAccessibleDescription(text());
    updateGeometry();
    update();
}

QString AttemptLegend::text() const
{
    QStringList lines;
    for (const QList<LegendEntry> &row : m_rows) {
        QStringList words;
        for (const LegendEntry &entry : row)
            words << entry.text;
        lines << words.join(QStringLiteral("; "));
    }
    if (!m_note.isEmpty())
        lines << m_note;
    return lines.join(QLatin1Char('\n'));
}

int AttemptLegend::heightForWidth(int width) const { return layout(width, nullptr); }

QSize AttemptLegend::sizeHint() const { return {600, layout(600, nullptr)}; }

QSize AttemptLegend::minimumSizeHint() const { return {200, layout(std::max(width(), 200), nullptr)}; }

void AttemptLegend::paintShape(QPainter &painter, QScatterSeries::MarkerShape shape, const QPointF &centre, double size)
{
    const double r = size / 2;
    switch (shape) {
    case QScatterSeries::MarkerShapeRectangle:
        painter.drawRect(QRectF(centre.x() - r * 0.85, centre.y() - r * 0.85, size * 0.85, size * 0.85));
        return;
    case QScatterSeries::MarkerShapeRotatedRectangle:
    case QScatterSeries::MarkerShapeTriangle:
    case QScatterSeries::MarkerShapeStar:
    case QScatterSeries::MarkerShapePentagon: {
        QPolygonF polygon;
        const int corners = shape == QScatterSeries::MarkerShapeRotatedRectangle ? 4
                          : shape == QScatterSeries::MarkerShapeTriangle        ? 3
                          : shape == QScatterSeries::MarkerShapeStar            ? 10
                                                                                : 5;
        for (int i = 0; i < corners; ++i) {
            const double angle = -M_PI / 2 + 2 * M_PI * i / corners;
            const double radius = shape == QScatterSeries::MarkerShapeStar && i % 2 ? r * 0.45 : r;
            polygon << centre + QPointF(radius * std::cos(angle), radius * std::sin(angle));
        }
        painter.drawPolygon(polygon);
        return;
    }
    default:
        painter.drawEllipse(centre, r * 0.9, r * 0.9);
        return;
    }
}

int AttemptLegend::layout(int width, QPainter *painter) const
{
    const QFontMetrics metrics(font());
    const int lineHeight = std::max(metrics.height(), kGlyph);
    int y = 0;
    for (const QList<LegendEntry> &row : m_rows) {
        int x = 0;
        for (const LegendEntry &entry : row) {
            const int glyph = entry.glyph == LegendEntry::Glyph::None ? 0 : kGlyph + kGap;
            const int entryWidth = glyph + metrics.horizontalAdvance(entry.text);
            if (x > 0 && x + entryWidth > width) {
                x = 0;
                y += lineHeight + kRowGap;
            }
            if (painter) {
                const QPointF centre(x + kGlyph / 2.0, y + lineHeight / 2.0);
                painter->save();
                switch (entry.glyph) {
                case LegendEntry::Glyph::Marker:
                    painter->setPen(QPen(palette().color(QPalette::Base), 1));
                    painter->setBrush(entry.colour);
                    paintShape(*painter, entry.shape, centre, kGlyph);
                    break;
                case LegendEntry::Glyph::Ring:
                    painter->setPen(QPen(entry.colour, 1.6));
                    painter->setBrush(Qt::NoBrush);
                    paintShape(*painter, entry.shape, centre, kGlyph);
                    break;
                case LegendEntry::Glyph::Line:
                case LegendEntry::Glyph::DashedLine:
                    painter->setPen(QPen(entry.colour, 1.6,
                                         entry.glyph == LegendEntry::Glyph::Line ? Qt::SolidLine : Qt::DashLine));
                    painter->drawLine(QPointF(x, centre.y()), QPointF(x + kGlyph, centre.y()));
                    break;
                case LegendEntry::Glyph::None: break;
                }
                painter->restore();
                painter->drawText(QRect(x + glyph, y, width, lineHeight), Qt::AlignLeft | Qt::AlignVCenter,
                                  entry.text);
            }
            x += entryWidth + kSpacing;
        }
        y += lineHeight + kRowGap;
    }
    if (!m_note.isEmpty()) {
        const QRect bounds = metrics.boundingRect(QRect(0, y, std::max(width, 1), 10000), Qt::TextWordWrap, m_note);
        if (painter)
            painter->drawText(QRect(0, y, width, bounds.height()), Qt::TextWordWrap, m_note);
        y += bounds.height();
    }
    return y;
}

void AttemptLegend::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(palette().color(QPalette::WindowText));
    layout(width(), &painter);
}

} // namespace relaydesk
