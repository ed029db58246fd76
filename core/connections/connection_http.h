// SPDX-License-Identifier: MIT
#pragma once

#include "connections/connection_call.h"

#include <QByteArray>
#include <QNetworkRequest>
#include <QUrl>

#include <functional>

class QNetworkAccessManager;

namespace relaydesk {

// An HTTP answer as the remote connections read it.
struct HttpAnswer {
    int status = 0;
    QByteArray contentType;
    QByteArray body;
    QByteArray subjectToken;   // Keystone's X-Subject-Token header, when sent
};

// `base` with PATH and, after a '?', QUERY of `pathAndQuery` (as encoded);
// `defaultQuery` when it has none.
QUrl urlWithPath(const QUrl &base, const QString &pathAndQuery, const QString &defaultQuery = {});

// One request of a remote connection: sent with a 30 s transfer timeout;
// `cancel()` of `call` (null: none) aborts it. `answer` gets the HTTP answer,
// any status, or ConnectionError::network when none came; it is not called
// once the call has ended (cancelled). Runs on `context`'s thread.
void sendHttp(QNetworkAccessManager &network, QNetworkRequest request, const QByteArray &method, const QByteArray &body,
              ConnectionCall *call, QObject *context, std::function<void(ConnectionResult<HttpAnswer>)> answer);

} // namespace relaydesk
