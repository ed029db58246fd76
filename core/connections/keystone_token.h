// SPDX-License-Identifier: MIT
#pragma once

#include "connections/connection_call.h"

#include <QString>
#include <QUrl>

class QNetworkAccessManager;

namespace relaydesk {

// A Keystone v3 user to ask for a token (OpenStack Identity's password
// method, as python-keystoneclient's `v3.Password`): a user of the Default
// domain, the token scoped to `projectId` when one is given.
struct KeystoneCredentials {
    QUrl url;   // "http://HOST:5000/v3" (or without /v3: it is added)
    QString user;
    QString password;
    bool isNull() const { return url.isEmpty(); }
};

// POST URL/auth/tokens; answers the token of the X-Subject-Token header.
// Errors are Keystone's {"error": {"code", "title", "message"}} (service
// "Keystone", code the title). Runs on `call`; `context` the answer's thread.
void requestKeystoneToken(QNetworkAccessManager &network, const KeystoneCredentials &credentials,
                          const QString &projectId, ConnectionCall *call, QObject *context,
                          std::function<void(ConnectionResult<QString>)> answer);

} // namespace relaydesk
