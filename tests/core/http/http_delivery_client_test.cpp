// SPDX-License-Identifier: MIT
// Tests of HttpDeliveryClient against a real loopback endpoint: statuses come
// back as they are (no redirect followed), headers and body arrive, large
// response bodies are read and dropped, a hang ends in a timeout (short wall
// timeout) and a closed port in a connection error; a connection closed by
// the endpoint is ONE request and a connection error (never re-sent),
// keep-alive connections are reused one request at a time, concurrent posts
// all complete.
#include "http/http_delivery_client.h"

#include "broker/wall_time_source.h"
#include "support/delivery_client_support.h"
#include "support/script_endpoint.h"
#include "support/test_main.h"

#include <QEventLoop>
#include <QTcpServer>
#include <QTest>

#include <optional>

using namespace relaydesk;
using namespace relaydesk::testing;
using namespace std::chrono_literals;

namespace {

HttpDeliveryRequest requestTo(const std::string &url)
{
    return HttpDeliveryRequest{url, {{"x-amz-sns-message-type", "Notification"}, {"Content-Type", "text/plain; charset=UTF-8"}},
                               "{\"Type\":\"Notification\"}", {}};
}

} // namespace

class HttpDeliveryClientTest : public QObject {
    Q_OBJECT

private slots:
    void status_returnedAsIs_data()
    {
        QTest::addColumn<int>("status");
        QTest::newRow("200") << 200;
        QTest::newRow("204") << 204;
        QTest::newRow("404") << 404;
        QTest::newRow("429") << 429;
        QTest::newRow("503") << 503;
    }
    void status_returnedAsIs()
    {
        QFETCH(int, status);
        ScriptEndpoint endpoint(nullptr);
        endpoint.setScript({respond(status)});
        HttpDeliveryClient client(m_wall, {});
        const HttpDeliveryResult result = postAndWait(client, requestTo(endpoint.url()));
        QVERIFY(result.httpStatus.has_value());
        QCOMPARE(*result.httpStatus, status);
        QVERIFY(result.failure == HttpDeliveryResult::Failure::None);
        QCOMPARE(client.inFlight(), std::size_t(0));
    }

    void post_carriesHeadersAndBody()
    {
        ScriptEndpoint endpoint(nullptr);
        endpoint.setScript({respond(200)});
        HttpDeliveryClient client(m_wall, {});
        postAndWait(client, requestTo(endpoint.url("/path")));
        const auto received = endpoint.received();
        QCOMPARE(received.size(), std::size_t(1));
        QCOMPARE(received[0].path, std::string("/path"));
        QCOMPARE(received[0].headers.at("x-amz-sns-message-type"), std::string("Notification"));
        QCOMPARE(received[0].headers.at("content-type"), std::string("text/plain; charset=UTF-8"));
        QCOMPARE(received[0].body, std::string("{\"Type\":\"Notification\"}"));
    }

    void redirect_notFollowed()
    {
        ScriptEndpoint endpoint(nullptr);
        ScriptStep redirect = respond(302);
        redirect.location = endpoint.url("/elsewhere");
        endpoint.setScript({redirect, respond(200)});
        HttpDeliveryClient client(m_wall, {});
        const HttpDeliveryResult result = postAndWait(client, requestTo(endpoint.url()));
        QCOMPARE(result.httpStatus.value_or(0), 302);
        QCOMPARE(endpoint.count(), std::size_t(1));
    }

    void largeResponseBody_readAndKeepAliveReused()
    {
        ScriptEndpoint endpoint(nullptr);
        ScriptStep big = respond(200);
        big.bodyBytes = 1 << 20;
        endpoint.setScript({big, respond(503)});
        HttpDeliveryClient client(m_wall, {});
        QCOMPARE(postAndWait(client, requestTo(endpoint.url())).httpStatus.value_or(0), 200);
        QCOMPARE(postAndWait(client, requestTo(endpoint.url())).httpStatus.value_or(0), 503);
        QCOMPARE(endpoint.count(), std::size_t(2));
    }

    void hang_endsInTimeout()
    {
        ScriptEndpoint endpoint(nullptr);
        endpoint.setScript({hang()});
        HttpDeliveryClientOptions options;
        options.requestTimeout = 200ms; // wall time; short on purpose
        HttpDeliveryClient client(m_wall, options);
        const HttpDeliveryResult result = postAndWait(client, requestTo(endpoint.url()));
        QVERIFY(!result.httpStatus);
        QVERIFY(result.failure == HttpDeliveryResult::Failure::Timeout);
    }

    void closedPort_endsInConnectionError()
    {
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
        const quint16 port = probe.serverPort();
        probe.close();
        HttpDeliveryClient client(m_wall, {});
        const HttpDeliveryResult result =
            postAndWait(client, requestTo("http://127.0.0.1:" + std::to_string(port) + "/hook"));
        QVERIFY(!result.httpStatus);
        QVERIFY(result.failure == HttpDeliveryResult::Failure::ConnectionError);
        QVERIFY(!result.errorText.empty());
    }

    void closedConnection_endsInConnectionError()
    {
        ScriptEndpoint endpoint(nullptr);
        endpoint.setScript({ScriptStep{ScriptStep::Kind::Close, 0, {}, 0}});
        HttpDeliveryClient client(m_wall, {});
        const HttpDeliveryResult result = postAndWait(client, requestTo(endpoint.url()));
        QVERIFY(!result.httpStatus);
        QVERIFY(result.failure == HttpDeliveryResult::Failure::ConnectionError);
        QVERIFY(!result.errorText.empty());
        QCOMPARE(endpoint.count(), std::size_t(1)); // exactly one send per post(): no silent re-send
        QCOMPARE(client.inFlight(), std::size_t(0));
    }

    void closedConnection_thenNextPostOnANewConnection()
    {
        ScriptEndpoint endpoint(nullptr);
        endpoint.setScript({respond(200), ScriptStep{ScriptStep::Kind::Close, 0, {}, 0}, respond(201)});
        HttpDeliveryClient client(m_wall, {});
        QCOMPARE(postAndWait(client, requestTo(endpoint.url())).httpStatus.value_or(0), 200);
        QVERIFY(postAndWait(client, requestTo(endpoint.url())).failure == HttpDeliveryResult::Failure::ConnectionError);
        QCOMPARE(postAndWait(client, requestTo(endpoint.url())).httpStatus.value_or(0), 201);
        QCOMPARE(endpoint.count(), std::size_t(3));
        QCOMPARE(endpoint.connectionCount(), std::size_t(2));
    }

    void sequentialPosts_reuseOneConnection()
    {
        ScriptEndpoint endpoint(nullptr);
        endpoint.setScript({respond(200)});
        HttpDeliveryClient client(m_wall, {});
        for (int i = 0; i < 5; ++i)
            QCOMPARE(postAndWait(client, requestTo(endpoint.url())).httpStatus.value_or(0), 200);
        QCOMPARE(endpoint.count(), std::size_t(5));
        QCOMPARE(endpoint.connectionCount(), std::size_t(1));
        QCOMPARE(client.connectionsOpenedForTest(), std::uint64_t(1));
    }

    void concurrentPosts_allComplete()
    {
        ScriptEndpoint endpoint(nullptr);
        endpoint.setScript({respond(200)});
        HttpDeliveryClient client(m_wall, {});
        constexpr int kPosts = 20;
        int done = 0, ok = 0;
        QEventLoop loop;
        for (int i = 0; i < kPosts; ++i) {
            client.post(requestTo(endpoint.url("/n" + std::to_string(i))), [&](HttpDeliveryResult result) {
                ok += result.httpStatus.value_or(0) == 200 ? 1 : 0;
                if (++done == kPosts)
                    loop.quit();
            });
        }
        QCOMPARE(done, 0); // never called inside post()
        QCOMPARE(client.inFlight(), std::size_t(kPosts));
        loop.exec();
        QCOMPARE(ok, kPosts);
        QCOMPARE(endpoint.count(), std::size_t(kPosts));
        QVERIFY(endpoint.connectionCount() <= std::size_t(kPosts)); // one request at a time per connection
        QCOMPARE(client.inFlight(), std::size_t(0));
    }

    // Two hangs in a row: the second request comes on a new connection (the
    // timed-out one is closed, never reused). Only hangs meet the short
    // limit, so a slow machine cannot change the outcome.
    void timeout_closesTheConnection()
    {
        ScriptEndpoint endpoint(nullptr);
        endpoint.setScript({hang()});
        HttpDeliveryClientOptions options;
        options.requestTimeout = 200ms; // wall time; short on purpose
        HttpDeliveryClient client(m_wall, options);
        QVERIFY(postAndWait(client, requestTo(endpoint.url())).failure == HttpDeliveryResult::Failure::Timeout);
        QVERIFY(postAndWait(client, requestTo(endpoint.url())).failure == HttpDeliveryResult::Failure::Timeout);
        QCOMPARE(client.connectionsOpenedForTest(), std::uint64_t(2)); // the hung connection was not reused
        QCOMPARE(client.inFlight(), std::size_t(0));
    }

    void badUrl_connectionErrorLater()
    {
        HttpDeliveryClient client(m_wall, {});
        bool called = false;
        std::optional<HttpDeliveryResult> result;
        QEventLoop loop;
        client.post(requestTo("ftp://example.invalid/x"), [&](HttpDeliveryResult done) {
            called = true;
            result = std::move(done);
            loop.quit();
        });
        QVERIFY(!called);
        QCOMPARE(client.inFlight(), std::size_t(1));
        loop.exec();
        QVERIFY(result->failure == HttpDeliveryResult::Failure::ConnectionError);
        QVERIFY(QString::fromStdString(result->errorText).contains("not an http or https URL"));
    }

    void destroyed_withRequestsInFlight_callsNoCallback()
    {
        ScriptEndpoint endpoint(nullptr);
        endpoint.setScript({hang()});
        bool called = false;
        {
            HttpDeliveryClient client(m_wall, {});
            client.post(requestTo(endpoint.url()), [&](HttpDeliveryResult) { called = true; });
            client.post(requestTo("not a url"), [&](HttpDeliveryResult) { called = true; }); // answered later
        }
        // A later client's deferred callback comes after anything the first
        // one left queued (a bad URL's failure is delivered the same way).
        HttpDeliveryClient later(m_wall, {});
        QVERIFY(postAndWait(later, requestTo("not a url")).failure == HttpDeliveryResult::Failure::ConnectionError);
        QVERIFY(!called);
    }

private:
    SystemWallTimeSource m_wall;
};

RELAYDESK_TEST_MAIN(HttpDeliveryClientTest)
#include "http_delivery_client_test.moc"
