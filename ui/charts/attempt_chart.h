// SPDX-License-Identifier: MIT
#pragma once

#include "broker/deliveries/attempt_log.h"
#include "charts/attempt_tracks.h"
#include "policy/retry_schedule.h"

#include <QScatterSeries>
#include <QWidget>

#include <map>
#include <optional>
#include <utility>
#include <vector>

class QChart;
class QChartView;
class QComboBox;
class QDateTimeAxis;
class QLineSeries;
class QTimer;
class QValueAxis;
class QXYSeries;

namespace relaydesk {

class AttemptLegend;
class Clock;
class TimeNavigation;

// The live chart of delivery attempts: x = clock time, y = attempt
// number or the delay before it (a switch). Each attempt is a marker coloured
// by its phase (ChartStyle's phase colours; the initial attempt in the text
// colour), shaped by its outcome (outcomeShape), with a ring on the delivery's
// last row by how it ended; per message a thin line through its attempts and
// its planned schedule dashed from its first attempt. Up to
// AttemptTracks::kMessageBound messages one line each, then attempts per phase
// per time bucket (AttemptTracks) — the legend says which.
//
// By default it follows the clock: rows given to addAttempts() are drawn at
// the next repaint, at most 4 a second while shown, and the x range ends at
// the clock's now (or at the planned end of the shown schedules, while that
// fits one window), so under time warp it scrolls at the warped speed and
// under the virtual clock each step adds what happened. Fit all shows
// everything held however far the clock moved on, and the wheel, a drag and
// the keys zoom and pan (TimeNavigation); showMessage() shows one message's
// deliveries whole. Memory is AttemptTracks' bound.
//
// Series objectNames (tests): "attempts:PHASE:OUTCOME" (markers), "final:END"
// (rings), "actual:MESSAGEID" and "planned:MESSAGEID" (lines, per message),
// "aggregate:PHASE" (counts per bucket, aggregated form).
//
// Ownership: borrows the clock (may be null: then the newest row is "now");
// owns its widgets. Thread: GUI.
class AttemptChart final : public QWidget {
    Q_OBJECT
public:
    enum class YAxis { AttemptNumber, Delay };
    static constexpr int kRepaintMs = 250;

    explicit AttemptChart(const Clock *clock = nullptr, QWidget *parent = nullptr);
    ~AttemptChart() override;
    AttemptChart(const AttemptChart &) = delete;
    AttemptChart &operator=(const AttemptChart &) = delete;

    // The planned schedule of a subscription's deliveries (its effective
    // policy); nothing removes it. Sets the automatic window.
    void setSchedule(const QString &subscriptionArn, std::optional<RetrySchedule> schedule);
    // Rows in any order; drawn at the next repaint.
    void addAttempts(const std::vector<AttemptRecord> &rows);
    // Forgets every row (another filter, another page).
    void clear();
    // The width of the time window in seconds; 0 = automatic (the longest
    // schedule's span and a little more, 1 minute to 2 hours; 10 minutes
    // without a schedule).
    void setWindowSeconds(std::int64_t seconds);
    void setYAxis(YAxis axis);
    YAxis yAxis() const { return m_yAxis; }
    // Shows the deliveries of `messageId` whole (from its first row to its
    // last, or its planned end while unfinished) as a range of the user's —
    // at once when held, else when its rows arrive.
    void showMessage(const QString &messageId);
    TimeNavigation *navigation() const { return m_navigation; }
    // The x range drawn, clock milliseconds (UTC).
    std::pair<std::int64_t, std::int64_t> shownRangeMs() const;

    // Applies what is pending and redraws now (the repaint timer does this
    // at most every kRepaintMs while the chart is shown).
    void redraw();

    const AttemptTracks &tracks() const { return m_tracks; }
    bool isAggregated() const { return m_tracks.aggregated(); }
    // The legend's text (also the legend's accessible description).
    QString legendText() const;
    int redrawCount() const { return m_redraws; }
    // The x value of clock time `ms` on the chart (the axis shows UTC).
    static double xOf(std::int64_t ms);
    static QScatterSeries::MarkerShape outcomeShape(const QString &outcome);
    // The colour of a log phase ("initial" … "postBackoff") in `palette`.
    static QColor phaseColourOf(const QString &phase, const QPalette &palette);

    QChart *chartForTest() const { return m_chart; }
    QComboBox *yAxisBox() const { return m_yAxisBox; }
    // The series named `objectName`, or null.
    QXYSeries *seriesForTest(const QString &objectName) const;

protected:
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;
    void changeEvent(QEvent *event) override; // palette changes redraw

private:
    void onTick();
    std::int64_t nowMs() const;
    void updateWindow();
    QXYSeries *series(const QString &name, bool scatter);
    void styleSeries(QXYSeries *series, const QString &name);
    void drawTracks(std::int64_t xMax);
    void drawAggregate();
    void fitAxes(double yMax, const QString &yTitle);
    void updateLegend();
    static QString bucketWords(std::int64_t ms);

    const Clock *m_clock = nullptr;
    AttemptTracks m_tracks;
    std::vector<AttemptRecord> m_pending;
    YAxis m_yAxis = YAxis::AttemptNumber;
    std::int64_t m_windowSeconds = 0;       // 0 = automatic
    std::int64_t m_lastDrawnNow = -1;
    bool m_dirty = true;
    int m_redraws = 0;
    QChart *m_chart = nullptr;              // owned by m_view
    QChartView *m_view = nullptr;
    QDateTimeAxis *m_x = nullptr;
    QValueAxis *m_y = nullptr;
    QComboBox *m_yAxisBox = nullptr;
    AttemptLegend *m_legend = nullptr;
    TimeNavigation *m_navigation = nullptr;
    QString m_messageToShow;                // showMessage() waiting for its rows
    QTimer *m_timer = nullptr;
    std::map<QString, QXYSeries *> m_series; // by style name ("attempts:…", "final:…", "aggregate:…")
    std::vector<QLineSeries *> m_actualLines;  // pool, one per shown message
    std::vector<QLineSeries *> m_plannedLines;
};

} // namespace relaydesk
