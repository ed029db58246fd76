// SPDX-License-Identifier: MIT
#include "charts/attempt_chart.h"


#include "broker/clock.h"
#include "charts/attempt_legend.h"
#include "charts/chart_style.h"
#include "charts/time_navigation.h"
#include "charts/time_ticks.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDateTime>
#include <QDateTimeAxis>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QTimer>
#include <QToolButton>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace relaydesk {

namespace {

constexpr double kMarkerSize = 9;
constexpr double kRingSize = 17;
constexpr std::int64_t kMinWindowMs = 60 * 1000;
constexpr std::int64_t kMaxWindowMs = 2 * 3600 * 1000;
constexpr std::int64_t kDefaultWindowMs = 10 * 60 * 1000;

const QStringList &outcomes()
{
    static const QStringList names{QStringLiteral("delivered"), QStringLiteral("retryable"),
                                   QStringLiteral("permanent"), QStringLiteral("timeout"),
                                   QStringLiteral("connectionError"), QStringLiteral("throttled-wait")};
    return names;
}

QString outcomeWords(const QString &outcome)
{
    if (outcome == QLatin1String("connectionError"))
        return QObject::tr("connection error");
    if (outcome == QLatin1String("throttled-wait"))
        return QObject::tr("throttled wait");
    return outcome;
}

QScatterSeries::MarkerShape endShape(const QString &end)
{
    if (end == QLatin1String("deadLettered"))
        return QScatterSeries::MarkerShapeRotatedRectangle;
    if (end == QLatin1String("discarded"))
        return QScatterSeries::MarkerShapeRectangle;
    return QScatterSeries::MarkerShapeCircle;
}

} // namespace

AttemptChart::AttemptChart(const Clock *clock, QWidget *parent)
    : QWidget(parent), m_clock(clock)
{
    setObjectName(QStringLiteral("attemptChart"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *bar = new QHBoxLayout;
    auto *label = new QLabel(tr("&Y axis:"), this);
    m_yAxisBox = new QComboBox(this);
    m_yAxisBox->setObjectName(QStringLiteral("attemptChartYAxis"));
    m_yAxisBox->addItem(tr("Attempt"));
    m_yAxisBox->addItem(tr("Delay"));   // before the attempt; both short, so a narrow page keeps the chart whole
    m_yAxisBox->setAccessibleName(tr("Y axis"));
    label->setBuddy(m_yAxisBox);
    connect(m_yAxisBox, &QComboBox::currentIndexChanged, this,
            [this](int index) { setYAxis(index == 1 ? YAxis::Delay : YAxis::AttemptNumber); });
    bar->addWidget(label);
    bar->addWidget(m_yAxisBox);
    bar->addStretch(1);
    layout->addLayout(bar);

    m_chart = new QChart;
    m_chart->legend()->hide();
    m_chart->setMargins(QMargins(4, 4, 4, 4));
    m_chart->setBackgroundRoundness(0);
    m_x = new QDateTimeAxis(this);
    m_y = new QValueAxis(this);
    m_chart->addAxis(m_x, Qt::AlignBottom);
    m_chart->addAxis(m_y, Qt::AlignLeft);
    m_view = new QChartView(m_chart, this);
    m_view->setObjectName(QStringLiteral("attemptChartView"));
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setMinimumHeight(180);
    m_view->setAccessibleName(tr("Attempts over time"));
    m_view->viewport()->setAccessibleName(m_view->accessibleName()); // a Tab or click stop of its own: AT-SPI reads it, so it carries the view's name
    m_navigation = new TimeNavigation(m_view, this);
    bar->addWidget(m_navigation->followButton());
    bar->addWidget(m_navigation->fitButton());
    connect(m_navigation, &TimeNavigation::changed, this, [this] {
        m_dirty = true;
        redraw();
    });
    layout->addWidget(m_view, 1);
    m_legend = new AttemptLegend(this);
    layout->addWidget(m_legend);

    QEvent paletteChange(QEvent::PaletteChange);
    changeEvent(&paletteChange); // the palette's colours on the chart
    m_timer = new QTimer(this);
    m_timer->setInterval(kRepaintMs);
    connect(m_timer, &QTimer::timeout, this, &AttemptChart::onTick);
    updateWindow();
    redraw();
}

AttemptChart::~AttemptChart() = default;

double AttemptChart::xOf(std::int64_t ms)
{
    // QDateTimeAxis writes local time; shifting by the zone's offset makes it write UTC.
    return double(ms) + double(QDateTime::fromMSecsSinceEpoch(ms).offsetFromUtc()) * 1000.0;
}

QScatterSeries::MarkerShape AttemptChart::outcomeShape(const QString &outcome)
{
    if (outcome == QLatin1String("retryable"))
        return QScatterSeries::MarkerShapeTriangle;
    if (outcome == QLatin1String("permanent"))
        return QScatterSeries::MarkerShapeRectangle;
    if (outcome == QLatin1String("timeout"))
        return QScatterSeries::MarkerShapeRotatedRectangle;
    if (outcome == QLatin1String("connectionError"))
        return QScatterSeries::MarkerShapeStar;
    if (outcome == QLatin1String("throttled-wait"))
        return QScatterSeries::MarkerShapePentagon;
    return QScatterSeries::MarkerShapeCircle; // delivered
}

QColor AttemptChart::phaseColourOf(const QString &phase, const QPalette &palette)
{
    for (RetryPhase retryPhase : kRetryPhases)
        if (phase == fromView(retryPhaseName(retryPhase)))
            return phaseColour(retryPhase);
    return ChartColours::from(palette).muted; // the initial attempt
}

void AttemptChart::setSchedule(const QString &subscriptionArn, std::optional<RetrySchedule> schedule)
{
    m_tracks.setSchedule(subscriptionArn, std::move(schedule));
    updateWindow();
    m_dirty = true;
}

void AttemptChart::addAttempts(const std::vector<AttemptRecord> &rows)
{
    m_pending.insert(m_pending.end(), rows.begin(), rows.end());
    m_dirty = true;
    // Bounded while hidden too: rows beyond two windows' worth are applied (and pruned) at once.
    if (m_pending.size() > 20000)
        redraw();
}

void AttemptChart::clear()
{
    m_pending.clear();
    m_tracks.clear();
    m_dirty = true;
}

void AttemptChart::setWindowSeconds(std::int64_t seconds)
{
    m_windowSeconds = std::max<std::int64_t>(seconds, 0);
    updateWindow();
    m_dirty = true;
}

void AttemptChart::setYAxis(YAxis axis)
{
    if (axis == m_yAxis)
        return;
    m_yAxis = axis;
    m_yAxisBox->setCurrentIndex(axis == YAxis::Delay ? 1 : 0);
    m_dirty = true;
    redraw();
}

void AttemptChart::showMessage(const QString &messageId)
{
    m_messageToShow = messageId;
    m_dirty = true;
    redraw();
}

std::pair<std::int64_t, std::int64_t> AttemptChart::shownRangeMs() const
{
    const TimeNavigation::Range shown = m_navigation->shown();
    return {shown.fromMs, shown.toMs};
}

void AttemptChart::updateWindow()
{
    std::int64_t windowMs = m_windowSeconds * 1000;
    if (windowMs == 0) {
        const std::int64_t longest = m_tracks.longestPlanMs();
        windowMs = longest > 0 ? std::clamp(longest * 108 / 100, kMinWindowMs, kMaxWindowMs) : kDefaultWindowMs;
    }
    m_tracks.setWindowMs(windowMs);
}

std::int64_t AttemptChart::nowMs() const
{
    if (m_clock)
        return toEpochMilliseconds(m_clock->now());
    return m_tracks.latestMs().value_or(0);
}

void AttemptChart::onTick()
{
    const std::int64_t now = nowMs();
    if (!m_dirty && now == m_lastDrawnNow)
        return;
    redraw();
}

QXYSeries *AttemptChart::seriesForTest(const QString &objectName) const
{
    for (QAbstractSeries *series : m_chart->series())
        if (series->objectName() == objectName)
            return qobject_cast<QXYSeries *>(series);
    return nullptr;
}

QXYSeries *AttemptChart::series(const QString &name, bool scatter)
{
    if (auto found = m_series.find(name); found != m_series.end())
        return found->second;
    QXYSeries *series = scatter ? static_cast<QXYSeries *>(new QScatterSeries) : new QLineSeries;
    series->setObjectName(name);
    m_chart->addSeries(series);
    series->attachAxis(m_x);
    series->attachAxis(m_y);
    styleSeries(series, name);
    m_series.emplace(name, series);
    return series;
}

void AttemptChart::styleSeries(QXYSeries *series, const QString &name)
{
    const ChartColours colours = ChartColours::from(palette());
    const QStringList parts = name.split(QLatin1Char(':'));
    if (parts.value(0) == QLatin1String("attempts")) {
        auto *scatter = static_cast<QScatterSeries *>(series);
        scatter->setMarkerShape(outcomeShape(parts.value(2)));
        scatter->setMarkerSize(kMarkerSize);
        scatter->setColor(phaseColourOf(parts.value(1), palette()));
        scatter->setBorderColor(colours.background);
        scatter->setName(tr("%1, %2").arg(parts.value(1), outcomeWords(parts.value(2))));
    } else if (parts.value(0) == QLatin1String("final")) {
        auto *scatter = static_cast<QScatterSeries *>(series);
        scatter->setMarkerShape(endShape(parts.value(1)));
        scatter->setMarkerSize(kRingSize);
        scatter->setBrush(Qt::NoBrush);
        scatter->setPen(QPen(colours.text, 1.8));
        scatter->setName(tr("ended: %1").arg(parts.value(1)));
    } else if (parts.value(0) == QLatin1String("aggregate")) {
        series->setPen(QPen(phaseColourOf(parts.value(1), palette()), 2));
        series->setName(parts.value(1));
    }
}

void AttemptChart::redraw()
{
    for (const AttemptRecord &row : m_pending)
        m_tracks.add(row);
    m_pending.clear();
    const std::int64_t now = nowMs();
    const std::int64_t window = m_tracks.windowMs();
    std::int64_t xMax = now;
    if (!m_tracks.aggregated()) {
        // The plan of what is in the window, while it fits one window from the earliest delivery there.
        std::optional<std::int64_t> earliest;
        std::int64_t plannedEnd = now;
        for (const MessageTrack *track : m_tracks.tracks()) {
            const std::int64_t lastRow = track->points.empty() ? track->firstMs : track->points.back().atMs;
            const std::optional<std::int64_t> end = m_tracks.plannedEndMs(*track);
            if (std::max(lastRow, end.value_or(lastRow)) < now - window)
                continue; // long over: Fit all shows it
            earliest = std::min(earliest.value_or(track->firstMs), track->firstMs);
            plannedEnd = std::max(plannedEnd, end.value_or(plannedEnd));
        }
        if (earliest)
            xMax = std::max(now, std::min(plannedEnd, *earliest + window * 95 / 100));
    }
    xMax += window * 3 / 100;
    if (!m_messageToShow.isEmpty()) {
        if (const auto message = m_tracks.extent(m_messageToShow)) {
            const std::int64_t margin = std::max<std::int64_t>((message->second - message->first) / 20, 500);
            m_messageToShow.clear();
            m_navigation->showRange({message->first - margin, message->second + margin}); // redraws
            return;
        }
    }
    std::optional<TimeNavigation::Range> all;
    if (const auto held = m_tracks.extent())
        all = TimeNavigation::Range{held->first, held->second};
    const TimeNavigation::Range shown = m_navigation->rangeFor({xMax - window, xMax}, all);
    if (m_tracks.aggregated())
        drawAggregate();
    else
        drawTracks(shown.toMs);
    // Ticks at round steps (charts/time_ticks.h), as many as the plot has room for.
    const double label = QFontMetrics(m_x->labelsFont()).horizontalAdvance(QStringLiteral("00:00:00")) * 1.6;
    const double room = m_chart->plotArea().width() > 0 ? m_chart->plotArea().width() : 600.0;
    const TimeTicks ticks = roundTimeTicks(std::llround(xOf(shown.fromMs)), std::llround(xOf(shown.toMs)),
                                           int(std::clamp<double>(room / label, 2, 8)));
    m_x->setRange(QDateTime::fromMSecsSinceEpoch(ticks.fromMs), QDateTime::fromMSecsSinceEpoch(ticks.toMs));
    m_x->setTickCount(ticks.count);
    m_x->setFormat(shown.span() <= 3 * 3600 * 1000 ? QStringLiteral("HH:mm:ss") : QStringLiteral("dd MMM HH:mm"));
    m_lastDrawnNow = now;
    m_dirty = false;
    ++m_redraws;
}

void AttemptChart::drawTracks(std::int64_t xMax)
{
    const bool byAttempt = m_yAxis == YAxis::AttemptNumber;
    std::map<QString, QList<QPointF>> markers;
    double yMax = 1;
    const std::vector<const MessageTrack *> tracks = m_tracks.tracks();
    const ChartColours colours = ChartColours::from(palette());
    while (m_actualLines.size() < tracks.size()) {
        auto *actual = new QLineSeries;
        auto *planned = new QLineSeries;
        for (QLineSeries *line : {planned, actual}) {
            m_chart->addSeries(line);
            line->attachAxis(m_x);
            line->attachAxis(m_y);
        }
        actual->setPen(QPen(colours.muted, 1.0));
        planned->setPen(QPen(colours.muted, 1.4, Qt::DashLine));
        m_actualLines.push_back(actual);
        m_plannedLines.push_back(planned);
    }
    for (std::size_t i = 0; i < tracks.size(); ++i) {
        const MessageTrack &track = *tracks[i];
        QList<QPointF> line;
        for (const TrackPoint &point : track.points) {
            const QPointF at(xOf(point.atMs), byAttempt ? double(point.attempt) : point.delaySeconds);
            yMax = std::max(yMax, at.y());
            markers[QStringLiteral("attempts:%1:%2").arg(point.phase, point.outcome)] << at;
            if (point.final)
                markers[QStringLiteral("final:%1").arg(*point.final)] << at;
            if (point.outcome != QLatin1String("throttled-wait"))
                line << at;
        }
        QList<QPointF> plan;
        for (const PlannedPoint &point : m_tracks.planned(track, xMax)) {
            plan << QPointF(xOf(point.atMs), byAttempt ? double(point.attempt) : point.delaySeconds);
            if (point.atMs <= xMax)
                yMax = std::max(yMax, plan.last().y());
        }
        m_actualLines[i]->setObjectName(QStringLiteral("actual:") + track.messageId);
        m_plannedLines[i]->setObjectName(QStringLiteral("planned:") + track.messageId);
        m_actualLines[i]->replace(line);
        m_plannedLines[i]->replace(plan);
        m_actualLines[i]->setVisible(true);
        m_plannedLines[i]->setVisible(!plan.isEmpty());
    }
    for (std::size_t i = tracks.size(); i < m_actualLines.size(); ++i) {
        for (QLineSeries *line : {m_actualLines[i], m_plannedLines[i]}) {
            line->clear();
            line->setObjectName(QString());
            line->setVisible(false);
        }
    }
    for (auto &[name, points] : markers)
        series(name, true);
    for (auto &[name, shown] : m_series)
        shown->replace(markers.count(name) ? markers[name] : QList<QPointF>{});
    fitAxes(yMax, byAttempt ? tr("attempt") : tr("delay (s)"));
    updateLegend();
}

void AttemptChart::drawAggregate()
{
    for (std::size_t i = 0; i < m_actualLines.size(); ++i) {
        for (QLineSeries *line : {m_actualLines[i], m_plannedLines[i]}) {
            line->clear();
            line->setObjectName(QString());
            line->setVisible(false);
        }
    }
    std::array<QList<QPointF>, 5> steps;
    double yMax = 1;
    const auto &buckets = m_tracks.buckets();
    const std::int64_t width = m_tracks.bucketMs();
    if (!buckets.empty()) {
        const std::int64_t first = buckets.begin()->first;
        const std::int64_t last = buckets.rbegin()->first;
        for (std::int64_t start = first; start <= last; start += width) {
            const auto found = buckets.find(start);
            for (std::size_t phase = 0; phase < steps.size(); ++phase) {
                const double count = found == buckets.end() ? 0.0 : double(found->second[phase]);
                steps[phase] << QPointF(xOf(start), count) << QPointF(xOf(start + width), count);
                yMax = std::max(yMax, count);
            }
        }
    }
    for (std::size_t phase = 0; phase < steps.size(); ++phase)
        series(QStringLiteral("aggregate:") + QLatin1String(AttemptTracks::kPhases[phase]), false);
    for (auto &[name, shown] : m_series) {
        const int phase = name.startsWith(QLatin1String("aggregate:")) ? AttemptTracks::phaseIndex(name.mid(10)) : -1;
        shown->replace(phase >= 0 ? steps[static_cast<std::size_t>(phase)] : QList<QPointF>{});
    }
    fitAxes(yMax, tr("attempts per %1").arg(bucketWords(width)));
    updateLegend();
}

void AttemptChart::fitAxes(double yMax, const QString &yTitle)
{
    const double rough = yMax / 5;
    const double magnitude = std::pow(10.0, std::floor(std::log10(std::max(rough, 1.0))));
    double step = magnitude;
    for (double factor : {1.0, 2.0, 5.0, 10.0})
        if (magnitude * factor >= rough) {
            step = magnitude * factor;
            break;
        }
    step = std::max(step, 1.0);
    m_y->setTickType(QValueAxis::TicksDynamic);
    m_y->setTickAnchor(0);
    m_y->setTickInterval(step);
    // A little below 0, so markers at 0 stand clear of the axis.
    m_y->setRange(-step * 0.12, std::ceil(yMax * 1.08 / step) * step);
    m_y->setLabelFormat(QStringLiteral("%.0f"));
    m_y->setTitleText(yTitle);
    m_x->setTitleText(tr("clock time (UTC)"));
}

QString AttemptChart::bucketWords(std::int64_t ms)
{
    if (ms % 60000 == 0)
        return tr("%1 min").arg(ms / 60000);
    if (ms % 1000 == 0)
        return tr("%1 s").arg(ms / 1000);
    return tr("%1 s").arg(double(ms) / 1000.0, 0, 'f', 1);
}

void AttemptChart::updateLegend()
{
    using Glyph = LegendEntry::Glyph;
    const ChartColours colours = ChartColours::from(palette());
    const bool aggregated = m_tracks.aggregated();
    QList<LegendEntry> phases;
    for (const char *phase : AttemptTracks::kPhases) {
        const QString name = QLatin1String(phase);
        phases << LegendEntry{aggregated ? Glyph::Line : Glyph::Marker, QScatterSeries::MarkerShapeCircle,
                              phaseColourOf(name, palette()), name};
    }
    QList<QList<LegendEntry>> rows{phases};
    QString note;
    if (aggregated) {
        note = tr("More than %1 messages: attempts per phase per %2 (aggregated). Filter by a message id to see "
                  "its attempts one by one.")
                   .arg(AttemptTracks::kMessageBound)
                   .arg(bucketWords(m_tracks.bucketMs()));
    } else {
        QList<LegendEntry> shapes;
        for (const QString &outcome : outcomes())
            shapes << LegendEntry{Glyph::Marker, outcomeShape(outcome), colours.muted, outcomeWords(outcome)};
        rows << shapes;
        rows << QList<LegendEntry>{
            {Glyph::Ring, endShape(QStringLiteral("delivered")), colours.text, tr("ended: delivered")},
            {Glyph::Ring, endShape(QStringLiteral("deadLettered")), colours.text, tr("dead-lettered")},
            {Glyph::Ring, endShape(QStringLiteral("discarded")), colours.text, tr("discarded")},
            {Glyph::Line, {}, colours.muted, tr("attempts of one message")},
            {Glyph::DashedLine, {}, colours.muted, tr("planned schedule")}};
        const std::size_t shown = m_tracks.tracks().size();
        note = tr("One line per message: %1 shown (up to %2, then attempts per phase per time bucket).")
                   .arg(shown)
                   .arg(AttemptTracks::kMessageBound);
    }
    m_legend->setRows(rows, note);
}

QString AttemptChart::legendText() const { return m_legend->text(); }

void AttemptChart::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    m_timer->start();
    redraw();
}

void AttemptChart::hideEvent(QHideEvent *event)
{
    QWidget::hideEvent(event);
    m_timer->stop();
}

void AttemptChart::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() != QEvent::PaletteChange)
        return;
    const ChartColours colours = ChartColours::from(palette());
    m_chart->setBackgroundBrush(colours.background);
    m_chart->setPlotAreaBackgroundVisible(false);
    for (QAbstractAxis *axis : {static_cast<QAbstractAxis *>(m_x), static_cast<QAbstractAxis *>(m_y)}) {
        axis->setLabelsColor(colours.text);
        axis->setTitleBrush(colours.text);
        axis->setGridLineColor(colours.grid);
        axis->setLinePenColor(colours.muted);
    }
    for (auto &[name, shown] : m_series)
        styleSeries(shown, name);
    for (std::size_t i = 0; i < m_actualLines.size(); ++i) {
        m_actualLines[i]->setPen(QPen(colours.muted, 1.0));
        m_plannedLines[i]->setPen(QPen(colours.muted, 1.4, Qt::DashLine));
    }
    m_dirty = true;
}

} // namespace relaydesk
