// SPDX-License-Identifier: MIT
#include "charts/policy_chart.h"

#include "policy/policy_report.h"

#include <QApplication>
#include <QAreaSeries>
#include <QBuffer>
#include <QCategoryAxis>
#include <QChart>
#include <QEvent>
#include <QFileInfo>
#include <QGraphicsLayout>
#include <QGraphicsRectItem>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QGraphicsView>
#include <QImage>
#include <QLegend>
#include <QLineSeries>
#include <QPainter>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QTextDocument>
#include <QTextOption>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <vector>

namespace relaydesk {
namespace {

// A constant phase longer than this is drawn as its first kHeadShown and last
// kTailShown retries around a labelled break; nothing else is ever elided.
constexpr int64_t kLongPhase = 100;
constexpr int64_t kHeadShown = 8;
constexpr int64_t kTailShown = 2;
// A run of hidden retries shorter than this is drawn after all.
constexpr int64_t kMinHidden = 10;
// Share of the height (less the legend) given to the delay panel; the elapsed
// panel gets the rest.
constexpr double kDelayPanelShare = 0.57;
// Room left and right of the first and last retry, in retries.
constexpr double kXPadding = 0.6;
// How far a jitter band reaches past the first and last retry of its run.
constexpr double kBandOverhang = 0.3;

QString fromView(std::string_view text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

// "100 015": grouped from five digits on, as the SPEC writes counts.
QString groupedNumber(int64_t value)
{
    QString digits = QString::number(value < 0 ? -value : value);
    if (digits.size() > 4) {
        for (qsizetype i = digits.size() - 3; i > 0; i -= 3)
            digits.insert(i, QLatin1Char(' '));
    }
    return value < 0 ? QLatin1Char('-') + digits : digits;
}

// Okabe–Ito colours: told apart by colour-blind readers too, and of middle
// lightness so that they read on a light and on a dark background.
QColor phaseColour(RetryPhase phase)
{
    switch (phase) {
    case RetryPhase::Immediate: return QColor(0xCC, 0x79, 0xA7);   // reddish purple
    case RetryPhase::PreBackoff: return QColor(0x56, 0xB4, 0xE9);  // sky blue
    case RetryPhase::Backoff: return QColor(0xE6, 0x9F, 0x00);     // orange
    case RetryPhase::PostBackoff: return QColor(0x00, 0x9E, 0x73); // bluish green
    }
    return {};
}

// "backoff · 10 exponential, 1→60 s", "postBackoff · 35 × 60 s", "immediate · none".
QString phaseLegend(const RetrySchedule &schedule, const SchedulePhase &phase)
{
    const QString name = fromView(retryPhaseName(phase.phase));
    if (phase.retries == 0)
        return name + QStringLiteral(" · none");
    if (phase.phase == RetryPhase::Backoff && !phase.delays.empty()) {
        const int first = phase.delays.front();
        const int last = phase.delays.back();
        const QString range =
            first == last ? QStringLiteral("%1 s").arg(first) : QStringLiteral("%1→%2 s").arg(first).arg(last);
        return QStringLiteral("%1 · %2 %3, %4")
            .arg(name, groupedNumber(phase.retries), fromView(backoffFunctionName(schedule.backoffFunction())), range);
    }
    return QStringLiteral("%1 · %2 × %3 s").arg(name, groupedNumber(phase.retries)).arg(phase.delaySeconds);
}

QString dialectText(Dialect dialect)
{
    return dialect == Dialect::Zaqar ? QStringLiteral("Zaqar dialect") : QStringLiteral("SNS dialect");
}

struct TimeUnit {
    double seconds = 1;
    QString name;
};

// The unit of the elapsed axis, chosen so that the span reads as 1 to 120 of it.
TimeUnit unitForSpan(int64_t seconds)
{
    if (seconds <= 120)
        return {1, QStringLiteral("s")};
    if (seconds <= 120 * 60)
        return {60, QStringLiteral("min")};
    if (seconds <= 48 * 3600)
        return {3600, QStringLiteral("h")};
    return {86400, QStringLiteral("d")};
}

// Retry numbers -> x positions. Retries deep inside long constant phases (of
// every schedule drawn) are hidden; each hidden run becomes a break of fixed
// width. Phase boundaries and each schedule's last retry always stay shown,
// so a hidden run lies inside one constant phase of every schedule that
// reaches it. Value type.
class RetryAxis final {
public:
    struct Break {
        int64_t first = 0; // first hidden retry
        int64_t last = 0;  // last hidden retry
        double x0 = 0;     // x of first - 1
        double x1 = 0;     // x of last + 1
        int64_t count() const { return last - first + 1; }
    };

    RetryAxis() = default;
    explicit RetryAxis(const std::vector<const RetrySchedule *> &schedules)
    {
        std::vector<std::pair<int64_t, int64_t>> kept{{0, 0}};
        for (const RetrySchedule *schedule : schedules) {
            int64_t start = 1;
            for (const SchedulePhase &phase : schedule->phases()) {
                if (phase.retries == 0)
                    continue;
                const int64_t end = start + phase.retries - 1;
                if (phase.phase != RetryPhase::Backoff && phase.retries > kLongPhase) {
                    kept.emplace_back(start, start + kHeadShown - 1);
                    kept.emplace_back(end - kTailShown + 1, end);
                } else {
                    kept.emplace_back(start, end);
                }
                start = end + 1;
            }
            m_last = std::max(m_last, start - 1);
        }
        std::sort(kept.begin(), kept.end());
        int64_t shownUpTo = 0;
        int64_t hidden = 0;
        for (const auto &[from, to] : kept) {
            if (from - shownUpTo - 1 >= kMinHidden) {
                m_breaks.push_back({shownUpTo + 1, from - 1, 0, 0});
                hidden += from - 1 - shownUpTo;
            }
            shownUpTo = std::max(shownUpTo, to);
        }
        m_breakWidth = std::max(4.0, std::round(double(m_last - hidden) * 0.35));
        for (Break &gap : m_breaks) {
            gap.x0 = x(gap.first - 1);
            gap.x1 = x(gap.last + 1);
        }
    }

    int64_t lastRetry() const { return m_last; }
    double low() const { return -kXPadding; }
    double high() const { return x(m_last) + kXPadding; }
    const std::vector<Break> &breaks() const { return m_breaks; }

    // Precondition: `retry` is shown.
    double x(int64_t retry) const
    {
        double position = double(retry);
        for (const Break &gap : m_breaks) {
            if (gap.last >= retry)
                break;
            position += m_breakWidth - 1 - double(gap.count());
        }
        return position;
    }

    // The runs of consecutive shown retries within [from, to].
    std::vector<std::pair<int64_t, int64_t>> shownRuns(int64_t from, int64_t to) const
    {
        std::vector<std::pair<int64_t, int64_t>> runs;
        int64_t start = from;
        for (const Break &gap : m_breaks) {
            if (gap.last < start || gap.first > to)
                continue;
            if (gap.first > start)
                runs.emplace_back(start, gap.first - 1);
            start = gap.last + 1;
        }
        if (start <= to)
            runs.emplace_back(start, to);
        return runs;
    }

private:
    std::vector<Break> m_breaks;
    int64_t m_last = 0;
    double m_breakWidth = 4;
};

struct ChartContent {
    std::optional<RetrySchedule> schedule;
    QString label;
    std::optional<RetrySchedule> comparison;
    QString comparisonLabel;
    double jitter = 0.1;
};

// Colours derived from the widget's palette, so the chart follows a dark theme.
struct ChartColours {
    bool dark = false;
    QColor background;
    QColor text;
    QColor grid;
    QColor muted;      // the comparison and the second title line
    QColor band;       // jitter band, translucent
    QColor breakShade; // the gap of a compressed run

    static ChartColours from(const QPalette &palette)
    {
        ChartColours c;
        c.background = palette.color(QPalette::Base);
        c.text = palette.color(QPalette::Text);
        c.dark = c.background.lightness() < 128;
        const auto mix = [&c](double t, int alpha = 255) {
            QColor m = QColor::fromRgbF(c.background.redF() * (1 - t) + c.text.redF() * t,
                                        c.background.greenF() * (1 - t) + c.text.greenF() * t,
                                        c.background.blueF() * (1 - t) + c.text.blueF() * t);
            m.setAlpha(alpha);
            return m;
        };
        c.grid = mix(0.13);
        c.muted = mix(0.8);
        c.band = mix(1.0, c.dark ? 60 : 38);
        c.breakShade = mix(0.07);
        return c;
    }
};

// Text for one layout size: smaller and shorter below 700x450; below 480x340
// a one-line title, and the units in the tick labels instead of axis titles.
struct TextStyle {
    bool compact = false;
    bool tiny = false;
    QFont body;
    QFont title;

    explicit TextStyle(const QSizeF &size)
        : compact(size.width() < 700 || size.height() < 450), tiny(size.width() < 480 || size.height() < 340),
          body(QApplication::font()), title(body)
    {
        if (compact)
            body.setPointSizeF(body.pointSizeF() * 0.88);
        title.setPointSizeF(body.pointSizeF() * (tiny ? 1.0 : size.width() >= 900 ? 1.3 : 1.1));
    }
};

// The two panels of one drawing — delay before each retry above, time since
// the first attempt below, sharing the x axis — as two QCharts in an owned
// scene. The widget keeps one for display; every export builds its own at
// the requested size. GUI thread only.
class ScheduleDrawing final {
public:
    ScheduleDrawing();
    ScheduleDrawing(const ScheduleDrawing &) = delete;
    ScheduleDrawing &operator=(const ScheduleDrawing &) = delete;

    QGraphicsScene *scene() { return &m_scene; }
    QChart *delayChart() const { return m_delay; }
    QChart *elapsedChart() const { return m_elapsed; }
    const ChartColours &colours() const { return m_colours; }

    void build(const ChartContent &content, const ChartColours &colours);
    void layout(const QSizeF &size);
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
    // One entry of the legend drawn under the title: QLegend can order its
    // entries only by the stacking order of the series, and cannot wrap.
    struct LegendEntry {
        QGraphicsRectItem *swatch = nullptr;
        QGraphicsSimpleTextItem *text = nullptr;
        QString full;
        QString brief;
    };

    void clear();
    void styleChart(QChart *chart);
    void styleAxis(QAbstractAxis *axis);
    QLineSeries *addLine(QChart *chart, const QString &objectName, const QString &name, const QPen &pen);
    void addArea(QChart *chart, const QString &objectName, const QString &name, const QList<QPointF> &upper,
                 const QList<QPointF> &lower, const QColor &fill);
    void addLegendEntry(const QString &full, const QString &brief, const QPen &pen, const QBrush &fill, bool dot);
    void buildDelayPanel(const ChartContent &content);
    void addPhaseLines(const RetrySchedule &schedule);
    void addJitterBands(const RetrySchedule &schedule, double jitter, const QString &name);
    void buildElapsedPanel(const ChartContent &content);
    void addElapsedLines(const RetrySchedule &schedule, const TimeUnit &unit);
    void addBreaks(QChart *chart, bool labelled, const ChartContent &content);
    QString titleHtml(const ChartContent &content, bool compact) const;

    void applyText(const TextStyle &style);
    void fitValueAxes(const TextStyle *style);
    // Places the legend's rows from `top` (only measures them when `place`
    // is false); returns their height.
    double layoutLegend(double top, double left, double width, bool compact, bool place = true);
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
    double m_elapsedTop = 1; // longest span drawn, in m_unit
    QString m_titleFull;
    QString m_titleCompact;
    QString m_titleTiny;
    QString m_elapsedUnit;
    RetryAxis m_axis;
    ChartColours m_colours;
    std::vector<Note> m_notes;
    std::vector<LegendEntry> m_legend;
};

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
    // The legend is drawn by hand under the title (LegendEntry).
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
    for (const LegendEntry &entry : m_legend) {
        delete entry.swatch;
        delete entry.text;
    }
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

void ScheduleDrawing::addLegendEntry(const QString &full, const QString &brief, const QPen &pen, const QBrush &fill,
                                     bool dot)
{
    constexpr double kWidth = 26;
    constexpr double kHeight = 12;
    auto *swatch = new QGraphicsRectItem(0, 0, kWidth, kHeight, m_delay);
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
    auto *text = new QGraphicsSimpleTextItem(full, m_delay);
    text->setBrush(m_colours.text);
    text->setZValue(100);
    m_legend.push_back({swatch, text, full, brief});
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
        addLegendEntry(jitterName, jitterName, Qt::NoPen, m_colours.band, false);
    if (content.comparison)
        addLegendEntry(comparisonName, QStringLiteral("compared"), comparisonPen, Qt::NoBrush, false);
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
        addLegendEntry(name, fromView(retryPhaseName(phase.phase)), pen, Qt::NoBrush, true);
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

// ±J around each non-zero delay (SPEC 3.5): one band per shown run of a
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
    for (const LegendEntry &entry : m_legend) {
        entry.text->setFont(style.body);
        entry.text->setText(style.compact ? entry.brief : entry.full);
    }
    for (const Note &note : m_notes) {
        if (auto *text = dynamic_cast<QGraphicsTextItem *>(note.text))
            text->setFont(style.body);
        else if (auto *simple = dynamic_cast<QGraphicsSimpleTextItem *>(note.text))
            simple->setFont(style.body);
    }
}

// Flows the entries into centred rows.
double ScheduleDrawing::layoutLegend(double top, double left, double width, bool compact, bool place)
{
    if (m_legend.empty())
        return 0;
    const double gap = compact ? 12 : 22;
    constexpr double kSwatchGap = 6;
    const auto entryWidth = [](const LegendEntry &entry) {
        return entry.swatch->rect().width() + kSwatchGap + entry.text->boundingRect().width();
    };
    std::vector<std::vector<const LegendEntry *>> rows(1);
    double used = 0;
    for (const LegendEntry &entry : m_legend) {
        const double w = entryWidth(entry);
        if (!rows.back().empty() && used + gap + w > width) {
            rows.emplace_back();
            used = 0;
        }
        used += (rows.back().empty() ? 0 : gap) + w;
        rows.back().push_back(&entry);
    }
    const double rowHeight = m_legend.front().text->boundingRect().height() + 3;
    if (!place)
        return double(rows.size()) * rowHeight + 6;
    double y = top + 2;
    for (const auto &row : rows) {
        double rowWidth = -gap;
        for (const LegendEntry *entry : row)
            rowWidth += entryWidth(*entry) + gap;
        double x = left + std::max(0.0, (width - rowWidth) / 2);
        for (const LegendEntry *entry : row) {
            const double textHeight = entry->text->boundingRect().height();
            entry->swatch->setPos(x, y + (textHeight - entry->swatch->rect().height()) / 2);
            entry->text->setPos(x + entry->swatch->rect().width() + kSwatchGap, y);
            x += entryWidth(*entry) + gap;
        }
        y += rowHeight;
    }
    return y - top + 4;
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
    const double legendEstimate = layoutLegend(0, 0, size.width() * 0.85, style.compact, false);
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
    const double legendHeight = layoutLegend(top.top(), left, right - left, style.compact);
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
