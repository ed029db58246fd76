// SPDX-License-Identifier: MIT
#pragma once

#include "connections/connection_call.h"

#include <QString>
#include <QUrl>

class QNetworkAccessManager;

namespace relaydesk {

// A Keystone v3 user to ask for a token (OpenStack Identity's password
// method, as python-keystoneclient's `v3.Password`): the user by name in its
// domain (by name; the Default domain's id "default" when empty), the token
// scoped to a project by name in its domain (the same default), or else to
// the connection's project id when one is given.
struct KeystoneCredentials {
    QUrl url;   // "http://HOST:5000/v3" (or without /v3: it is added)
    QString user;
    QString password;
    QString userDomain;      // a domain name; empty: the Default domain
    QString projectName;     // empty: scoped by the project id, if any
    QString projectDomain;   // a domain name; empty: the Default domain
    bool isNull() const { return url.isEmpty(); }
};

// What Keystone gave: the token (X-Subject-Token) and the id of the project
// it is scoped to (the body's token.project.id; empty when unscoped).
struct KeystoneToken {
    QString token;
    QString projectId;
};

// POST URL/auth/tokens. Errors are Keystone's {"error": {"code", "title",
// "message"}} (service "Keystone", code the title). Runs on `call`;
// `context` the answer's thread.
void requestKeystoneToken(QNetworkAccessManager &network, const KeystoneCredentials &credentials,
                          const QString &projectId, ConnectionCall *call, QObject *context,
                          std::function<void(ConnectionResult<KeystoneToken>)> answer);

} // namespace relaydesk
