// SPDX-License-Identifier: MIT
// ScheduleDrawing, the content: the series, legend entries and notes of both
// panels for one ChartContent. The layout at a size is in
// schedule_drawing_layout.cpp.
#include "charts/schedule_drawing.h"

#include "policy/policy_report.h"

#include <QAreaSeries>
#include <QCategoryAxis>
#include <QChart>
#include <QGraphicsRectItem>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QLegend>
#include <QLineSeries>
#include <QRegularExpression>
#include <QTextDocument>
#include <QTextOption>
#include <QValueAxis>

#include <algorithm>

namespace relaydesk {
namespace {

// How far a jitter band reaches past the first and last retry of its run.
constexpr double kBandOverhang = 0.3;

} // namespace

ScheduleDrawing::ScheduleDrawing()
    : m_delay(new QChart), m_elapsed(new QChart), m_delayX(new QCategoryAxis), m_delayY(new QValueAxis),
      m_elapsedX(new QCategoryAxis), m_elapsedY(new QValueAxis)
{
    m_scene.addItem(m_delay);
    m_scene.addItem(m_elapsed);
    for (QCategoryAxis *axis : {m_delayX, m_elapsedX})
        axis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    m_delayX->setTitleVisible(false);
    m_delay->addAxis(m_delayX, Qt::AlignBottom);
    m_delay->addAxis(m_delayY, Qt::AlignLeft);
    m_elapsed->addAxis(m_elapsedX, Qt::AlignBottom);
    m_elapsed->addAxis(m_elapsedY, Qt::AlignLeft);
    // The legend is drawn by hand under the title (ScheduleLegend).
    m_delay->legend()->setVisible(false);
    m_elapsed->legend()->setVisible(false);
}

void ScheduleDrawing::clear()
{
    for (const Note &note : m_notes) {
        delete note.text;
        delete note.box;
    }
    m_notes.clear();
    m_legend.clear();
    m_delay->removeAllSeries();
    m_elapsed->removeAllSeries();
}

void ScheduleDrawing::styleChart(QChart *chart)
{
    chart->setTheme(m_colours.dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setBackgroundRoundness(0);
    chart->setBackgroundBrush(m_colours.background);
    chart->setBackgroundPen(Qt::NoPen);
    chart->setTitleBrush(m_colours.text);
    chart->setMargins(QMargins(10, 4, 26, 4));
    chart->legend()->setVisible(false);
}

void ScheduleDrawing::styleAxis(QAbstractAxis *axis)
{
    axis->setTitleBrush(m_colours.text);
    axis->setLabelsColor(m_colours.text);
    axis->setGridLineColor(m_colours.grid);
    axis->setLinePenColor(m_colours.grid);
    axis->setMinorGridLineVisible(false);
    axis->setTruncateLabels(false);
}

QLineSeries *ScheduleDrawing::addLine(QChart *chart, const QString &objectName, const QString &name, const QPen &pen)
{
    auto *series = new QLineSeries;
    series->setObjectName(objectName);
    series->setName(name);
    series->setPen(pen);
    chart->addSeries(series);
    for (QAbstractAxis *axis : chart->axes())
        series->attachAxis(axis);
    return series;
}

void ScheduleDrawing::addArea(QChart *chart, const QString &objectName, const QString &name,
                              const QList<QPointF> &upper, const QList<QPointF> &lower, const QColor &fill)
{
    auto *area = new QAreaSeries;
    auto *upperLine = new QLineSeries(area);
    auto *lowerLine = new QLineSeries(area);
    upperLine->append(upper);
    lowerLine->append(lower);
    area->setUpperSeries(upperLine);
    area->setLowerSeries(lowerLine);
    area->setObjectName(objectName);
    area->setName(name);
    area->setBrush(fill);
    area->setPen(Qt::NoPen);
    chart->addSeries(area);
    for (QAbstractAxis *axis : chart->axes())
        area->attachAxis(axis);
}

// Line 1, bold: what the schedule amounts to; line 2, smaller: the dialect and
// the comparison. One font per line, so that SVG viewers, which measure text
// their own way, cannot make the runs of a line overlap.
QString ScheduleDrawing::titleHtml(const ChartContent &content, bool compact) const
{
    if (!content.schedule)
        return QStringLiteral("<b>No valid policy</b>");
    const auto summary = [](const QString &label, const RetrySchedule &schedule) {
        return QStringLiteral("%1 — %2").arg(label.toHtmlEscaped(),
                                             QString::fromStdString(scheduleSummary(schedule)).toHtmlEscaped());
    };
    const RetrySchedule &schedule = *content.schedule;
    QString details = dialectText(schedule.dialect());
    if (content.comparison) {
        details += compact
            ? QStringLiteral(" · compared with (dashed) ") + content.comparisonLabel.toHtmlEscaped()
            : QStringLiteral(" · compared with (dashed) ") + summary(content.comparisonLabel, *content.comparison);
        if (content.comparison->dialect() != schedule.dialect())
            details += QStringLiteral(", ") + dialectText(content.comparison->dialect());
    }
    return QStringLiteral("<p align=\"center\"><b>%1</b><br><span style=\"font-size:small; color:%2\">%3</span></p>")
        .arg(summary(content.label, schedule), m_colours.muted.name(), details);
}

void ScheduleDrawing::build(const ChartContent &content, const ChartColours &colours)
{
    clear();
    m_colours = colours;
    std::vector<const RetrySchedule *> schedules;
    if (content.schedule)
        schedules.push_back(&*content.schedule);
    if (content.comparison)
        schedules.push_back(&*content.comparison);
    m_axis = RetryAxis(schedules);

    for (QChart *chart : {m_delay, m_elapsed})
        styleChart(chart); // the theme first: it resets the axes' colours
    for (QAbstractAxis *axis : {static_cast<QAbstractAxis *>(m_delayX), static_cast<QAbstractAxis *>(m_delayY),
                                static_cast<QAbstractAxis *>(m_elapsedX), static_cast<QAbstractAxis *>(m_elapsedY)})
        styleAxis(axis);
    for (QCategoryAxis *axis : {m_delayX, m_elapsedX})
        axis->setRange(m_axis.low(), m_axis.high());
    m_titleFull = titleHtml(content, false);
    m_titleCompact = titleHtml(content, true);
    m_titleTiny = m_titleCompact.left(m_titleCompact.indexOf(QLatin1String("<br>"))); // line 1
    m_delay->setTitle(m_titleFull);

    buildDelayPanel(content);
    buildElapsedPanel(content);
    fitValueAxes(nullptr);
}

void ScheduleDrawing::buildDelayPanel(const ChartContent &content)
{
    const double jitter = std::clamp(content.jitter, 0.0, 1.0);
    m_delayTop = 1;
    if (content.schedule)
        m_delayTop = std::max(m_delayTop, content.schedule->maxDelaySeconds() * (1 + jitter));
    if (content.comparison)
        m_delayTop = std::max(m_delayTop, double(content.comparison->maxDelaySeconds()));
    m_delayY->setTitleText(QStringLiteral("Delay before retry (s)"));
    addBreaks(m_delay, true, content);

    // Stacking order: bands, then the comparison, then the phases on top.
    const bool showJitter = content.schedule && jitter > 0 && content.schedule->maxDelaySeconds() > 0;
    const QString jitterName = QStringLiteral("jitter ±%1 %").arg(jitter * 100, 0, 'g', 3);
    if (showJitter)
        addJitterBands(*content.schedule, jitter, jitterName);
    const QPen comparisonPen(m_colours.muted, 2, Qt::DashLine);
    const QString comparisonName = QStringLiteral("compared: %1").arg(content.comparisonLabel);
    if (content.comparison) {
        QLineSeries *line = addLine(m_delay, QStringLiteral("comparison"), comparisonName, comparisonPen);
        QList<QPointF> points;
        for (const auto &[from, to] : m_axis.shownRuns(1, content.comparison->retries())) {
            for (int64_t r = from; r <= to; ++r)
                points.append({m_axis.x(r), double(content.comparison->delayBeforeRetry(r))});
        }
        line->append(points);
    }
    if (content.schedule)
        addPhaseLines(*content.schedule);
    if (showJitter)
        m_legend.add(m_delay, jitterName, jitterName, Qt::NoPen, m_colours.band, false, m_colours.text);
    if (content.comparison)
        m_legend.add(m_delay, comparisonName, QStringLiteral("compared"), comparisonPen, Qt::NoBrush, false,
                     m_colours.text);
}

// One series per shown run of each phase, and a dashed bridge over each break.
void ScheduleDrawing::addPhaseLines(const RetrySchedule &schedule)
{
    int64_t start = 1;
    for (const SchedulePhase &phase : schedule.phases()) {
        const int64_t first = start;
        start += phase.retries;
        const QString objectName = QStringLiteral("phase:") + fromView(retryPhaseName(phase.phase));
        const QString name = phaseLegend(schedule, phase);
        QPen pen(phaseColour(phase.phase), 2.5);
        pen.setCapStyle(Qt::RoundCap);
        m_legend.add(m_delay, name, fromView(retryPhaseName(phase.phase)), pen, Qt::NoBrush, true, m_colours.text);
        const auto runs = m_axis.shownRuns(first, start - 1); // none for an empty phase
        if (runs.empty())
            addLine(m_delay, objectName, name, pen); // keeps the phase in the series list
        for (size_t i = 0; i < runs.size(); ++i) {
            QLineSeries *line = addLine(m_delay, objectName, name, pen);
            line->setPointsVisible(true);
            QList<QPointF> points;
            for (int64_t r = runs[i].first; r <= runs[i].second; ++r)
                points.append({m_axis.x(r), double(phase.delayOf(r - first))});
            line->append(points);
            if (i + 1 == runs.size())
                continue;
            const int64_t hidden = runs[i + 1].first - runs[i].second - 1;
            QPen dashed = pen;
            dashed.setStyle(Qt::DashLine);
            const QString label =
                QStringLiteral("… %1 more retries × %2 s …").arg(groupedNumber(hidden)).arg(phase.delaySeconds);
            QLineSeries *bridge = addLine(m_delay, QStringLiteral("elided"), label, dashed);
            bridge->append({{m_axis.x(runs[i].second), double(phase.delaySeconds)},
                            {m_axis.x(runs[i + 1].first), double(phase.delaySeconds)}});
        }
    }
}

// ±J around each non-zero delay (docs/behaviour.md §3.5): one band per shown run of a
// phase, reaching a little past its end points so that a lone retry shows
// its band too; nothing between phases.
void ScheduleDrawing::addJitterBands(const RetrySchedule &schedule, double jitter, const QString &name)
{
    int64_t start = 1;
    for (const SchedulePhase &phase : schedule.phases()) {
        const int64_t begin = start;
        start += phase.retries;
        for (const auto &[from, to] : m_axis.shownRuns(begin, start - 1)) {
            if (phase.delayOf(to - begin) == 0)
                continue; // the immediate phase: nothing to spread
            QList<QPointF> upper;
            QList<QPointF> lower;
            const auto add = [&](double x, int delay) {
                upper.append({x, delay * (1 + jitter)});
                lower.append({x, delay * (1 - jitter)});
            };
            add(m_axis.x(from) - kBandOverhang, phase.delayOf(from - begin));
            for (int64_t r = from; r <= to; ++r)
                add(m_axis.x(r), phase.delayOf(r - begin));
            add(m_axis.x(to) + kBandOverhang, phase.delayOf(to - begin));
            addArea(m_delay, QStringLiteral("jitter"), name, upper, lower, m_colours.band);
        }
    }
}

void ScheduleDrawing::buildElapsedPanel(const ChartContent &content)
{
    int64_t span = 0;
    if (content.schedule)
        span = std::max(span, content.schedule->totalDelaySeconds());
    if (content.comparison)
        span = std::max(span, content.comparison->totalDelaySeconds());
    const TimeUnit unit = unitForSpan(span);
    m_elapsedTop = std::max(1.0, double(span) / unit.seconds);
    m_elapsedY->setTitleText(QStringLiteral("Elapsed (%1)").arg(unit.name));
    m_elapsedUnit = unit.name;
    addBreaks(m_elapsed, false, content);
    if (content.comparison) {
        const RetrySchedule &other = *content.comparison;
        QLineSeries *line = addLine(m_elapsed, QStringLiteral("elapsed:comparison"),
                                    QStringLiteral("compared: %1").arg(content.comparisonLabel),
                                    QPen(m_colours.muted, 2, Qt::DashLine));
        QList<QPointF> points;
        for (const auto &[from, to] : m_axis.shownRuns(0, other.retries())) {
            for (int64_t r = from; r <= to; ++r)
                points.append({m_axis.x(r), double(other.secondsUntilAttempt(r)) / unit.seconds});
        }
        line->append(points);
    }
    if (content.schedule)
        addElapsedLines(*content.schedule, unit);

    // The totals, at the end of each line.
    for (const auto &[schedule, colour] :
         {std::pair{&content.schedule, m_colours.text}, std::pair{&content.comparison, m_colours.muted}}) {
        if (!*schedule)
            continue;
        const RetrySchedule &s = **schedule;
        auto *text =
            new QGraphicsSimpleTextItem(QString::fromStdString(durationText(s.totalDelaySeconds())), m_elapsed);
        text->setBrush(colour);
        text->setZValue(100);
        m_notes.push_back(
            {m_elapsed, text, nullptr, {m_axis.x(s.retries()), double(s.totalDelaySeconds()) / unit.seconds}, 0});
    }
}

// The time since the first attempt at each attempt, one line per shown run
// of a phase (from the attempt before it), dashed across breaks.
void ScheduleDrawing::addElapsedLines(const RetrySchedule &schedule, const TimeUnit &unit)
{
    const auto at = [&](int64_t attempt) {
        return QPointF(m_axis.x(attempt), double(schedule.secondsUntilAttempt(attempt)) / unit.seconds);
    };
    int64_t start = 1;
    for (const SchedulePhase &phase : schedule.phases()) {
        const int64_t first = start;
        start += phase.retries;
        if (phase.retries == 0)
            continue;
        const QPen pen(phaseColour(phase.phase), 2.5);
        const QString objectName = QStringLiteral("elapsed:") + fromView(retryPhaseName(phase.phase));
        const auto runs = m_axis.shownRuns(first - 1, start - 1);
        for (size_t i = 0; i < runs.size(); ++i) {
            QLineSeries *line = addLine(m_elapsed, objectName, fromView(retryPhaseName(phase.phase)), pen);
            QList<QPointF> points;
            for (int64_t r = runs[i].first; r <= runs[i].second; ++r)
                points.append(at(r));
            line->append(points);
            if (i + 1 == runs.size())
                continue;
            QPen dashed = pen;
            dashed.setStyle(Qt::DashLine);
            addLine(m_elapsed, QStringLiteral("elapsed:elided"), {}, dashed)
                ->append({at(runs[i].second), at(runs[i + 1].first)});
        }
    }
}

// The shaded gap of every break and, in the delay panel, the words that say
// what the gap hides for each schedule.
void ScheduleDrawing::addBreaks(QChart *chart, bool labelled, const ChartContent &content)
{
    for (const RetryAxis::Break &gap : m_axis.breaks()) {
        const double left = gap.x0 + 0.5;
        const double right = gap.x1 - 0.5;
        // Full height: fitValueAxes() raises the top to the axis maximum.
        addArea(chart, QStringLiteral("break"), {}, {{left, 1}, {right, 1}}, {{left, 0}, {right, 0}},
                m_colours.breakShade);
        if (!labelled)
            continue;
        QStringList lines;
        const auto describe = [&](const RetrySchedule &schedule, const QString &prefix) {
            if (schedule.retries() >= gap.last)
                lines << QStringLiteral("%1… %2 more retries × %3 s …")
                             .arg(prefix, groupedNumber(gap.count()))
                             .arg(schedule.delayBeforeRetry(gap.first));
        };
        if (content.schedule)
            describe(*content.schedule, {});
        if (content.comparison)
            describe(*content.comparison, content.schedule ? QStringLiteral("dashed: ") : QString());
        // Numbers and "× 20 s" never break across lines; the words may.
        QString words = lines.join(QLatin1Char('\n'));
        static const QRegularExpression keepTogether(QStringLiteral("(?<=[0-9…×]) (?=[0-9s…])"));
        words.replace(keepTogether, QString(QChar::Nbsp));
        auto *text = new QGraphicsTextItem(m_delay);
        text->setDefaultTextColor(m_colours.text);
        QTextOption option(Qt::AlignHCenter);
        option.setWrapMode(QTextOption::WordWrap);
        text->document()->setDefaultTextOption(option);
        text->setPlainText(words);
        text->setZValue(101);
        auto *box = new QGraphicsRectItem(m_delay);
        QColor boxColour = m_colours.background;
        boxColour.setAlpha(225);
        box->setBrush(boxColour);
        box->setPen(QPen(m_colours.grid));
        box->setZValue(100);
        m_notes.push_back({m_delay, text, box, {(gap.x0 + gap.x1) / 2, 0.5}, right - left});
    }
}

} // namespace relaydesk
