// SPDX-License-Identifier: MIT
#pragma once

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QHash>
#include <QList>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

#include <variant>

namespace relaydesk {

// The environment's share of `relaydesk serve`'s options (docs/behaviour.md §8.1):
// every option --NAME-WITH-DASHES may also come from the variable
// RELAYDESK_NAME_WITH_DASHES. One rule for every option the parser knows, so an
// option added to it is settable from the environment with nothing else to do:
// - the command line wins: a variable whose option is on the command line is not read;
// - an empty variable counts as unset (a compose file's `${VAR:-}`);
// - a flag's variable is true, 1, yes (set) or false, 0, no (not set);
// - a repeatable option's variable holds its values separated by commas.
struct EnvironmentOptions {
    QStringList arguments;               // "--name=value" each, for the parser, before the command line's
    QHash<QString, QString> variableOf;  // option name (no dashes) → the variable it came from
};

// The variable of an option: "allow-host" → "RELAYDESK_ALLOW_HOST".
QString environmentVariableFor(const QString &optionName);

// The arguments the environment adds to what `commandLine` (already parsed) set, or
// the refusal of a flag's variable naming it. `options` are every option the
// environment may set, `repeatable` those that take several values. Pure.
std::variant<EnvironmentOptions, QString> optionsFromEnvironment(const QCommandLineParser &commandLine,
                                                                 const QList<QCommandLineOption> &options,
                                                                 const QList<QCommandLineOption> &repeatable,
                                                                 const QProcessEnvironment &environment);

// A usage error about an option ("--port: 'x' is not …") whose value came from the
// environment, reworded to name the variable ("RELAYDESK_PORT: 'x' is not …").
QString nameTheVariable(const QString &problem, const EnvironmentOptions &fromEnvironment);

} // namespace relaydesk
