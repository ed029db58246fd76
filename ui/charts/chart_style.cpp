// SPDX-License-Identifier: MIT
#include "charts/chart_style.h"

#include "policy/backoff_function.h"
#include "policy/policy_report.h"

#include <QApplication>
#include <QLocale>
#include <QPalette>
#include <QSizeF>

namespace relaydesk {

QString fromView(std::string_view text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

QString groupedNumber(int64_t value)
{
    return QLocale().toString(qlonglong(value)); // the window's one number format: the system's locale
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

ChartColours ChartColours::from(const QPalette &palette)
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

TextStyle::TextStyle(const QSizeF &size)
    : compact(size.width() < 700 || size.height() < 450), tiny(size.width() < 480 || size.height() < 340),
      body(QApplication::font()), title(body)
{
    if (compact)
        body.setPointSizeF(body.pointSizeF() * 0.88);
    title.setPointSizeF(body.pointSizeF() * (tiny ? 1.0 : size.width() >= 900 ? 1.3 : 1.1));
}

} // namespace relaydesk
