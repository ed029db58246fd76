// SPDX-License-Identifier: MIT
#pragma once

#include "policy/policy_report.h"
#include "policy/policy_validation.h"

#include <QString>
#include <QStringList>

#include <optional>

namespace relaydesk {

// Where a `policy` command takes its policy from: a file, "-" (standard
// input) or a preset name (docs/behaviour.md §8.1).
struct PolicySourceArgument {
    QString path;        // file or "-"; empty when preset is set
    QString presetName;  // empty when path is set
};

// A loaded and explained policy, or the one-line error that stops the command
// ("relaydesk: policy.json:3:14: syntax error while parsing object ...",
// "relaydesk: cannot read missing.json: No such file or directory").
struct LoadedPolicy {
    std::optional<PolicyExplanation> explanation;
    QString error;   // non-empty when explanation is empty (exit status 1)
};

// Reads, parses, validates and plans one policy for `protocol`. Used by every
// `policy` subcommand, render included. Blocking file I/O; any thread.
LoadedPolicy loadPolicy(const PolicySourceArgument &source, const PolicyCheckContext &context);

// Byte offset => "line:column" (1-based) of `text`, for parse errors.
QString textPosition(const QByteArray &text, qsizetype byteOffset);

} // namespace relaydesk
