// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>

#include <cstdint>
#include <optional>

class QChartView;
class QToolButton;
class QWidget;

namespace relaydesk {

// The time range a time chart shows, and the ways to change it — one object
// per chart, shared by every time chart of the window:
//  - Follow now: the chart's own window, ending at the clock's now (the default);
//  - Fit all: everything the chart holds, however old;
//  - a range of the user's: the wheel zooms around the pointer, a drag with
//    the left button pans, and on the focused chart + / − zoom, ← / → pan,
//    Home fits all, End follows now again.
// Follow now and Fit all are two checkable buttons (followButton(),
// fitButton()) for the chart to place; neither is checked while a range of
// the user's is shown. Times are clock milliseconds since the epoch (UTC);
// the chart converts them to its axis. The chart asks rangeFor() at each
// redraw and redraws on changed().
//
// Ownership: a child of the view it watches; the buttons are children of
// `buttonParent`, or of the view when that is null. Thread: GUI.
class TimeNavigation final : public QObject {
    Q_OBJECT
public:
    enum class Mode { FollowNow, FitAll, Chosen };
    struct Range {
        std::int64_t fromMs = 0;
        std::int64_t toMs = 0;
        std::int64_t span() const { return toMs - fromMs; }
        bool operator==(const Range &) const = default;
    };
    static constexpr std::int64_t kLeastSpanMs = 1000;
    static constexpr std::int64_t kLongestSpanMs = 400LL * 24 * 3600 * 1000;

    TimeNavigation(QChartView *view, QWidget *buttonParent);

    Mode mode() const { return m_mode; }
    void setMode(Mode mode);
    // Shows `range` as the user's own range (e.g. the selected message's attempts).
    void showRange(Range range);
    // The range to draw now: `follow` when following, `all` (with a margin of
    // 3 % each side; `follow` when the chart holds nothing) when fitting all,
    // else the user's. Remembered as shown().
    Range rangeFor(Range follow, std::optional<Range> all);
    Range shown() const { return m_shown; }
    // Zooms the shown range by `factor` (< 1: in) around the point at
    // `anchor` (0 = left edge, 1 = right edge).
    void zoom(double factor, double anchor = 0.5);
    // Pans by `fraction` of the shown span (> 0: later).
    void pan(double fraction);

    QToolButton *followButton() const { return m_follow; }
    QToolButton *fitButton() const { return m_fit; }

signals:
    void changed();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    double plotFraction(double x) const; // of a viewport x across the plot area
    double plotWidth() const;
    void syncButtons();

    QChartView *m_view = nullptr;
    QToolButton *m_follow = nullptr;
    QToolButton *m_fit = nullptr;
    Mode m_mode = Mode::FollowNow;
    Range m_shown;
    Range m_chosen;
    std::optional<double> m_dragX;   // viewport x of the last drag position
};

} // namespace relaydesk
