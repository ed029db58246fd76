// SPDX-License-Identifier: MIT
#pragma once

#include "connections/aws_connection.h"

#include <QJsonObject>
#include <QUrl>

class QNetworkAccessManager;

namespace relaydesk {

// Another `relaydesk serve` (a container, a CI job, a colleague's machine)
// through its own APIs (docs/api.md):
//  - SQS and SNS as an AwsConnection at its URL, signed with an access key of
//    its --credentials file (any key on a loopback broker without one);
//  - its native API (/api/v1) with `Authorization: Bearer TOKEN` (one of the
//    file's bearerTokens; none without --credentials) for what AWS has not:
//    peek (the broker's browse, every message in every state, paged), the
//    clock, a subscription's attempt log and the mock endpoints. Without the right token those calls answer the broker's own
//    `Relaydesk Unauthorized (HTTP 401)`; SQS and SNS do not need it.
// Native errors keep the broker's {"error", "message"} (service "Relaydesk").
class RelaydeskConnection final : public AwsConnection {
    Q_OBJECT
public:
    struct Settings {
        QString name;           // the tree's name
        QUrl url;               // "http://HOST:PORT"
        AwsCredentials keys;    // empty: "test"/"test" (a loopback broker takes any)
        QString bearerToken;    // empty: none sent
    };

    explicit RelaydeskConnection(Settings settings, QObject *parent = nullptr);

    QString displayName() const override { return m_settings.name; }
    Capability capability(EntityKind kind, ConnectionFeature feature) const override;
    ConnectionCall *peek(const EntityRef &entity, const PeekRequest &request, Reply<MessagePage> reply) override;

    // GET /api/v1/clock ({"mode", "now", "nowMs", "scale"}; the bearer token).
    ConnectionCall *clock(Reply<BrokerClock> reply) override;
    // POST /api/v1/clock/advance {"seconds": N} (a virtual clock only: ClockNotVirtual otherwise).
    ConnectionCall *advanceClock(qint64 seconds, Reply<BrokerClock> reply) override;

    // The attempt log and the mocks (relaydesk_connection_deliveries.cpp):
    // GET /api/v1/attempts (newest 1 000 of the subscription, grouped by
    // message; one message's, oldest first), GET /api/v1/mocks and
    // /mocks/NAME/requests — with the bearer token, as the clock.
    ConnectionCall *deliveries(const EntityRef &subscription, Reply<std::vector<DeliverySummary>> reply) override;
    ConnectionCall *attempts(const EntityRef &subscription, const QString &messageId,
                             Reply<std::vector<AttemptRecord>> reply) override;
    ConnectionCall *mockEndpoints(Reply<std::vector<MockEndpointLine>> reply) override;
    ConnectionCall *mockRequests(const QString &mock, Reply<std::vector<MockRequestLine>> reply) override;
    // PUT /api/v1/mocks/NAME {"script"}, DELETE /mocks/NAME, DELETE /mocks/NAME/requests.
    ConnectionCall *setMock(const QString &mock, const QString &script, Reply<Done> reply) override;
    ConnectionCall *deleteMock(const QString &mock, Reply<Done> reply) override;
    ConnectionCall *clearMockRequests(const QString &mock, Reply<Done> reply) override;

private:
    ConnectionCall *native(const QByteArray &method, const QString &path, const QJsonObject *body, Reply<QJsonObject> reply);

    Settings m_settings;
    QNetworkAccessManager *m_network = nullptr;
};

} // namespace relaydesk
