// SPDX-License-Identifier: MIT
// Who `relaydesk serve` says it is (serve_identity.h): the endpoint derived
// from the bind address (never a wildcard), --region/--account over the
// config file's, the endpoint a request's Host header gives its replies, and
// queue URLs rebuilt on it. Pure functions.
#include "host/serve_identity.h"
#include "support/test_main.h"

#include <QTest>

using namespace relaydesk;

class ServeIdentityTest final : public QObject {
    Q_OBJECT

private slots:
    void reachableEndpoint_neverWildcard_data()
    {
        QTest::addColumn<QString>("bind");
        QTest::addColumn<QString>("endpoint");
        QTest::newRow("loopback") << "127.0.0.1" << "http://127.0.0.1:9911";
        QTest::newRow("any IPv4") << "0.0.0.0" << "http://127.0.0.1:9911";
        QTest::newRow("any IPv6") << "::" << "http://[::1]:9911";
        QTest::newRow("IPv6 loopback") << "::1" << "http://[::1]:9911";
        QTest::newRow("one interface") << "192.168.1.20" << "http://192.168.1.20:9911";
    }
    void reachableEndpoint_neverWildcard()
    {
        QFETCH(QString, bind);
        QFETCH(QString, endpoint);
        QCOMPARE(QString::fromStdString(reachableEndpoint(QHostAddress(bind), 9911)), endpoint);
    }

    void serveIdentity_optionsOverConfigOverDefaults_data()
    {
        QTest::addColumn<QString>("region");          // option, "" = not given
        QTest::addColumn<QString>("account");
        QTest::addColumn<QString>("advertised");
        QTest::addColumn<QString>("configRegion");    // the config file's, "" = none
        QTest::addColumn<QString>("expectedRegion");
        QTest::addColumn<QString>("expectedAccount");
        QTest::addColumn<QString>("expectedEndpoint");
        QTest::newRow("defaults") << "" << "" << "" << "" << "us-east-1" << "000000000000" << "http://127.0.0.1:4000";
        QTest::newRow("options") << "eu-west-1" << "123456789012" << "" << "" << "eu-west-1" << "123456789012"
                                 << "http://127.0.0.1:4000";
        QTest::newRow("config file") << "" << "" << "" << "ap-south-1" << "ap-south-1" << "000000000000"
                                     << "http://127.0.0.1:4000";
        QTest::newRow("option over file") << "eu-west-1" << "" << "" << "ap-south-1" << "eu-west-1" << "000000000000"
                                          << "http://127.0.0.1:4000";
        QTest::newRow("advertised") << "" << "" << "http://host.docker.internal:9911" << "" << "us-east-1"
                                    << "000000000000" << "http://host.docker.internal:9911";
    }
    void serveIdentity_optionsOverConfigOverDefaults()
    {
        QFETCH(QString, region);
        QFETCH(QString, account);
        QFETCH(QString, advertised);
        QFETCH(QString, configRegion);
        QFETCH(QString, expectedRegion);
        QFETCH(QString, expectedAccount);
        QFETCH(QString, expectedEndpoint);
        ServeOptions options;
        options.bind = QHostAddress(QStringLiteral("0.0.0.0"));
        options.region = region;
        options.accountId = account;
        options.advertisedUrl = advertised;
        BrokerIdentity fromConfig;
        if (!configRegion.isEmpty())
            fromConfig.region = configRegion.toStdString();
        const BrokerIdentity identity = serveIdentity(options, 4000, fromConfig);
        QCOMPARE(QString::fromStdString(identity.region), expectedRegion);
        QCOMPARE(QString::fromStdString(identity.accountId), expectedAccount);
        QCOMPARE(QString::fromStdString(identity.endpoint), expectedEndpoint);
        QVERIFY(identity.validate());
    }

    void identityForHost_takesAPlainHostHeader_data()
    {
        QTest::addColumn<QByteArray>("host");
        QTest::addColumn<bool>("advertised");
        QTest::addColumn<QString>("queueUrl");   // of queue "jobs"
        const QString broker = QStringLiteral("http://127.0.0.1:9911/000000000000/jobs");
        QTest::newRow("localhost with port") << QByteArray("localhost:9911") << false
                                             << "http://localhost:9911/000000000000/jobs";
        QTest::newRow("container name") << QByteArray("host.docker.internal:4566") << false
                                        << "http://host.docker.internal:4566/000000000000/jobs";
        QTest::newRow("no port") << QByteArray("broker") << false << "http://broker/000000000000/jobs";
        QTest::newRow("IPv6") << QByteArray("[::1]:9911") << false << "http://[::1]:9911/000000000000/jobs";
        QTest::newRow("advertised wins") << QByteArray("localhost:9911") << true << broker;
        QTest::newRow("missing") << QByteArray() << false << broker;
        QTest::newRow("with a path") << QByteArray("evil/x") << false << broker;
        QTest::newRow("with user info") << QByteArray("user@host:1") << false << broker;
        QTest::newRow("port not a number") << QByteArray("host:http") << false << broker;
        QTest::newRow("empty port") << QByteArray("host:") << false << broker;
        QTest::newRow("space") << QByteArray("a b") << false << broker;
        QTest::newRow("unclosed bracket") << QByteArray("[::1:9911") << false << broker;
    }
    void identityForHost_takesAPlainHostHeader()
    {
        QFETCH(QByteArray, host);
        QFETCH(bool, advertised);
        QFETCH(QString, queueUrl);
        BrokerIdentity broker;
        broker.endpoint = "http://127.0.0.1:9911";
        const std::optional<BrokerIdentity> forHost = identityForHost(broker, advertised, host);
        const BrokerIdentity &used = forHost ? *forHost : broker;
        QCOMPARE(QString::fromStdString(used.queueUrl("jobs")), queueUrl);
        QCOMPARE(used.region, broker.region);
        QCOMPARE(used.accountId, broker.accountId);
    }

    void rebasedQueueUrl_movesQueueUrlsOnly_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<QString>("rebased");
        QTest::newRow("queue url") << "http://127.0.0.1:9911/000000000000/jobs.fifo"
                                   << "http://localhost:1234/000000000000/jobs.fifo";
        QTest::newRow("other account") << "http://127.0.0.1:9911/111111111111/jobs"
                                       << "http://127.0.0.1:9911/111111111111/jobs";
        QTest::newRow("not a queue url") << "nonsense" << "nonsense";
    }
    void rebasedQueueUrl_movesQueueUrlsOnly()
    {
        QFETCH(QString, url);
        QFETCH(QString, rebased);
        BrokerIdentity client;
        client.endpoint = "http://localhost:1234";
        QCOMPARE(QString::fromStdString(rebasedQueueUrl(client, url.toStdString())), rebased);
    }
};

RELAYDESK_TEST_MAIN(ServeIdentityTest)
#include "serve_identity_test.moc"
