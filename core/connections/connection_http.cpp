// SPDX-License-Identifier: MIT
#include "connections/connection_http.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QPointer>

namespace relaydesk {

QUrl urlWithPath(const QUrl &base, const QString &pathAndQuery, const QString &defaultQuery)
{
    QUrl url = base;
    const qsizetype query = pathAndQuery.indexOf(QLatin1Char('?'));
    url.setPath(query < 0 ? pathAndQuery : pathAndQuery.left(query), QUrl::TolerantMode);
    if (query >= 0)
        url.setQuery(pathAndQuery.mid(query + 1));
    else if (!defaultQuery.isEmpty())
        url.setQuery(defaultQuery);
    return url;
}

void sendHttp(QNetworkAccessManager &network, QNetworkRequest request, const QByteArray &method, const QByteArray &body,
              ConnectionCall *call, QObject *context, std::function<void(ConnectionResult<HttpAnswer>)> answer)
{
    request.setTransferTimeout(30000);
    QNetworkReply *reply = network.sendCustomRequest(request, method, body);
    const QPointer<ConnectionCall> guard(call);
    const bool cancellable = call != nullptr;
    if (call)
        QObject::connect(call, &ConnectionCall::cancelled, reply, &QNetworkReply::abort);
    QObject::connect(reply, &QNetworkReply::finished, context, [reply, guard, cancellable, answer] {
        reply->deleteLater();
        if (cancellable && (!guard || guard->isFinished()))
            return;
        const QVariant status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute);
        if (!status.isValid())
            return answer(ConnectionResult<HttpAnswer>::failure(ConnectionError::network(*reply)));
        answer(ConnectionResult<HttpAnswer>::success(
            {status.toInt(), reply->header(QNetworkRequest::ContentTypeHeader).toByteArray(), reply->readAll(),
             reply->rawHeader("X-Subject-Token")}));
    });
}

} // namespace relaydesk
