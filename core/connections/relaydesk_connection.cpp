// SPDX-License-Identifier: MIT
#include "connections/relaydesk_connection.h"

#include "connections/connection_http.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QUrlQuery>

namespace relaydesk {

namespace {

AwsProfile profileOf(const RelaydeskConnection::Settings &settings)
{
    AwsProfile profile;
    profile.name = settings.name;
    profile.region = QStringLiteral("us-east-1");
    profile.endpointUrl = settings.url.toString(QUrl::StripTrailingSlash);
    profile.accessKeyId = settings.keys.accessKeyId.isEmpty() ? QStringLiteral("test") : settings.keys.accessKeyId;
    profile.secretAccessKey = settings.keys.secretAccessKey.isEmpty() ? QStringLiteral("test") : settings.keys.secretAccessKey;
    profile.sessionToken = settings.keys.sessionToken;
    return profile;
}

MessageLine browsedLine(const QJsonObject &message)
{
    MessageLine line;
    line.messageId = message.value(QStringLiteral("messageId")).toString();
    line.body = message.value(QStringLiteral("body")).toString();
    line.state = message.value(QStringLiteral("state")).toString();
    line.sent = QDateTime::fromString(message.value(QStringLiteral("sent")).toString(), Qt::ISODateWithMs);
    line.receiveCount = message.value(QStringLiteral("receiveCount")).toInt();
    if (message.value(QStringLiteral("sequenceNumber")).isDouble())
        line.sequenceNumber = message.value(QStringLiteral("sequenceNumber")).toInteger();
    const QJsonObject attributes = message.value(QStringLiteral("attributes")).toObject();
    for (auto attribute = attributes.constBegin(); attribute != attributes.constEnd(); ++attribute)
        line.attributes.insert(attribute.key(), attribute.value().toObject().value(QStringLiteral("StringValue")).toString());
    return line;
}

} // namespace

RelaydeskConnection::RelaydeskConnection(Settings settings, QObject *parent)
    : AwsConnection(profileOf(settings), parent), m_settings(std::move(settings)), m_network(new QNetworkAccessManager(this))
{
}

Capability RelaydeskConnection::capability(EntityKind kind, ConnectionFeature feature) const
{
    if (kind == EntityKind::Queue && feature == ConnectionFeature::Peek)
        return Capability::yes();
    if (feature == ConnectionFeature::Clock || feature == ConnectionFeature::Mocks)
        return Capability::yes();
    if (feature == ConnectionFeature::AttemptLog)
        return kind == EntityKind::Subscription ? Capability::yes()
                                                : Capability::no(tr("The attempt log is a subscription's: open one of the topic's subscriptions."));
    return AwsConnection::capability(kind, feature);
}

ConnectionCall *RelaydeskConnection::native(const QByteArray &method, const QString &path, const QJsonObject *body,
                                            Reply<QJsonObject> reply)
{
    ConnectionCall *call = newCall();
    const PendingCall<QJsonObject> pending(call, std::move(reply));
    QNetworkRequest request(urlWithPath(m_settings.url, QStringLiteral("/api/v1/") + path));
    if (!m_settings.bearerToken.isEmpty())
        request.setRawHeader("Authorization", "Bearer " + m_settings.bearerToken.toUtf8());
    QByteArray data;
    if (body) {
        request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
        data = QJsonDocument(*body).toJson(QJsonDocument::Compact);
    }
    sendHttp(*m_network, request, method, data, call, this, [pending](ConnectionResult<HttpAnswer> answer) {
        if (!answer.ok)
            return pending.fail(answer.error);
        const QJsonObject object = QJsonDocument::fromJson(answer.value.body).object();
        const int status = answer.value.status;
        if (status >= 300) {
            if (!object.contains(QStringLiteral("error")))
                return pending.fail({QStringLiteral("HTTP"), QString::number(status),
                                     QString::fromUtf8(answer.value.body.left(300)), status});
            return pending.fail({QStringLiteral("Relaydesk"), object.value(QStringLiteral("error")).toString(),
                                 object.value(QStringLiteral("message")).toString(), status});
        }
        pending.succeed(object);
    });
    return call;
}

ConnectionCall *RelaydeskConnection::peek(const EntityRef &entity, const PeekRequest &request, Reply<MessagePage> reply)
{
    if (entity.kind != EntityKind::Queue)
        return AwsConnection::peek(entity, request, std::move(reply));
    QUrlQuery query;
    query.addQueryItem(QStringLiteral("limit"), QString::number(request.count));
    if (request.after)
        query.addQueryItem(QStringLiteral("after"), QString::number(*request.after));
    const QString path = QStringLiteral("queues/") + QString::fromUtf8(QUrl::toPercentEncoding(entity.name)) +
                         QStringLiteral("/messages?") + query.query(QUrl::FullyEncoded);
    return native("GET", path, nullptr, [reply = std::move(reply)](ConnectionResult<QJsonObject> answer) {
        if (!answer.ok)
            return reply(ConnectionResult<MessagePage>::failure(answer.error));
        MessagePage page;
        for (const QJsonValue message : answer.value.value(QStringLiteral("messages")).toArray())
            page.messages.push_back(browsedLine(message.toObject()));
        const QJsonValue next = answer.value.value(QStringLiteral("nextPageToken"));
        if (next.isDouble())
            page.next = next.toInteger();
        reply(ConnectionResult<MessagePage>::success(std::move(page)));
    });
}

namespace {

BrokerConnection::Reply<QJsonObject> asClock(BrokerConnection::Reply<BrokerClock> reply)
{
    return [reply = std::move(reply)](ConnectionResult<QJsonObject> answer) {
        if (!answer.ok)
            return reply(ConnectionResult<BrokerClock>::failure(answer.error));
        const QJsonObject &clock = answer.value;   // GET /clock and POST /clock/advance answer the clock
        reply(ConnectionResult<BrokerClock>::success(
            {clock.value(QStringLiteral("mode")).toString(),
             QDateTime::fromMSecsSinceEpoch(clock.value(QStringLiteral("nowMs")).toInteger(), Qt::UTC),
             clock.value(QStringLiteral("scale")).toDouble(1.0)}));
    };
}

} // namespace

ConnectionCall *RelaydeskConnection::clock(Reply<BrokerClock> reply)
{
    return native("GET", QStringLiteral("clock"), nullptr, asClock(std::move(reply)));
}

ConnectionCall *RelaydeskConnection::advanceClock(qint64 seconds, Reply<BrokerClock> reply)
{
    const QJsonObject body{{QStringLiteral("seconds"), seconds}};
    return native("POST", QStringLiteral("clock/advance"), &body, asClock(std::move(reply)));
}

} // namespace relaydesk
