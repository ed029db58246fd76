// SPDX-License-Identifier: MIT
#include "connections/connection_error.h"

#include <QMetaEnum>
#include <QNetworkReply>

namespace relaydesk {

QString ConnectionError::text() const
{
    QString line = service;
    if (!code.isEmpty())
        line += QLatin1Char(' ') + code;
    if (httpStatus != 0)
        line += QStringLiteral(" (HTTP %1)").arg(httpStatus);
    if (!message.isEmpty())
        line += QStringLiteral(": ") + message;
    return line;
}

ConnectionError ConnectionError::cancelled()
{
    return {QStringLiteral("connection"), QStringLiteral("Cancelled"), QStringLiteral("Cancelled before it finished."), 0};
}

ConnectionError ConnectionError::network(const QNetworkReply &reply)
{
    const char *name = QMetaEnum::fromType<QNetworkReply::NetworkError>().valueToKey(reply.error());
    return {QStringLiteral("network"), QString::fromLatin1(name ? name : "NetworkError"), reply.errorString(), 0};
}

ConnectionError ConnectionError::unsupported(const QString &reason)
{
    return {QStringLiteral("connection"), QStringLiteral("Unsupported"), reason, 0};
}

} // namespace relaydesk
