// SPDX-License-Identifier: MIT
#include "host/serve_environment.h"

#include <algorithm>

namespace relaydesk {

QString environmentVariableFor(const QString &optionName)
{
    return QStringLiteral("RELAYDESK_") + QString(optionName).replace(QLatin1Char('-'), QLatin1Char('_')).toUpper();
}

std::variant<EnvironmentOptions, QString> optionsFromEnvironment(const QCommandLineParser &commandLine,
                                                                 const QList<QCommandLineOption> &options,
                                                                 const QList<QCommandLineOption> &repeatable,
                                                                 const QProcessEnvironment &environment)
{
    EnvironmentOptions found;
    for (const QCommandLineOption &option : options) {
        const QString name = option.names().constFirst();
        const QString variable = environmentVariableFor(name);
        const QString value = environment.value(variable);
        if (commandLine.isSet(name) || value.isEmpty())
            continue;
        found.variableOf.insert(name, variable);
        if (option.valueName().isEmpty()) {   // a flag
            const QString word = value.toLower();
            if (word == u"true" || word == u"1" || word == u"yes")
                found.arguments.append(QStringLiteral("--") + name);
            else if (word != u"false" && word != u"0" && word != u"no")
                return QStringLiteral("%1: '%2' is not true, false, yes, no, 1 or 0").arg(variable, value);
            continue;
        }
        const bool several = std::any_of(repeatable.begin(), repeatable.end(),
                                         [&](const QCommandLineOption &each) { return each.names() == option.names(); });
        // "--name=value": a value that starts with a dash stays the option's value.
        for (const QString &each : several ? value.split(QLatin1Char(','), Qt::SkipEmptyParts) : QStringList{value})
            found.arguments.append(QStringLiteral("--%1=%2").arg(name, several ? each.trimmed() : each));
    }
    return found;
}

QString nameTheVariable(const QString &problem, const EnvironmentOptions &fromEnvironment)
{
    for (auto it = fromEnvironment.variableOf.cbegin(); it != fromEnvironment.variableOf.cend(); ++it) {
        const QString option = QStringLiteral("--") + it.key();
        if (problem.startsWith(option) && problem.size() > option.size() &&
            (problem.at(option.size()) == u':' || problem.at(option.size()) == u' '))
            return it.value() + problem.mid(option.size());
    }
    return problem;
}

} // namespace relaydesk
