// SPDX-License-Identifier: MIT
#pragma once

#include "policy/retry_schedule.h"

#include <QString>
#include <QStringList>

#include <cstdio>
#include <functional>
#include <optional>

namespace relaydesk {

// Draws a schedule's chart (with a second one overlaid when given) to
// `path` (.png or .svg); returns "" or why it could not. The window's build
// passes ui/charts' renderer; without one `--charts` is a usage error.
using PolicyChartWriter = std::function<QString(const RetrySchedule &schedule, const QString &label,
                                                const std::optional<RetrySchedule> &before, const QString &path)>;

// `relaydesk policy scan PATH... [--format text|markdown|sarif|json] [--charts DIR]
//  [--chart-format png|svg] [--fail-on note|warning|error] [--expected-outage DURATION]
//  [--base PATH]` (docs/policies.md, "policy scan"). `arguments` start with
// "scan". Returns 0 when no finding is at or above --fail-on, 1 when one is
// (or a chart cannot be written), 2 for a usage error.
int runPolicyScanCommand(const QStringList &arguments, FILE *out, FILE *err, const PolicyChartWriter &charts = {});

// "90", "90s", "30m", "2h", "1d" => seconds; nothing for anything else or 0.
std::optional<qint64> parseOutageDuration(const QString &text);

} // namespace relaydesk
