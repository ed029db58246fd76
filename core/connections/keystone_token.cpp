// SPDX-License-Identifier: MIT
#include "connections/keystone_token.h"

#include "connections/connection_http.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkRequest>

namespace relaydesk {

namespace {

// {"name": NAME} of a domain, or the Default domain's {"id": "default"}.
QJsonObject domain(const QString &name)
{
    if (name.isEmpty())
        return {{QStringLiteral("id"), QStringLiteral("default")}};
    return {{QStringLiteral("name"), name}};
}

} // namespace

void requestKeystoneToken(QNetworkAccessManager &network, const KeystoneCredentials &credentials,
                          const QString &projectId, ConnectionCall *call, QObject *context,
                          std::function<void(ConnectionResult<KeystoneToken>)> answer)
{
    QUrl url = credentials.url;
    QString path = url.path();
    while (path.endsWith(QLatin1Char('/')))
        path.chop(1);
    if (!path.endsWith(QLatin1String("/v3")))
        path += QStringLiteral("/v3");
    url.setPath(path + QStringLiteral("/auth/tokens"));
    const QJsonObject user{{QStringLiteral("name"), credentials.user},
                           {QStringLiteral("domain"), domain(credentials.userDomain)},
                           {QStringLiteral("password"), credentials.password}};
    QJsonObject auth{{QStringLiteral("identity"),
                      QJsonObject{{QStringLiteral("methods"), QJsonArray{QStringLiteral("password")}},
                                  {QStringLiteral("password"), QJsonObject{{QStringLiteral("user"), user}}}}}};
    if (!credentials.projectName.isEmpty())
        auth.insert(QStringLiteral("scope"),
                    QJsonObject{{QStringLiteral("project"), QJsonObject{{QStringLiteral("name"), credentials.projectName},
                                                                        {QStringLiteral("domain"), domain(credentials.projectDomain)}}}});
    else if (!projectId.isEmpty())
        auth.insert(QStringLiteral("scope"),
                    QJsonObject{{QStringLiteral("project"), QJsonObject{{QStringLiteral("id"), projectId}}}});
    QNetworkRequest request(url);
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    const QByteArray body = QJsonDocument(QJsonObject{{QStringLiteral("auth"), auth}}).toJson(QJsonDocument::Compact);
    sendHttp(network, request, "POST", body, call, context, [answer](ConnectionResult<HttpAnswer> reply) {
        if (!reply.ok)
            return answer(ConnectionResult<KeystoneToken>::failure(reply.error));
        const int status = reply.value.status;
        const QString token = QString::fromUtf8(reply.value.subjectToken);
        const QJsonObject body = QJsonDocument::fromJson(reply.value.body).object();
        if (status >= 200 && status < 300 && !token.isEmpty())
            return answer(ConnectionResult<KeystoneToken>::success(
                {token, body.value(QStringLiteral("token")).toObject().value(QStringLiteral("project")).toObject()
                            .value(QStringLiteral("id")).toString()}));
        const QJsonObject error = body.value(QStringLiteral("error")).toObject();
        if (error.isEmpty())
            return answer(ConnectionResult<KeystoneToken>::failure(
                {QStringLiteral("HTTP"), QString::number(status), QString::fromUtf8(reply.value.body.left(300)), status}));
        answer(ConnectionResult<KeystoneToken>::failure({QStringLiteral("Keystone"), error.value(QStringLiteral("title")).toString(),
                                                   error.value(QStringLiteral("message")).toString(), status}));
    });
}

} // namespace relaydesk
