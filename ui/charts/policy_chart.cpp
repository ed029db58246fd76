// SPDX-License-Identifier: MIT
#include "charts/policy_chart.h"

#include "charts/schedule_drawing.h"

#include <QApplication>
#include <QBuffer>
#include <QChart>
#include <QEvent>
#include <QFileInfo>
#include <QGraphicsView>
#include <QImage>
#include <QPainter>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QVBoxLayout>

#include <algorithm>

namespace relaydesk {
namespace {

// The widget's view: a frameless QGraphicsView that lays the drawing out at
// its own size.
class DrawingView final : public QGraphicsView {
public:
    DrawingView(ScheduleDrawing *drawing, QWidget *parent) : QGraphicsView(drawing->scene(), parent), m_drawing(drawing)
    {
        setFrameShape(QFrame::NoFrame);
        setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
        setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
        setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
        setMinimumSize(360, 240);
        // A picture, not a control: no Tab or click stop (AT-SPI read the view and its viewport as unnamed ones).
        setFocusPolicy(Qt::NoFocus);
        viewport()->setFocusPolicy(Qt::NoFocus);
    }

    void relayout()
    {
        m_drawing->layout(viewport()->size());
        setSceneRect(QRectF(QPointF(0, 0), viewport()->size()));
    }

protected:
    void resizeEvent(QResizeEvent *event) override
    {
        QGraphicsView::resizeEvent(event);
        relayout();
    }

private:
    ScheduleDrawing *m_drawing = nullptr;
};

} // namespace

class PolicyChart::Private {
public:
    ChartContent content;
    ScheduleDrawing drawing;
    DrawingView *view = nullptr; // child of the widget

    void redraw(const QWidget *widget)
    {
        drawing.build(content, ChartColours::from(widget->palette()));
        view->relayout();
    }
};

PolicyChart::PolicyChart(QWidget *parent) : QWidget(parent), d(std::make_unique<Private>())
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    d->view = new DrawingView(&d->drawing, this);
    layout->addWidget(d->view);
    d->redraw(this);
}

PolicyChart::~PolicyChart() = default;

void PolicyChart::setSchedule(const RetrySchedule &schedule, const QString &label)
{
    d->content.schedule = schedule;
    d->content.label = label;
    d->redraw(this);
}

void PolicyChart::setComparison(const std::optional<RetrySchedule> &schedule, const QString &label)
{
    d->content.comparison = schedule;
    d->content.comparisonLabel = schedule ? label : QString();
    d->redraw(this);
}

void PolicyChart::setJitterFraction(double fraction)
{
    d->content.jitter = std::clamp(fraction, 0.0, 1.0);
    d->redraw(this);
}

bool PolicyChart::hasSchedule() const
{
    return d->content.schedule.has_value();
}

std::optional<RetrySchedule> PolicyChart::schedule() const
{
    return d->content.schedule;
}

std::optional<RetrySchedule> PolicyChart::comparison() const
{
    return d->content.comparison;
}

QImage PolicyChart::renderImage(const QSize &size)
{
    if (size.isEmpty())
        return {};
    ScheduleDrawing drawing;
    drawing.build(d->content, ChartColours::from(palette()));
    drawing.layout(size);
    QImage image(size, QImage::Format_RGB32); // opaque: PNG encodes twice as fast as with alpha
    QPainter painter(&image);
    drawing.render(&painter, size);
    return image;
}

QByteArray PolicyChart::renderSvg(const QSize &size)
{
    if (size.isEmpty())
        return {};
    ScheduleDrawing drawing;
    drawing.build(d->content, ChartColours::from(palette()));
    drawing.layout(size);
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator generator;
    generator.setOutputDevice(&buffer);
    generator.setSize(size);
    generator.setViewBox(QRect(QPoint(0, 0), size));
    generator.setResolution(logicalDpiX()); // the text was measured at the screen's dpi
    generator.setTitle(d->content.label.isEmpty() ? QStringLiteral("Retry schedule") : d->content.label);
    generator.setDescription(QStringLiteral("Relaydesk retry-policy chart"));
    QPainter painter;
    if (!painter.begin(&generator))
        return {};
    drawing.render(&painter, size);
    painter.end();

    QByteArray svg = buffer.data();
    // QSvgGenerator states the size in millimetres; a chart is sized in pixels.
    static const QRegularExpression physicalSize(QStringLiteral("<svg width=\"[0-9.]+mm\" height=\"[0-9.]+mm\""));
    const QRegularExpressionMatch match = physicalSize.match(QString::fromLatin1(svg.left(400)));
    if (match.hasMatch())
        svg.replace(match.capturedStart(), match.capturedLength(),
                    QStringLiteral("<svg width=\"%1\" height=\"%2\"").arg(size.width()).arg(size.height()).toUtf8());
    // Qt's generic "Sans Serif" is no CSS family: name the font that was
    // measured, with the CSS generic as the fallback.
    const QString family = QFontInfo(QApplication::font()).family().toHtmlEscaped();
    svg.replace("font-family=\"Sans Serif\"", QStringLiteral("font-family=\"%1, sans-serif\"").arg(family).toUtf8());
    return svg;
}

bool PolicyChart::exportTo(const QString &path, const QSize &size, QString *error)
{
    const auto fail = [error](const QString &message) {
        if (error)
            *error = message;
        return false;
    };
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix != QLatin1String("png") && suffix != QLatin1String("svg"))
        return fail(QStringLiteral("the file name must end in .png or .svg"));
    if (size.isEmpty())
        return fail(QStringLiteral("the size must be positive"));
    QByteArray bytes;
    if (suffix == QLatin1String("png")) {
        QBuffer buffer(&bytes);
        buffer.open(QIODevice::WriteOnly);
        if (!renderImage(size).save(&buffer, "PNG"))
            return fail(QStringLiteral("PNG encoding failed"));
    } else {
        bytes = renderSvg(size);
        if (bytes.isEmpty())
            return fail(QStringLiteral("SVG rendering failed"));
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit())
        return fail(file.errorString());
    return true;
}

QChart *PolicyChart::delayChartForTest() const
{
    return d->drawing.delayChart();
}

QChart *PolicyChart::elapsedChartForTest() const
{
    return d->drawing.elapsedChart();
}

void PolicyChart::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        d->redraw(this);
}

} // namespace relaydesk
