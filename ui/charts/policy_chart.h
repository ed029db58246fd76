// SPDX-License-Identifier: MIT
#pragma once

#include "policy/retry_schedule.h"

#include <QWidget>

#include <memory>
#include <optional>

class QChart;
class QImage;

namespace relaydesk {

// The four-phase chart of one retry schedule (docs/behaviour.md §3, ISSUE 2 §4): delay
// before each retry coloured by phase, cumulative elapsed time, the jitter
// band, and optionally a second schedule overlaid for comparison. The same
// class draws in the policy editor and in `relaydesk policy render`
// (offscreen). GUI thread only. Owns its child widgets.
class PolicyChart final : public QWidget {
    Q_OBJECT
public:
    explicit PolicyChart(QWidget *parent = nullptr);
    ~PolicyChart() override;

    // Shows `schedule` under `label` (e.g. "sns-example"). Replaces the
    // previous one; the comparison (if any) stays.
    void setSchedule(const RetrySchedule &schedule, const QString &label);
    // Overlays a second schedule; std::nullopt removes it.
    void setComparison(const std::optional<RetrySchedule> &schedule, const QString &label = {});
    // Jitter fraction J for the band (docs/behaviour.md §3.5); 0 hides the band.
    void setJitterFraction(double fraction);

    bool hasSchedule() const;
    std::optional<RetrySchedule> schedule() const;
    std::optional<RetrySchedule> comparison() const;

    // The chart drawn at `size` (device-independent pixels), for export.
    QImage renderImage(const QSize &size);
    // The chart as an SVG document of `size` pixels (width/height in px).
    QByteArray renderSvg(const QSize &size);
    // Writes PNG or SVG depending on the suffix of `path` (atomically, via
    // QSaveFile); false + `error` on failure.
    bool exportTo(const QString &path, const QSize &size, QString *error = nullptr);

    // Test hook: the delay chart (series, axes). Series objectNames:
    // "phase:immediate" … "phase:postBackoff" (one per visible run of a
    // phase, named as in the legend; an empty phase keeps one empty series),
    // "jitter" (areas), "comparison", "elided" (dashed bridge over a
    // compressed run, named by its label, e.g. "… 99 990 more retries × 20 s …")
    // and "break" (the shaded gap). The legend is drawn under the title as
    // QGraphicsSimpleTextItem children of this chart (QLegend is hidden).
    QChart *delayChartForTest() const;
    // Test hook: the cumulative-time chart below it ("elapsed:*" series).
    QChart *elapsedChartForTest() const;

protected:
    void changeEvent(QEvent *event) override; // palette changes redraw

private:
    class Private;
    std::unique_ptr<Private> d;
};

} // namespace relaydesk
