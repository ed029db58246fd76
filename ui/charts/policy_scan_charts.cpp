// SPDX-License-Identifier: MIT
#include "charts/policy_scan_charts.h"

#include "charts/policy_chart.h"
#include "host/policy_scan_command.h"

namespace relaydesk {

int runPolicyScanWithCharts(const QStringList &arguments, FILE *out, FILE *err)
{
    const auto draw = [](const RetrySchedule &schedule, const QString &label, const std::optional<RetrySchedule> &before,
                         const QString &path) {
        PolicyChart chart;
        chart.setSchedule(schedule, label);
        if (before)
            chart.setComparison(before, label + QStringLiteral(" (base)"));
        QString error;
        if (!chart.exportTo(path, QSize(1200, 700), &error))
            return error.isEmpty() ? QStringLiteral("the chart could not be drawn") : error;
        return QString();
    };
    return runPolicyScanCommand(arguments, out, err, draw);
}

} // namespace relaydesk
