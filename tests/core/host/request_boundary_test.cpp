// SPDX-License-Identifier: MIT
// The browser boundary (host/request_boundary.h, docs/behaviour.md §8.2.1): which Host
// and Origin headers the port answers, row by row — loopback in its forms,
// the broker's own addresses and names, any port, case, trailing dots, and
// the tricks a web page could try (user info, percent-encoding, other
// spellings of 127.0.0.1, a foreign or `null` Origin, a second header).
#include "host/request_boundary.h"
#include "host/serve_options.h"
#include "http/http_request.h"
#include "support/test_main.h"

#include <QTest>

using namespace relaydesk;

namespace {

constexpr int kPasses = 0;

// A broker bound to 192.168.1.5, advertised as relay.example, allowing
// host.docker.internal and 2001:db8::5.
RequestBoundary boundary()
{
    RequestBoundary::Hosts hosts;
    hosts.addresses.append(QHostAddress(QStringLiteral("192.168.1.5")));
    hosts.add(QStringLiteral("relay.example"));
    hosts.add(QStringLiteral("host.docker.internal"));
    hosts.add(QStringLiteral("[2001:db8::5]"));
    return RequestBoundary(hosts);
}

// The status `request` is refused with, kPasses when it passes.
int verdict(const RequestBoundary &boundary, const HttpRequest::Headers &headers, bool http10 = false,
            const QByteArray &target = "/api/v1/queues")
{
    const std::optional<WireError> refused = boundary.check(HttpRequest("POST", target, http10, headers));
    return refused ? refused->httpStatus : kPasses;
}

} // namespace

class RequestBoundaryTest final : public QObject {
    Q_OBJECT

private slots:
    void host_answeredOnlyUnderItsOwnNames_data()
    {
        QTest::addColumn<QByteArray>("host");
        QTest::addColumn<int>("status");
        // loopback, in the forms clients send, at any port
        QTest::newRow("127.0.0.1:port") << QByteArray("127.0.0.1:9911") << kPasses;
        QTest::newRow("127.0.0.1 without port") << QByteArray("127.0.0.1") << kPasses;
        QTest::newRow("127.0.0.0/8") << QByteArray("127.1.2.3:80") << kPasses;
        QTest::newRow("localhost") << QByteArray("localhost") << kPasses;
        QTest::newRow("localhost:port") << QByteArray("localhost:9911") << kPasses;
        QTest::newRow("localhost another port") << QByteArray("localhost:3000") << kPasses;
        QTest::newRow("LOCALHOST") << QByteArray("LocalHost:9911") << kPasses;
        QTest::newRow("localhost trailing dot") << QByteArray("localhost.:9911") << kPasses;
        QTest::newRow("NAME.localhost") << QByteArray("app.localhost:9911") << kPasses;
        QTest::newRow("[::1]:port") << QByteArray("[::1]:9911") << kPasses;
        QTest::newRow("[::1]") << QByteArray("[::1]") << kPasses;
        QTest::newRow("[::1] written out") << QByteArray("[0:0:0:0:0:0:0:1]:9911") << kPasses;
        QTest::newRow("IPv4-mapped loopback") << QByteArray("[::ffff:127.0.0.1]:9911") << kPasses;
        // the broker's own: bind address, advertised host, --allow-host
        QTest::newRow("bind address") << QByteArray("192.168.1.5:9911") << kPasses;
        QTest::newRow("advertised host") << QByteArray("relay.example:4566") << kPasses;
        QTest::newRow("allowed name") << QByteArray("host.docker.internal:9911") << kPasses;
        QTest::newRow("allowed name, capitals") << QByteArray("HOST.Docker.Internal:9911") << kPasses;
        QTest::newRow("allowed name, trailing dot") << QByteArray("host.docker.internal.") << kPasses;
        QTest::newRow("allowed IPv6") << QByteArray("[2001:DB8:0::5]:9911") << kPasses;
        // anything else: DNS rebinding and its disguises
        QTest::newRow("foreign name") << QByteArray("evil.example") << 421;
        QTest::newRow("foreign name:port") << QByteArray("evil.example:9911") << 421;
        QTest::newRow("user info before") << QByteArray("127.0.0.1@evil.example") << 421;
        QTest::newRow("user info after") << QByteArray("evil.example@127.0.0.1:9911") << 421;
        QTest::newRow("loopback as a label") << QByteArray("127.0.0.1.evil.example") << 421;
        QTest::newRow("localhost as a label") << QByteArray("localhost.evil.example") << 421;
        QTest::newRow("ends in localhost") << QByteArray("evillocalhost:9911") << 421;
        QTest::newRow("allowed name as a label") << QByteArray("host.docker.internal.evil.example") << 421;
        QTest::newRow("percent-encoded dot") << QByteArray("127.0.0.1%2eevil.example") << 421;
        QTest::newRow("percent-encoded name") << QByteArray("%6cocalhost") << 421;
        QTest::newRow("decimal IPv4") << QByteArray("2130706433:9911") << 421;
        QTest::newRow("hex IPv4") << QByteArray("0x7f.0.0.1") << 421;
        QTest::newRow("octal IPv4") << QByteArray("0177.0.0.1") << 421;
        QTest::newRow("IPv4 trailing dot") << QByteArray("127.0.0.1.") << 421;
        QTest::newRow("wildcard address") << QByteArray("0.0.0.0:9911") << 421;
        QTest::newRow("another address") << QByteArray("192.168.1.6:9911") << 421;
        QTest::newRow("another IPv6") << QByteArray("[2001:db8::6]") << 421;
        QTest::newRow("IPv6 without brackets") << QByteArray("::1") << 421;
        QTest::newRow("IPv6 unclosed") << QByteArray("[::1:9911") << 421;
        QTest::newRow("IPv6 then text") << QByteArray("[::1]evil.example") << 421;
        QTest::newRow("IPv6 zone") << QByteArray("[fe80::1%25lo]:9911") << 421;
        QTest::newRow("IPv4 in brackets") << QByteArray("[127.0.0.1]") << 421;
        QTest::newRow("empty port") << QByteArray("localhost:") << 421;
        QTest::newRow("port too big") << QByteArray("localhost:65536") << 421;
        QTest::newRow("two ports") << QByteArray("localhost:80:80") << 421;
        QTest::newRow("port not a number") << QByteArray("localhost:http") << 421;
        QTest::newRow("empty") << QByteArray("") << 421;
        QTest::newRow("space inside") << QByteArray("local host") << 421;
        QTest::newRow("empty label") << QByteArray("localhost..") << 421;
        QTest::newRow("a path") << QByteArray("localhost/evil") << 421;
    }
    void host_answeredOnlyUnderItsOwnNames()
    {
        QFETCH(QByteArray, host);
        QFETCH(int, status);
        QCOMPARE(verdict(boundary(), {{"Host", host}}), status);
    }

    void origin_onlyTheBrokersOwn_data()
    {
        QTest::addColumn<QByteArray>("host");
        QTest::addColumn<QByteArray>("origin");
        QTest::addColumn<int>("status");
        QTest::newRow("same origin") << QByteArray("localhost:9911") << QByteArray("http://localhost:9911") << kPasses;
        QTest::newRow("same origin, capitals") << QByteArray("localhost:9911") << QByteArray("HTTP://LocalHost:9911")
                                               << kPasses;
        QTest::newRow("default port in Host") << QByteArray("localhost:80") << QByteArray("http://localhost") << kPasses;
        QTest::newRow("default port in Origin") << QByteArray("localhost") << QByteArray("http://localhost:80") << kPasses;
        QTest::newRow("https behind a proxy") << QByteArray("relay.example") << QByteArray("https://relay.example")
                                              << kPasses;
        QTest::newRow("IPv6") << QByteArray("[::1]:9911") << QByteArray("http://[0:0::1]:9911") << kPasses;
        QTest::newRow("foreign page") << QByteArray("127.0.0.1:9911") << QByteArray("http://evil.example") << 403;
        QTest::newRow("foreign https page") << QByteArray("localhost:9911") << QByteArray("https://evil.example:9911")
                                            << 403;
        QTest::newRow("another local port") << QByteArray("localhost:9911") << QByteArray("http://localhost:3000") << 403;
        QTest::newRow("another loopback name") << QByteArray("localhost:9911") << QByteArray("http://127.0.0.1:9911")
                                               << 403;
        QTest::newRow("http page, https port") << QByteArray("localhost:443") << QByteArray("http://localhost") << 403;
        QTest::newRow("https page, http port") << QByteArray("localhost:80") << QByteArray("https://localhost") << 403;
        QTest::newRow("null (sandbox, file)") << QByteArray("localhost:9911") << QByteArray("null") << 403;
        QTest::newRow("empty") << QByteArray("localhost:9911") << QByteArray("") << 403;
        QTest::newRow("with a path") << QByteArray("localhost:9911") << QByteArray("http://localhost:9911/") << 403;
        QTest::newRow("user info") << QByteArray("localhost:9911") << QByteArray("http://evil@localhost:9911") << 403;
        QTest::newRow("other scheme") << QByteArray("localhost:9911") << QByteArray("ws://localhost:9911") << 403;
        QTest::newRow("file") << QByteArray("localhost:9911") << QByteArray("file://") << 403;
        QTest::newRow("no scheme") << QByteArray("localhost:9911") << QByteArray("localhost:9911") << 403;
        QTest::newRow("foreign Host first") << QByteArray("evil.example") << QByteArray("http://evil.example") << 421;
    }
    void origin_onlyTheBrokersOwn()
    {
        QFETCH(QByteArray, host);
        QFETCH(QByteArray, origin);
        QFETCH(int, status);
        QCOMPARE(verdict(boundary(), {{"Host", host}, {"Origin", origin}}), status);
    }

    void headers_missingOrRepeated_data()
    {
        QTest::addColumn<HttpRequest::Headers>("headers");
        QTest::addColumn<int>("status");
        QTest::addColumn<bool>("http10");
        QTest::newRow("no Host (HTTP/1.0)") << HttpRequest::Headers{} << kPasses << true;
        QTest::newRow("no Host (HTTP/1.1)") << HttpRequest::Headers{} << 400 << false;
        QTest::newRow("no Host, an Origin") << HttpRequest::Headers{{"Origin", "http://localhost:9911"}} << 403 << true;
        QTest::newRow("two Hosts") << HttpRequest::Headers{{"Host", "localhost"}, {"host", "evil.example"}} << 421 << false;
        QTest::newRow("two Hosts, both own") << HttpRequest::Headers{{"Host", "localhost"}, {"Host", "localhost"}} << 421
                                             << false;
        QTest::newRow("two Origins") << HttpRequest::Headers{{"Host", "localhost:9911"},
                                                             {"Origin", "http://localhost:9911"},
                                                             {"ORIGIN", "http://evil.example"}}
                                     << 403 << false;
        QTest::newRow("header names in any case") << HttpRequest::Headers{{"HOST", "evil.example"}} << 421 << false;
    }
    void headers_missingOrRepeated()
    {
        QFETCH(HttpRequest::Headers, headers);
        QFETCH(int, status);
        QFETCH(bool, http10);
        QCOMPARE(verdict(boundary(), headers, http10), status);
    }

    // RFC 9112 §3.2.2: an absolute-form target names the host in place of
    // the Host header, so a foreign one is refused whatever Host says.
    void absoluteForm_checkedAsItsHost_data()
    {
        QTest::addColumn<QByteArray>("target");
        QTest::addColumn<int>("status");
        QTest::newRow("foreign host") << QByteArray("http://evil.example/api/v1/queues") << 421;
        QTest::newRow("foreign host, capital scheme") << QByteArray("HTTP://evil.example:9911/api/v1/queues") << 421;
        QTest::newRow("foreign https host") << QByteArray("https://evil.example") << 421;
        QTest::newRow("user info") << QByteArray("http://127.0.0.1@evil.example/") << 421;
        QTest::newRow("loopback") << QByteArray("http://127.0.0.1:9911/api/v1/queues") << kPasses;
        QTest::newRow("advertised host") << QByteArray("http://relay.example:4566/x?y=http://evil.example") << kPasses;
        QTest::newRow("origin-form naming a URL") << QByteArray("/x?y=http://evil.example") << kPasses;
    }
    void absoluteForm_checkedAsItsHost()
    {
        QFETCH(QByteArray, target);
        QFETCH(int, status);
        QCOMPARE(verdict(boundary(), {{"Host", "127.0.0.1:9911"}}, false, target), status);
        QCOMPARE(verdict(boundary(), {}, true, target), status);
    }

    // The default boundary (a server made without options) answers loopback only.
    void defaultBoundary_loopbackOnly()
    {
        const RequestBoundary loopbackOnly;
        QCOMPARE(verdict(loopbackOnly, {{"Host", "localhost:1"}}), kPasses);
        QCOMPARE(verdict(loopbackOnly, {{"Host", "[::1]"}}), kPasses);
        QCOMPARE(verdict(loopbackOnly, {{"Host", "relay.example"}}), 421);
        QCOMPARE(verdict(loopbackOnly, {{"Host", "192.168.1.5"}}), 421);
    }

    // The refusals say what happened and how to allow a host.
    void refusals_sayWhatToDo()
    {
        const std::optional<WireError> host = boundary().check(HttpRequest("GET", "/", false, {{"Host", "Evil.Example:80"}}));
        QVERIFY(host);
        QCOMPARE(QByteArray::fromStdString(host->jsonCode), QByteArray("MisdirectedRequest"));
        QVERIFY2(host->message.find("relaydesk serve --allow-host evil.example") != std::string::npos, host->message.c_str());
        const std::optional<WireError> origin = boundary().check(
            HttpRequest("POST", "/", false, {{"Host", "localhost:9911"}, {"Origin", "http://evil.example"}}));
        QVERIFY(origin);
        QCOMPARE(QByteArray::fromStdString(origin->jsonCode), QByteArray("AccessDenied"));
        QVERIFY2(origin->message.find("http://evil.example") != std::string::npos, origin->message.c_str());
    }

    // --allow-host takes a name or an address, never a port; brokerHosts adds
    // the advertised URL's host and the bind address.
    void allowHost_namesAndAddresses_data()
    {
        QTest::addColumn<QString>("value");
        QTest::addColumn<bool>("taken");
        QTest::newRow("name") << "host.docker.internal" << true;
        QTest::newRow("single label") << "relay" << true;
        QTest::newRow("IPv4") << "172.17.0.1" << true;
        QTest::newRow("IPv6") << "fd00::1" << true;
        QTest::newRow("IPv6 in brackets") << "[fd00::1]" << true;
        QTest::newRow("with a port") << "relay:9911" << false;
        QTest::newRow("IPv6 with a port") << "[fd00::1]:9911" << false;
        QTest::newRow("a URL") << "http://relay" << false;
        QTest::newRow("wildcard") << "*" << false;
        QTest::newRow("empty") << "" << false;
    }
    void allowHost_namesAndAddresses()
    {
        QFETCH(QString, value);
        QFETCH(bool, taken);
        RequestBoundary::Hosts hosts;
        QCOMPARE(hosts.add(value), taken);
        const auto parsed = parseServeOptions({QStringLiteral("--allow-host"), value});
        QCOMPARE(std::holds_alternative<ServeOptions>(parsed), taken);
        if (!taken)
            QVERIFY(std::get<QString>(parsed).startsWith(QStringLiteral("--allow-host")));
    }

    void brokerHosts_fromServeOptions()
    {
        auto parsed = parseServeOptions({QStringLiteral("--bind"), QStringLiteral("10.1.2.3"),
                                         QStringLiteral("--advertised-url"), QStringLiteral("http://Broker.Example:4566"),
                                         QStringLiteral("--allow-host"), QStringLiteral("one"),
                                         QStringLiteral("--allow-host"), QStringLiteral("two.example")},
                                        OptionsFor::Window);
        QVERIFY(std::holds_alternative<ServeOptions>(parsed));
        const RequestBoundary fromOptions(brokerHosts(std::get<ServeOptions>(parsed)));
        for (const QByteArray host : {"10.1.2.3:9911", "broker.example:4566", "one", "TWO.example:1", "localhost"})
            QVERIFY2(verdict(fromOptions, {{"Host", host}}) == kPasses, host.constData());
        QCOMPARE(verdict(fromOptions, {{"Host", "three"}}), 421);
    }
};

RELAYDESK_TEST_MAIN(RequestBoundaryTest)
#include "request_boundary_test.moc"
