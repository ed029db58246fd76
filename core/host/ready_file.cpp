// SPDX-License-Identifier: MIT
#include "host/ready_file.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

namespace relaydesk::ready_file {

QString clearStale(const QString &path)
{
    QFile stale(path);
    if (!stale.exists() || stale.remove())
        return {};
    return QStringLiteral("--ready-file: cannot remove the earlier %1: %2").arg(path, stale.errorString());
}

QString write(const QString &path, const QList<Listening> &listening)
{
    QJsonObject ready{{QStringLiteral("pid"), QCoreApplication::applicationPid()}};
    for (const auto &[protocol, url] : listening)
        ready.insert(protocol, url);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(QJsonDocument(ready).toJson(QJsonDocument::Compact) + '\n') < 0 ||
        !file.commit())
        return QStringLiteral("--ready-file: cannot write %1: %2").arg(path, file.errorString());
    return {};
}

void remove(const QString &path) { QFile::remove(path); }

} // namespace relaydesk::ready_file
