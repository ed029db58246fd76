// SPDX-License-Identifier: MIT
#pragma once

#include "charts/chart_style.h"
#include "charts/retry_axis.h"
#include "charts/schedule_legend.h"
#include "policy/retry_schedule.h"

#include <QGraphicsScene>
#include <QList>
#include <QPointF>
#include <QString>

#include <optional>
#include <vector>

class QAbstractAxis;
class QCategoryAxis;
class QChart;
class QGraphicsItem;
class QGraphicsRectItem;
class QLineSeries;
class QPainter;
class QPen;
class QSizeF;
class QValueAxis;

namespace relaydesk {

// What one drawing shows: a schedule, an optional comparison, and the jitter
// fraction of the band. Value type.
struct ChartContent {
    std::optional<RetrySchedule> schedule;
    QString label;
    std::optional<RetrySchedule> comparison;
    QString comparisonLabel;
    double jitter = 0.1;
};

// The two panels of one drawing — delay before each retry above, time since
// the first attempt below, sharing the x axis — as two QCharts in an owned
// scene. The widget keeps one for display; every export builds its own at
// the requested size. build() makes the series, legend and notes
// (schedule_drawing.cpp); layout() fits them to a size
// (schedule_drawing_layout.cpp). GUI thread only.
class ScheduleDrawing final {
public:
    ScheduleDrawing();
    ScheduleDrawing(const ScheduleDrawing &) = delete;
    ScheduleDrawing &operator=(const ScheduleDrawing &) = delete;

    QGraphicsScene *scene() { return &m_scene; }
    QChart *delayChart() const { return m_delay; }
    QChart *elapsedChart() const { return m_elapsed; }
    const ChartColours &colours() const { return m_colours; }

    // Replaces everything drawn by `content` in `colours`.
    void build(const ChartContent &content, const ChartColours &colours);
    // Fits the panels, text, tick labels, legend and notes to `size`.
    void layout(const QSizeF &size);
    // Paints the scene (as last laid out) onto `painter`, background first.
    void render(QPainter *painter, const QSizeF &size);

private:
    // Text placed over a panel: the label of a break, or a total at the end
    // of an elapsed line.
    struct Note {
        QChart *chart = nullptr;
        QGraphicsItem *text = nullptr;
        QGraphicsRectItem *box = nullptr; // break labels only
        QPointF at;                       // value coordinates
        double widthUnits = 0;            // break labels: the gap's width in x units
    };

    // schedule_drawing.cpp: the content.
    void clear();
    void styleChart(QChart *chart);
    void styleAxis(QAbstractAxis *axis);
    QLineSeries *addLine(QChart *chart, const QString &objectName, const QString &name, const QPen &pen);
    void addArea(QChart *chart, const QString &objectName, const QString &name, const QList<QPointF> &upper,
                 const QList<QPointF> &lower, const QColor &fill);
    void buildDelayPanel(const ChartContent &content);
    void addPhaseLines(const RetrySchedule &schedule);
    void addJitterBands(const RetrySchedule &schedule, double jitter, const QString &name);
    void buildElapsedPanel(const ChartContent &content);
    void addElapsedLines(const RetrySchedule &schedule, const TimeUnit &unit);
    void addBreaks(QChart *chart, bool labelled, const ChartContent &content);
    QString titleHtml(const ChartContent &content, bool compact) const;

    // schedule_drawing_layout.cpp: the layout.
    void applyText(const TextStyle &style);
    void fitValueAxes(const TextStyle *style);
    void updateRetryLabels(QCategoryAxis *axis, double plotWidth);
    void placeNotes();

    QGraphicsScene m_scene;
    QChart *m_delay = nullptr;   // owned by m_scene
    QChart *m_elapsed = nullptr; // owned by m_scene
    // The four axes live as long as the charts: removing axes leaves their
    // items in the scene until the event loop runs.
    QCategoryAxis *m_delayX = nullptr;
    QValueAxis *m_delayY = nullptr;
    QCategoryAxis *m_elapsedX = nullptr;
    QValueAxis *m_elapsedY = nullptr;
    double m_delayTop = 1;   // largest delay drawn, seconds
    double m_elapsedTop = 1; // longest span drawn, in m_elapsedUnit
    QString m_titleFull;
    QString m_titleCompact;
    QString m_titleTiny;
    QString m_elapsedUnit;
    RetryAxis m_axis;
    ChartColours m_colours;
    std::vector<Note> m_notes;
    ScheduleLegend m_legend; // its items are children of m_delay
};

} // namespace relaydesk
