// SPDX-License-Identifier: MIT
#include "models/preferences.h"

#include <QDir>
#include <QSettings>

namespace relaydesk {

namespace {

QSettings settings() { return QSettings(QStringLiteral("Relaydesk"), QStringLiteral("Relaydesk")); }

bool given(const QStringList &arguments, const QString &option)
{
    for (const QString &argument : arguments)
        if (argument == option || argument.startsWith(option + QLatin1Char('=')))
            return true;
    return false;
}

quint16 portOr(const QVariant &value, quint16 fallback)
{
    bool ok = false;
    const uint port = value.toUInt(&ok);
    return ok && port > 0 && port <= 65535 ? quint16(port) : fallback;
}

} // namespace

Preferences Preferences::load()
{
    const QSettings stored = settings();
    Preferences preferences;
    preferences.theme = stored.value(QStringLiteral("preferences/theme"), preferences.theme).toString();
    preferences.clockMode = parseClockMode(stored.value(QStringLiteral("preferences/clockMode")).toString().toStdString())
                                .value_or(ClockMode::Real);
    preferences.databaseFolder = stored.value(QStringLiteral("preferences/databaseFolder")).toString();
    preferences.httpPort = portOr(stored.value(QStringLiteral("preferences/httpPort")), preferences.httpPort);
    preferences.amqpPort = portOr(stored.value(QStringLiteral("preferences/amqpPort")), preferences.amqpPort);
    return preferences;
}

void Preferences::save() const
{
    QSettings stored = settings();
    stored.setValue(QStringLiteral("preferences/theme"), theme);
    stored.setValue(QStringLiteral("preferences/clockMode"), QString::fromUtf8(clockModeName(clockMode).data(),
                                                                               qsizetype(clockModeName(clockMode).size())));
    stored.setValue(QStringLiteral("preferences/databaseFolder"), databaseFolder);
    stored.setValue(QStringLiteral("preferences/httpPort"), httpPort);
    stored.setValue(QStringLiteral("preferences/amqpPort"), amqpPort);
}

void Preferences::applyTo(ServeOptions &options, const QStringList &brokerArguments) const
{
    if (!given(brokerArguments, QStringLiteral("--clock")))
        options.clockMode = clockMode;
    if (!given(brokerArguments, QStringLiteral("--port")))
        options.port = httpPort;
    if (!given(brokerArguments, QStringLiteral("--amqp-port")))
        options.amqpPort = amqpPort;
    if (!given(brokerArguments, QStringLiteral("--db")) && !databaseFolder.isEmpty())
        options.databasePath = QDir(databaseFolder).filePath(QStringLiteral("relaydesk.db"));
}

} // namespace relaydesk
