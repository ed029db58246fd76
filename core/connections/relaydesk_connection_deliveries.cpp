// SPDX-License-Identifier: MIT
// RelaydeskConnection's attempt log and mock endpoints through the broker's
// native API (docs/api.md "Deliveries: mock endpoints and the attempt log").
#include "connections/relaydesk_connection.h"

#include <QJsonArray>

#include <map>

namespace relaydesk {

namespace {

QDateTime utc(const QJsonValue &value) { return QDateTime::fromString(value.toString(), Qt::ISODateWithMs).toUTC(); }

ClockTime clockTime(const QJsonValue &value) { return fromEpochMilliseconds(utc(value).toMSecsSinceEpoch()); }

std::optional<std::string> optionalText(const QJsonValue &value)
{
    return value.isString() ? std::optional<std::string>(value.toString().toStdString()) : std::nullopt;
}

// One entry of GET /api/v1/attempts as the attempt log's record.
AttemptRecord attemptRecord(const QJsonObject &entry)
{
    AttemptRecord record;
    record.id = entry.value(QStringLiteral("id")).toInteger();
    record.messageId = entry.value(QStringLiteral("messageId")).toString().toStdString();
    record.subscriptionArn = entry.value(QStringLiteral("subscriptionArn")).toString().toStdString();
    record.kind = entry.value(QStringLiteral("kind")).toString().toStdString();
    record.attempt = entry.value(QStringLiteral("attempt")).toInteger();
    record.phase = entry.value(QStringLiteral("phase")).toString().toStdString();
    record.plannedAt = clockTime(entry.value(QStringLiteral("plannedAt")));
    record.startedAt = clockTime(entry.value(QStringLiteral("startedAt")));
    record.durationMs = entry.value(QStringLiteral("durationMs")).toInteger();
    if (entry.value(QStringLiteral("httpStatus")).isDouble())
        record.httpStatus = entry.value(QStringLiteral("httpStatus")).toInt();
    record.errorKind = optionalText(entry.value(QStringLiteral("errorKind")));
    record.error = optionalText(entry.value(QStringLiteral("error")));
    record.outcome = entry.value(QStringLiteral("outcome")).toString().toStdString();
    record.final = optionalText(entry.value(QStringLiteral("final")));
    record.redelivery = entry.value(QStringLiteral("redelivery")).toInteger();
    return record;
}

// Newest-first entries grouped by message, in the order of each message's newest attempt.
std::vector<DeliverySummary> deliveriesOf(const QJsonArray &newestFirst)
{
    std::vector<DeliverySummary> deliveries;
    std::map<QString, std::size_t> index;
    for (const QJsonValue value : newestFirst) {
        const QJsonObject entry = value.toObject();
        const QString messageId = entry.value(QStringLiteral("messageId")).toString();
        auto [at, added] = index.try_emplace(messageId, deliveries.size());
        if (added) {
            const QJsonValue final = entry.value(QStringLiteral("final"));
            deliveries.push_back({messageId, 0, entry.value(QStringLiteral("outcome")).toString(),
                                  final.isString() ? final.toString() : QStringLiteral("pending"),
                                  utc(entry.value(QStringLiteral("startedAt")))});
        }
        ++deliveries[at->second].attempts;
    }
    return deliveries;
}

QString answerText(const QJsonObject &answer)
{
    const QString action = answer.value(QStringLiteral("action")).toString();
    return action == QLatin1String("respond") ? QString::number(answer.value(QStringLiteral("status")).toInt()) : action;
}

QString encoded(const QString &text) { return QString::fromUtf8(QUrl::toPercentEncoding(text)); }

} // namespace

ConnectionCall *RelaydeskConnection::deliveries(const EntityRef &subscription, Reply<std::vector<DeliverySummary>> reply)
{
    if (!capability(subscription.kind, ConnectionFeature::AttemptLog).offered)
        return BrokerConnection::deliveries(subscription, std::move(reply));
    const QString path = QStringLiteral("attempts?subscriptionArn=%1&order=newest&limit=1000").arg(encoded(subscription.address));
    return native("GET", path, nullptr,
                  [reply = std::move(reply)](ConnectionResult<QJsonObject> answer) {
                      if (!answer.ok)
                          return reply(ConnectionResult<std::vector<DeliverySummary>>::failure(answer.error));
                      reply(ConnectionResult<std::vector<DeliverySummary>>::success(
                          deliveriesOf(answer.value.value(QStringLiteral("attempts")).toArray())));
                  });
}

ConnectionCall *RelaydeskConnection::attempts(const EntityRef &subscription, const QString &messageId,
                                              Reply<std::vector<AttemptRecord>> reply)
{
    if (!capability(subscription.kind, ConnectionFeature::AttemptLog).offered)
        return BrokerConnection::attempts(subscription, messageId, std::move(reply));
    const QString path = QStringLiteral("attempts?subscriptionArn=%1&messageId=%2&limit=10000")
                             .arg(encoded(subscription.address), encoded(messageId));
    return native("GET", path, nullptr,
                  [reply = std::move(reply)](ConnectionResult<QJsonObject> answer) {
                      if (!answer.ok)
                          return reply(ConnectionResult<std::vector<AttemptRecord>>::failure(answer.error));
                      std::vector<AttemptRecord> records;
                      for (const QJsonValue entry : answer.value.value(QStringLiteral("attempts")).toArray())
                          records.push_back(attemptRecord(entry.toObject()));
                      reply(ConnectionResult<std::vector<AttemptRecord>>::success(std::move(records)));
                  });
}

ConnectionCall *RelaydeskConnection::mockEndpoints(Reply<std::vector<MockEndpointLine>> reply)
{
    return native("GET", QStringLiteral("mocks"), nullptr, [reply = std::move(reply)](ConnectionResult<QJsonObject> answer) {
        if (!answer.ok)
            return reply(ConnectionResult<std::vector<MockEndpointLine>>::failure(answer.error));
        std::vector<MockEndpointLine> mocks;
        for (const QJsonValue value : answer.value.value(QStringLiteral("mocks")).toArray()) {
            const QJsonObject mock = value.toObject();
            mocks.push_back({mock.value(QStringLiteral("name")).toString(), mock.value(QStringLiteral("script")).toString(),
                             mock.value(QStringLiteral("url")).toString(), mock.value(QStringLiteral("requestCount")).toInteger()});
        }
        reply(ConnectionResult<std::vector<MockEndpointLine>>::success(std::move(mocks)));
    });
}

ConnectionCall *RelaydeskConnection::mockRequests(const QString &mock, Reply<std::vector<MockRequestLine>> reply)
{
    return native("GET", QStringLiteral("mocks/%1/requests").arg(encoded(mock)), nullptr,
                  [reply = std::move(reply)](ConnectionResult<QJsonObject> answer) {
                      if (!answer.ok)
                          return reply(ConnectionResult<std::vector<MockRequestLine>>::failure(answer.error));
                      std::vector<MockRequestLine> requests;
                      for (const QJsonValue value : answer.value.value(QStringLiteral("requests")).toArray()) {
                          const QJsonObject request = value.toObject();
                          requests.push_back({request.value(QStringLiteral("method")).toString(),
                                              request.value(QStringLiteral("target")).toString(),
                                              utc(request.value(QStringLiteral("received"))),
                                              request.value(QStringLiteral("body")).toString(),
                                              answerText(request.value(QStringLiteral("answer")).toObject())});
                      }
                      reply(ConnectionResult<std::vector<MockRequestLine>>::success(std::move(requests)));
                  });
}

namespace {

BrokerConnection::Reply<QJsonObject> asDone(BrokerConnection::Reply<Done> reply)
{
    return [reply = std::move(reply)](ConnectionResult<QJsonObject> answer) {
        reply(answer.ok ? ConnectionResult<Done>::success({}) : ConnectionResult<Done>::failure(answer.error));
    };
}

} // namespace

ConnectionCall *RelaydeskConnection::setMock(const QString &mock, const QString &script, Reply<Done> reply)
{
    const QJsonObject body{{QStringLiteral("script"), script}};
    return native("PUT", QStringLiteral("mocks/%1").arg(encoded(mock)), &body, asDone(std::move(reply)));
}

ConnectionCall *RelaydeskConnection::deleteMock(const QString &mock, Reply<Done> reply)
{
    return native("DELETE", QStringLiteral("mocks/%1").arg(encoded(mock)), nullptr, asDone(std::move(reply)));
}

ConnectionCall *RelaydeskConnection::clearMockRequests(const QString &mock, Reply<Done> reply)
{
    return native("DELETE", QStringLiteral("mocks/%1/requests").arg(encoded(mock)), nullptr, asDone(std::move(reply)));
}

} // namespace relaydesk
