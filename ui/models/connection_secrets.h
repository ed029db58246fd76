// SPDX-License-Identifier: MIT
#pragma once

#include <QHash>
#include <QObject>
#include <QString>
#include <QStringList>

#include <functional>

namespace relaydesk {

// Where the window keeps a connection's secrets (secret access keys, bearer
// tokens; docs/window.md "Connections", "Secrets"): the desktop's secret
// service through QtKeychain (service "Relaydesk", key the connection's id),
// never the plain settings file and never QtKeychain's insecure fallback.
// When no secret service answers (CI, a bare Xvfb) a secret is kept in
// memory for this session only, and the Add Connection dialog says so. An
// AWS profile of the AWS files keeps its keys there; only connections in the
// window's settings have secrets here.
//
// The secret service is asynchronous: the constructor asks it once whether
// it is there; load() reads the secrets of the given ids into memory and
// then calls `done`; store() and forget() write through in the background.
// GUI thread.
class ConnectionSecrets final : public QObject {
    Q_OBJECT
public:
    explicit ConnectionSecrets(QObject *parent = nullptr);

    // Whether secrets outlive the session (the secret service answered).
    bool persistent() const { return m_persistent; }
    // What the Add Connection dialog says about where a secret goes.
    QString whereText() const;

    void load(const QStringList &ids, std::function<void()> done);
    void store(const QString &id, const QString &secret);
    QString find(const QString &id) const { return m_memory.value(id); }
    void forget(const QString &id);

signals:
    // A store() reached the secret service (or found none: persistent() says which).
    void written(const QString &id);

private:
    bool m_persistent = false;   // until the secret service answers
    QHash<QString, QString> m_memory;
};

} // namespace relaydesk
