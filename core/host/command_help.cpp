// SPDX-License-Identifier: MIT
#include "host/command_help.h"

namespace relaydesk {

QString versionText()
{
    return QStringLiteral("relaydesk %1\n").arg(QLatin1String(RELAYDESK_VERSION));
}

QString commandHelpText(const QCommandLineParser &parser, const QString &command, const QString &synopsis)
{
    const QString help = parser.helpText();
    const qsizetype firstLineEnd = help.indexOf(QLatin1Char('\n'));
    return QStringLiteral("Usage: %1 %2\n\n").arg(command, synopsis) + help.mid(firstLineEnd + 1);
}

} // namespace relaydesk
