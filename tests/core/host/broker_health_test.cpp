// SPDX-License-Identifier: MIT
// GET /health (broker_health.h): 503 until ready and while stopping, 200
// when ready, with the broker's region, account, endpoint, clock and
// database; other methods 405. Virtual clock.
#include "host/broker_health.h"

#include "broker/clock.h"
#include "broker/wall_time_source.h"
#include "support/test_main.h"

#include <QTest>

#include <nlohmann/json.hpp>

using namespace relaydesk;

class BrokerHealthTest final : public QObject {
    Q_OBJECT

private slots:
    void reply_followsTheState_data()
    {
        QTest::addColumn<int>("state");
        QTest::addColumn<QString>("method");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("statusText");   // "" = no body check
        QTest::newRow("starting") << int(BrokerHealth::State::Starting) << "GET" << 503 << "starting";
        QTest::newRow("ready") << int(BrokerHealth::State::Ready) << "GET" << 200 << "ready";
        QTest::newRow("ready, HEAD") << int(BrokerHealth::State::Ready) << "HEAD" << 200 << "ready";
        QTest::newRow("stopping") << int(BrokerHealth::State::Stopping) << "GET" << 503 << "stopping";
        QTest::newRow("POST") << int(BrokerHealth::State::Ready) << "POST" << 405 << "";
    }
    void reply_followsTheState()
    {
        QFETCH(int, state);
        QFETCH(QString, method);
        QFETCH(int, status);
        QFETCH(QString, statusText);
        SystemWallTimeSource wall;
        Clock clock(wall, ClockMode::Virtual, 1.0, fromEpochMilliseconds(1'700'000'000'000));
        BrokerIdentity identity;
        identity.region = "eu-west-1";
        identity.accountId = "123456789012";
        identity.endpoint = "http://localhost:4000";
        BrokerHealth health(clock, identity, ":memory:");
        QCOMPARE(int(health.state()), int(BrokerHealth::State::Starting));
        health.setState(static_cast<BrokerHealth::State>(state));
        const HttpReply reply = health.reply(method.toStdString());
        QCOMPARE(reply.status, status);
        QCOMPARE(reply.contentType, QByteArray("application/json"));
        const nlohmann::json body = nlohmann::json::parse(reply.body.toStdString());
        if (statusText.isEmpty()) {
            QCOMPARE(body.value("error", ""), std::string("MethodNotAllowed"));
            return;
        }
        QCOMPARE(QString::fromStdString(body.value("status", "")), statusText);
        QCOMPARE(body.value("region", ""), std::string("eu-west-1"));
        QCOMPARE(body.value("account", ""), std::string("123456789012"));
        QCOMPARE(body.value("endpoint", ""), std::string("http://localhost:4000"));
        QCOMPARE(body.value("database", ""), std::string(":memory:"));
        QCOMPARE(body.value("version", ""), std::string(RELAYDESK_VERSION));
        QCOMPARE(body["clock"].value("mode", ""), std::string("virtual"));
        QCOMPARE(body["clock"].value("nowMs", std::int64_t(0)), std::int64_t(1'700'000'000'000));
    }
};

RELAYDESK_TEST_MAIN(BrokerHealthTest)
#include "broker_health_test.moc"
