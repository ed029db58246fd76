// SPDX-License-Identifier: MIT
// HttpDeliveryClient against the product's own mock endpoints (docs/behaviour.md §4.7)
// behind a real Http1Server: a "close" step is recorded ONCE per
// delivery attempt — the client never re-sends a POST whose connection was
// closed before the answer (Qt's QNetworkAccessManager did: two records);
// a lane of hanging requests does not hold back another lane on the same host.
#include "broker/clock.h"
#include "broker/wall_time_source.h"
#include "http/http_delivery_client.h"
#include "mock/mock_endpoints.h"

#include "support/delivery_client_support.h"
#include "support/mock_host_server.h"
#include "support/test_main.h"

#include <QTest>

#include <memory>

using namespace relaydesk;
using namespace relaydesk::testing;

namespace {

const ClockTime kStart = fromEpochMilliseconds(1'767'225'600'000LL); // 2026-01-01T00:00:00Z

} // namespace

class HttpDeliveryClientMockTest final : public QObject {
    Q_OBJECT

private slots:
    void init()
    {
        m_clock = std::make_unique<Clock>(m_wall, ClockMode::Virtual, 1.0, kStart);
        m_endpoints = std::make_unique<MockEndpoints>(*m_clock, 10);
        m_server = std::make_unique<MockHostServer>(*m_endpoints);
        m_port = m_server->listen(QHostAddress::LocalHost, 0);
        QVERIFY(m_port != 0);
    }
    void cleanup()
    {
        m_server.reset();
        m_endpoints.reset();
        m_clock.reset();
    }

    void closeStep_oneRequestRecorded_connectionError()
    {
        QVERIFY(m_endpoints->set("dropper", "close").ok());
        HttpDeliveryClient client(m_wall, {});
        const HttpDeliveryResult result = post(client, "dropper");
        QVERIFY(!result.httpStatus);
        QVERIFY(result.failure == HttpDeliveryResult::Failure::ConnectionError);
        QCOMPARE(m_endpoints->received("dropper")->size(), std::size_t(1));
    }

    void closeThenStatus_eachAttemptRecordedOnce()
    {
        QVERIFY(m_endpoints->set("once", "close, 200").ok());
        HttpDeliveryClient client(m_wall, {});
        QVERIFY(post(client, "once").failure == HttpDeliveryResult::Failure::ConnectionError);
        QCOMPARE(post(client, "once").httpStatus.value_or(0), 200);
        const std::vector<MockRequest> requests = *m_endpoints->received("once");
        QCOMPARE(requests.size(), std::size_t(2));
        QCOMPARE(requests[0].answer.action, MockAction::Close);
        QCOMPARE(requests[1].answer.status, 200);
    }

    // A lane whose every connection to the host hangs does not hold back
    // another lane's request to the same host (the worker's lanes are
    // subscriptions, so two mocks on the broker's own port stay independent).
    void laneFullOfHangs_otherLaneToTheSameHostAnswered()
    {
        QVERIFY(m_endpoints->set("stuck", "hang 60 s").ok());
        QVERIFY(m_endpoints->set("fine", "200").ok());
        HttpDeliveryClient client(m_wall, {});
        const std::size_t stuck = HttpDeliveryClient::kMaxConnectionsPerOrigin + 1;
        std::size_t answered = 0;
        for (std::size_t i = 0; i < stuck; ++i)
            client.post(request("stuck", "subscription-a"), [&](HttpDeliveryResult) { ++answered; });
        QCOMPARE(postAndWait(client, request("fine", "subscription-b")).httpStatus.value_or(0), 200);
        QCOMPARE(answered, std::size_t(0));
        QCOMPARE(client.inFlight(), stuck);
    }

private:
    HttpDeliveryRequest request(const std::string &endpoint, const std::string &lane = {}) const
    {
        const std::string url = "http://127.0.0.1:" + std::to_string(m_port) + "/_mock/" + endpoint;
        return HttpDeliveryRequest{url, {{"Content-Type", "application/json"}}, "{}", lane};
    }
    HttpDeliveryResult post(HttpDeliveryClient &client, const std::string &endpoint)
    {
        return postAndWait(client, request(endpoint));
    }

    ManualWallTimeSource m_wall;
    std::unique_ptr<Clock> m_clock;
    std::unique_ptr<MockEndpoints> m_endpoints;
    std::unique_ptr<MockHostServer> m_server;
    quint16 m_port = 0;
};

RELAYDESK_TEST_MAIN(HttpDeliveryClientMockTest)
#include "http_delivery_client_mock_test.moc"
