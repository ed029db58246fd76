// SPDX-License-Identifier: MIT
// Where an HTTP/S subscriber may not be (broker/topics/endpoint_address.h,
// docs/behaviour.md §4.1), row by row: link-local and metadata addresses in
// every spelling a URL parser takes, the metadata names, "this network",
// the broker's own API; loopback, private ranges, public hosts and the
// broker's own mock endpoints stay allowed.
#include "broker/topics/endpoint_address.h"
#include "support/test_main.h"

#include <QTest>

using namespace relaydesk;

class EndpointAddressTest final : public QObject {
    Q_OBJECT

private slots:
    void endpoint_refusedOrAllowed_data()
    {
        QTest::addColumn<QString>("endpoint");
        QTest::addColumn<QString>("refusal");   // a part of the reason; empty: allowed
        const QString linkLocal = QStringLiteral("link-local");
        const QString metadata = QStringLiteral("cloud metadata");
        const QString thisNetwork = QStringLiteral("this network");
        const QString ownApi = QStringLiteral("this broker's own API");
        // Allowed: this is a local harness.
        QTest::newRow("loopback") << "http://127.0.0.1:8080/hook" << QString();
        QTest::newRow("localhost") << "http://localhost:8080/hook" << QString();
        QTest::newRow("IPv6 loopback") << "http://[::1]:8080/" << QString();
        QTest::newRow("private 10/8") << "http://10.0.0.5/hook" << QString();
        QTest::newRow("private 192.168/16") << "https://192.168.1.20:8443/hook" << QString();
        QTest::newRow("unique local IPv6") << "http://[fd12::5]/" << QString();
        QTest::newRow("public name") << "https://hooks.example.com/x" << QString();
        QTest::newRow("a name that looks numeric") << "http://1.2.3.4.example/" << QString();
        QTest::newRow("own mock endpoint") << "http://127.0.0.1:9911/_mock/hook" << QString();
        QTest::newRow("own port, another host") << "http://192.168.1.20:9911/api/v1/queues" << QString();
        QTest::newRow("another loopback port") << "http://127.0.0.1:9912/api/v1/queues" << QString();
        // Link-local and metadata addresses, however spelled.
        QTest::newRow("metadata address") << "http://169.254.169.254/latest/meta-data/" << linkLocal;
        QTest::newRow("ECS metadata") << "http://169.254.170.2/v2/credentials" << linkLocal;
        QTest::newRow("metadata, trailing dot") << "http://169.254.169.254./" << linkLocal;
        QTest::newRow("metadata as one number") << "http://2852039166/" << linkLocal;
        QTest::newRow("metadata in hex") << "http://0xa9.0xfe.0xa9.0xfe/" << linkLocal;
        QTest::newRow("metadata in octal") << "http://0251.0376.0251.0376/" << linkLocal;
        QTest::newRow("metadata, three parts") << "http://169.254.43518/" << linkLocal;
        QTest::newRow("metadata percent-encoded") << "http://%31%36%39.254.169.254/" << linkLocal;
        QTest::newRow("metadata behind user info") << "http://127.0.0.1@169.254.169.254/" << linkLocal;
        QTest::newRow("metadata with a port") << "http://169.254.169.254:80/" << linkLocal;
        QTest::newRow("IPv4-mapped metadata") << "http://[::ffff:169.254.169.254]/" << linkLocal;
        QTest::newRow("IPv4-mapped in hex") << "http://[::ffff:a9fe:a9fe]/" << linkLocal;
        QTest::newRow("NAT64 metadata") << "http://[64:ff9b::a9fe:a9fe]/" << linkLocal;
        QTest::newRow("IPv6 link-local") << "http://[fe80::1]/" << QStringLiteral("fe80::/10");
        QTest::newRow("IPv6 link-local with zone") << "http://[fe80::1%25eth0]:80/" << QStringLiteral("fe80::/10");
        QTest::newRow("AWS IPv6 metadata") << "http://[fd00:ec2::254]/latest" << metadata;
        QTest::newRow("Alibaba metadata") << "http://100.100.100.200/latest" << metadata;
        QTest::newRow("GCP metadata name") << "http://metadata.google.internal/computeMetadata/v1/" << metadata;
        QTest::newRow("GCP metadata name, capitals and dot") << "http://Metadata.Google.Internal./" << metadata;
        QTest::newRow("AWS metadata name") << "http://instance-data/latest" << metadata;
        // "This network", the unspecified address, multicast, broadcast.
        QTest::newRow("http://0/") << "http://0/" << thisNetwork;
        QTest::newRow("0.0.0.0") << "http://0.0.0.0:9911/hook" << thisNetwork;
        QTest::newRow("[::]") << "http://[::]:8080/" << QStringLiteral("unspecified");
        QTest::newRow("multicast") << "http://224.0.0.1/" << QStringLiteral("multicast");
        QTest::newRow("broadcast") << "http://255.255.255.255/" << QStringLiteral("broadcast");
        // The broker's own API (its endpoint is http://127.0.0.1:9911).
        QTest::newRow("own API") << "http://127.0.0.1:9911/api/v1/queues" << ownApi;
        QTest::newRow("own API as localhost") << "http://localhost:9911/?Action=Publish" << ownApi;
        QTest::newRow("own API, other loopback") << "http://127.0.0.2:9911/v2/queues" << ownApi;
        QTest::newRow("own API, IPv6 loopback") << "http://[::1]:9911/health" << ownApi;
        QTest::newRow("own root") << "http://127.0.0.1:9911" << ownApi;
        QTest::newRow("out of the mocks by dot segments") << "http://127.0.0.1:9911/_mock/../api/v1/queues" << ownApi;
        QTest::newRow("out of the mocks, encoded") << "http://127.0.0.1:9911/_mock/%2e%2e/api/v1/queues" << ownApi;
    }
    void endpoint_refusedOrAllowed()
    {
        QFETCH(QString, endpoint);
        QFETCH(QString, refusal);
        const BrokerIdentity identity;   // http://127.0.0.1:9911
        const std::optional<std::string> reason = forbiddenEndpointReason(endpoint.toStdString(), identity);
        if (refusal.isEmpty())
            QVERIFY2(!reason, reason.value_or("").c_str());
        else
            QVERIFY2(reason && QString::fromStdString(*reason).contains(refusal), reason.value_or("(allowed)").c_str());
    }
};

RELAYDESK_TEST_MAIN(EndpointAddressTest)
#include "endpoint_address_test.moc"
