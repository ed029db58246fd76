// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <QStringList>

#include <cstdio>

namespace relaydesk {

// `relaydesk policy explain|validate|diff ...` (docs/behaviour.md §8.1). `arguments` are
// everything after "policy" (the subcommand first). Writes results to `out`
// and errors to `err`; returns the exit status: 0 ok, 1 invalid policy or
// unreadable input, 2 usage error. `render` is not handled here (it needs the
// chart, see ui/charts/policy_render_command.h): it returns 2 with a message.
int runPolicyCommand(const QStringList &arguments, FILE *out = stdout, FILE *err = stderr);

// The help text of `relaydesk policy` (what `relaydesk policy --help` prints).
QString policyCommandUsage();

// Exit statuses shared by all commands.
inline constexpr int kExitOk = 0;
inline constexpr int kExitInvalid = 1;
inline constexpr int kExitUsage = 2;

} // namespace relaydesk
