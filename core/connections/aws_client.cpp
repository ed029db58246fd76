// SPDX-License-Identifier: MIT
#include "connections/aws_client.h"

#include "connections/connection_http.h"

#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkRequest>
#include <QPointer>
#include <QUrlQuery>

namespace relaydesk {

namespace {

QString serviceName(const QString &service) { return service.toUpper(); }

ConnectionError httpError(int status, const QByteArray &body)
{
    return {QStringLiteral("HTTP"), QString::number(status), QString::fromUtf8(body.left(300)).trimmed(), status};
}

QString queryVersion(const QString &service)
{
    return service == QLatin1String("sns") ? QStringLiteral("2010-03-31") : QStringLiteral("2012-11-05");
}

} // namespace

const QString AwsClient::kQueryProtocolOnly = QStringLiteral("QueryProtocolOnly");

AwsClient::AwsClient(AwsProfile profile, QObject *parent)
    : QObject(parent), m_profile(std::move(profile)), m_credentials(new AwsCredentialSource(m_profile, this)),
      m_network(new QNetworkAccessManager(this))
{
}

void AwsClient::post(const QString &service, QList<QPair<QByteArray, QByteArray>> headers, const QByteArray &body,
                     ConnectionCall *call, std::function<void(ConnectionError)> failed, RawReply answered)
{
    QPointer<ConnectionCall> guard(call);
    const bool cancellable = call != nullptr;
    m_credentials->credentials([this, service, headers, body, guard, cancellable, failed,
                                answered](ConnectionResult<AwsCredentials> credentials) {
        if (cancellable && (!guard || guard->isFinished()))
            return;
        if (!credentials.ok)
            return failed(credentials.error);
        const QUrl url(m_profile.endpointFor(service));
        const QString region = m_profile.region.isEmpty() ? QStringLiteral("us-east-1") : m_profile.region;
        const AwsHeaders signedHeaders = signAwsRequest("POST", url, headers, body, credentials.value, region, service,
                                                        QDateTime::currentDateTimeUtc());
        QNetworkRequest request(url);
        for (const auto &[name, value] : signedHeaders)
            if (name != "Host")   // QNetworkAccessManager sends the same Host itself
                request.setRawHeader(name, value);
        sendHttp(*m_network, request, "POST", body, guard.data(), this, [failed, answered](ConnectionResult<HttpAnswer> answer) {
            if (!answer.ok)
                return failed(answer.error);
            answered(answer.value.status, answer.value.contentType, answer.value.body);
        });
    });
}

void AwsClient::sqsJson(const QString &action, const QJsonObject &input, ConnectionCall *call, JsonReply reply)
{
    const auto failed = [reply](ConnectionError error) { reply(ConnectionResult<QJsonObject>::failure(std::move(error))); };
    post(QStringLiteral("sqs"),
         {{"Content-Type", "application/x-amz-json-1.0"}, {"X-Amz-Target", "AmazonSQS." + action.toUtf8()}},
         QJsonDocument(input).toJson(QJsonDocument::Compact), call, failed,
         [reply, failed](int status, const QByteArray &contentType, const QByteArray &body) {
             if (status == 415)   // the JSON protocol's media type refused (sqslite)
                 return failed({QStringLiteral("SQS"), kQueryProtocolOnly,
                                QStringLiteral("The service refused the SQS JSON protocol's media type."), status});
             QJsonParseError parse{};
             const QJsonDocument document = QJsonDocument::fromJson(body.isEmpty() ? QByteArray("{}") : body, &parse);
             if (parse.error != QJsonParseError::NoError || !document.isObject()) {
                 if (contentType.contains("xml") || body.trimmed().startsWith('<'))
                     return failed({QStringLiteral("SQS"), kQueryProtocolOnly,
                                    QStringLiteral("The service answered the SQS JSON protocol in XML."), status});
                 return failed(httpError(status, body));
             }
             const QJsonObject object = document.object();
             if (status >= 300) {
                 const QString type = object.value(QStringLiteral("__type")).toString();
                 QString message = object.value(QStringLiteral("message")).toString();
                 if (message.isEmpty())
                     message = object.value(QStringLiteral("Message")).toString();
                 if (type.isEmpty())
                     return failed(httpError(status, body));
                 return failed({QStringLiteral("SQS"), type.section(QLatin1Char('#'), -1), message, status});
             }
             reply(ConnectionResult<QJsonObject>::success(object));
         });
}

void AwsClient::query(const QString &service, const QString &action, const Form &form, ConnectionCall *call,
                      XmlReply reply)
{
    QUrlQuery body;
    body.addQueryItem(QStringLiteral("Action"), action);
    body.addQueryItem(QStringLiteral("Version"), queryVersion(service));
    for (const auto &[name, value] : form)
        body.addQueryItem(name, value);
    // A form's own encoding: '+' and the rest percent-encoded, as the SDKs send.
    QByteArray encoded = body.query(QUrl::FullyEncoded).toUtf8().replace("+", "%2B");
    const auto failed = [reply](ConnectionError error) { reply(ConnectionResult<XmlNode>::failure(std::move(error))); };
    const QString name = serviceName(service);
    post(service, {{"Content-Type", "application/x-www-form-urlencoded; charset=utf-8"}}, encoded, call, failed,
         [reply, failed, name](int status, const QByteArray &, const QByteArray &text) {
             bool ok = false;
             XmlNode root = readXml(text, &ok);
             if (!ok)
                 return failed(httpError(status, text));
             if (status >= 300 || root.name == QLatin1String("ErrorResponse")) {
                 const QString code = root.textOf(QStringLiteral("Code"));
                 if (code.isEmpty())
                     return failed(httpError(status, text));
                 return failed({name, code, root.textOf(QStringLiteral("Message")), status});
             }
             reply(ConnectionResult<XmlNode>::success(std::move(root)));
         });
}

} // namespace relaydesk
