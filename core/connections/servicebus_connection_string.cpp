// SPDX-License-Identifier: MIT
#include "connections/servicebus_connection_string.h"

#include <QStringList>

namespace relaydesk {

QUrl ServiceBusConnectionString::managementUrl() const
{
    QUrl url;
    url.setScheme(developmentEmulator ? QStringLiteral("http") : QStringLiteral("https"));
    url.setHost(host);
    if (developmentEmulator)
        url.setPort(5300);
    return url;
}

ServiceBusConnectionString readServiceBusConnectionString(const QString &text)
{
    ServiceBusConnectionString read;
    QString endpoint;
    for (const QString &pair : text.split(QLatin1Char(';'), Qt::SkipEmptyParts)) {
        const qsizetype equals = pair.indexOf(QLatin1Char('='));
        if (equals <= 0)
            return {{}, -1, {}, {}, false, QStringLiteral("\"%1\" is not NAME=VALUE").arg(pair.trimmed())};
        const QString name = pair.left(equals).trimmed().toLower();
        const QString value = pair.mid(equals + 1).trimmed();
        if (name == QLatin1String("endpoint"))
            endpoint = value;
        else if (name == QLatin1String("sharedaccesskeyname"))
            read.keyName = value;
        else if (name == QLatin1String("sharedaccesskey"))
            read.key = value;
        else if (name == QLatin1String("usedevelopmentemulator"))
            read.developmentEmulator = value.compare(QLatin1String("true"), Qt::CaseInsensitive) == 0;
    }
    const QUrl url(endpoint);
    if (endpoint.isEmpty() || url.scheme() != QLatin1String("sb") || url.host().isEmpty())
        return {{}, -1, {}, {}, false, QStringLiteral("Endpoint must be sb://HOST/")};
    if (read.keyName.isEmpty() || read.key.isEmpty())
        return {{}, -1, {}, {}, false, QStringLiteral("SharedAccessKeyName and SharedAccessKey are required")};
    read.host = url.host();
    read.port = url.port();
    return read;
}

} // namespace relaydesk
