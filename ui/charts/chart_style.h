// SPDX-License-Identifier: MIT
#pragma once

#include "policy/retry_schedule.h"

#include <QColor>
#include <QFont>
#include <QString>

#include <cstdint>
#include <string_view>

class QPalette;
class QSizeF;

namespace relaydesk {

// How the policy chart looks and reads: its colours, its fonts at a size,
// and the words and numbers it writes. Free functions and value types; the
// font and colour queries read QApplication, so GUI thread only.

QString fromView(std::string_view text);
// "100 015": grouped from five digits on, as docs/behaviour.md writes counts.
QString groupedNumber(int64_t value);
// The colour of a phase's lines, points and legend swatch.
QColor phaseColour(RetryPhase phase);
// "backoff · 10 exponential, 1→60 s", "postBackoff · 35 × 60 s", "immediate · none".
QString phaseLegend(const RetrySchedule &schedule, const SchedulePhase &phase);
// "SNS dialect", "Zaqar dialect".
QString dialectText(Dialect dialect);

struct TimeUnit {
    double seconds = 1;
    QString name;
};

// The unit of the elapsed axis, chosen so that the span reads as 1 to 120 of it.
TimeUnit unitForSpan(int64_t seconds);

// Colours derived from the widget's palette, so the chart follows a dark theme.
struct ChartColours {
    bool dark = false;
    QColor background;
    QColor text;
    QColor grid;
    QColor muted;      // the comparison and the second title line
    QColor band;       // jitter band, translucent
    QColor breakShade; // the gap of a compressed run

    static ChartColours from(const QPalette &palette);
};

// Text for one layout size: smaller and shorter below 700x450; below 480x340
// a one-line title, and the units in the tick labels instead of axis titles.
struct TextStyle {
    bool compact = false;
    bool tiny = false;
    QFont body;
    QFont title;

    explicit TextStyle(const QSizeF &size);
};

} // namespace relaydesk
