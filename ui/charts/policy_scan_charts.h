// SPDX-License-Identifier: MIT
#pragma once

#include <QStringList>

#include <cstdio>

namespace relaydesk {

// `relaydesk policy scan … --charts DIR`: the scan of core/host with the
// four-phase chart renderer (docs/policies.md, "policy scan"). Requires a
// QApplication (offscreen). Same exit statuses as runPolicyScanCommand.
int runPolicyScanWithCharts(const QStringList &arguments, FILE *out = stdout, FILE *err = stderr);

} // namespace relaydesk
