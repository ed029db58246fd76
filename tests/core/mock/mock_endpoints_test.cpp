// SPDX-License-Identifier: MIT
// MockEndpoints (docs/behaviour.md §4.7) behind a real Http1Server on 127.0.0.1,
// driven by QNetworkAccessManager: statuses in script order, close, hang,
// what is recorded (and how much), and the registry's refusals.
#include "broker/clock.h"
#include "broker/wall_time_source.h"
#include "mock/mock_endpoints.h"

#include "support/mock_host_server.h"
#include "support/test_main.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSignalSpy>
#include <QTcpSocket>
#include <QtTest>

#include <memory>

using namespace relaydesk;
using namespace relaydesk::testing;
using namespace std::chrono_literals;

namespace {

const ClockTime kStart = fromEpochMilliseconds(1'767'225'600'000LL); // 2026-01-01T00:00:00Z

struct Answer {
    int status = 0;                                   // 0 when no HTTP answer arrived
    QNetworkReply::NetworkError error = QNetworkReply::NoError;
    QByteArray body;
};

} // namespace

class MockEndpointsTest final : public QObject {
    Q_OBJECT

private:
    ManualWallTimeSource m_wall;
    std::unique_ptr<Clock> m_clock;
    std::unique_ptr<MockEndpoints> m_endpoints;
    std::unique_ptr<MockHostServer> m_server;
    std::unique_ptr<QNetworkAccessManager> m_client;
    quint16 m_port = 0;

    QUrl urlOf(const QString &pathAndQuery) const
    {
        return QUrl(QStringLiteral("http://127.0.0.1:%1%2").arg(m_port).arg(pathAndQuery));
    }

    // Sends one request and waits for its end (the 20 s guard only stops a
    // broken test; no assertion depends on how long anything took).
    Answer send(const QString &pathAndQuery, const QByteArray &verb = "GET", const QByteArray &body = {},
                const QList<QPair<QByteArray, QByteArray>> &headers = {}, int transferTimeoutMs = 0)
    {
        QNetworkRequest request(urlOf(pathAndQuery));
        for (const auto &[name, value] : headers)
            request.setRawHeader(name, value);
        if (!body.isEmpty())
            request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArray("application/json"));
        if (transferTimeoutMs > 0)
            request.setTransferTimeout(transferTimeoutMs);
        QNetworkReply *reply = m_client->sendCustomRequest(request, verb, body);
        QSignalSpy finished(reply, &QNetworkReply::finished);
        if (!reply->isFinished() && !finished.wait(20'000))
            qFatal("request %s did not finish", qPrintable(pathAndQuery));
        Answer answer;
        answer.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        answer.error = reply->error();
        if (reply->isOpen())
            answer.body = reply->readAll();
        reply->deleteLater();
        return answer;
    }

    std::vector<MockRequest> received(const std::string &name) const
    {
        Result<std::vector<MockRequest>> requests = m_endpoints->received(name);
        return requests.ok() ? *requests : std::vector<MockRequest>{};
    }

private slots:
    void init()
    {
        m_clock = std::make_unique<Clock>(m_wall, ClockMode::Virtual, 1.0, kStart);
        m_endpoints = std::make_unique<MockEndpoints>(*m_clock, 3);
        m_server = std::make_unique<MockHostServer>(*m_endpoints);
        m_port = m_server->listen(QHostAddress::LocalHost, 0);
        QVERIFY(m_port != 0);
        m_client = std::make_unique<QNetworkAccessManager>();
    }

    void cleanup()
    {
        m_client.reset();
        m_server.reset();
        m_endpoints.reset();
        m_clock.reset();
    }

    void statuses_followScriptOrder_data()
    {
        QTest::addColumn<QString>("script");
        QTest::addColumn<QList<int>>("statuses");
        QTest::newRow("503 × 2, then 200") << "503 × 2, then 200" << QList<int>{503, 503, 200, 200};
        QTest::newRow("429 always") << "429 always" << QList<int>{429, 429, 429};
        QTest::newRow("three steps") << "500, 404 then 201" << QList<int>{500, 404, 201, 201};
        QTest::newRow("delayed answer") << "delay 20 ms then 202, 200" << QList<int>{202, 200};
    }
    void statuses_followScriptOrder()
    {
        QFETCH(QString, script);
        QFETCH(QList<int>, statuses);
        QVERIFY(m_endpoints->set("flaky", script.toStdString()).ok());
        QList<int> seen;
        for (qsizetype i = 0; i < statuses.size(); ++i) {
            const Answer answer = send(QStringLiteral("/_mock/flaky"), "POST", "{}");
            seen.append(answer.status);
            QCOMPARE(answer.body, "mock flaky: " + QByteArray::number(answer.status) + "\n");
        }
        QCOMPARE(seen, statuses);
        QCOMPARE(m_endpoints->find("flaky")->requestCount, std::uint64_t(statuses.size()));
        QCOMPARE(m_server->notMockCount(), 0);
    }

    void request_isRecordedWithHeadersBodyAndClockTime()
    {
        QVERIFY(m_endpoints->set("orders", "201, 500").ok());
        const QByteArray body = R"({"Type":"Notification","Message":"hello"})";
        const Answer first = send(QStringLiteral("/_mock/orders/inbox?tenant=a%20b"), "POST", body,
                                  {{"x-amz-sns-message-type", "Notification"}, {"x-amz-sns-message-id", "id-1"}});
        QCOMPARE(first.status, 201);
        QVERIFY(m_clock->advanceBy(5s).ok());
        QCOMPARE(send(QStringLiteral("/_mock/orders")).status, 500);

        const std::vector<MockRequest> requests = received("orders");
        QCOMPARE(requests.size(), std::size_t(2));
        const MockRequest &post = requests[0];
        QCOMPARE(post.method, std::string("POST"));
        QCOMPARE(post.target, std::string("/_mock/orders/inbox?tenant=a%20b"));
        QCOMPARE(post.body, body.toStdString());
        QCOMPARE(post.received, kStart);
        QCOMPARE(post.answer.status, 201);
        const auto header = [&](const std::string &name) {
            for (const auto &[key, value] : post.headers)
                if (QByteArray::fromStdString(key).compare(name.c_str(), Qt::CaseInsensitive) == 0)
                    return value;
            return std::string("(absent)");
        };
        QCOMPARE(header("x-amz-sns-message-type"), std::string("Notification"));
        QCOMPARE(header("x-amz-sns-message-id"), std::string("id-1"));
        QCOMPARE(header("content-type"), std::string("application/json"));

        const MockRequest &get = requests[1];
        QCOMPARE(get.method, std::string("GET"));
        QCOMPARE(get.target, std::string("/_mock/orders"));
        QVERIFY(get.body.empty());
        QCOMPARE(get.received, kStart + 5s);
        QCOMPARE(get.answer.status, 500);
    }

    void records_keepOnlyTheLatest()
    {
        QVERIFY(m_endpoints->set("busy", "200").ok()); // this fixture keeps 3 per endpoint
        for (int i = 0; i < 5; ++i)
            QCOMPARE(send(QStringLiteral("/_mock/busy"), "POST", QByteArray::number(i)).status, 200);
        const std::vector<MockRequest> requests = received("busy");
        QCOMPARE(requests.size(), std::size_t(3));
        QCOMPARE(requests[0].body, std::string("2"));
        QCOMPARE(requests[2].body, std::string("4"));
        QCOMPARE(m_endpoints->find("busy")->requestCount, std::uint64_t(5));
        QVERIFY(m_endpoints->clearReceived("busy").ok());
        QVERIFY(received("busy").empty());
        QCOMPARE(send(QStringLiteral("/_mock/busy")).status, 200); // the script goes on
    }

    // A body over 64 KiB is recorded as its first 64 KiB and its size.
    void records_keepABodysPrefixAndItsSize()
    {
        QVERIFY(m_endpoints->set("big", "200").ok());
        const QByteArray body(MockEndpoints::kRecordedBodyBytes + 1000, 'x');
        QCOMPARE(send(QStringLiteral("/_mock/big"), "POST", body).status, 200);
        const std::vector<MockRequest> requests = received("big");
        QCOMPARE(requests.size(), std::size_t(1));
        QCOMPARE(requests[0].body.size(), MockEndpoints::kRecordedBodyBytes);
        QCOMPARE(requests[0].bodySize, std::uint64_t(body.size()));
    }

    // All endpoints together keep at most their byte bound: the oldest
    // recorded request of any endpoint goes first; counts stay.
    void records_acrossEndpointsStayWithinTheByteBound()
    {
        MockEndpoints bounded(*m_clock, 1000, 3 * 1024);
        MockHostServer server(bounded);
        m_port = server.listen(QHostAddress::LocalHost, 0);
        QVERIFY(m_port != 0);
        QVERIFY(bounded.set("a", "200").ok());
        QVERIFY(bounded.set("b", "200").ok());
        const QByteArray kilobyte(1000, 'k');
        QCOMPARE(send(QStringLiteral("/_mock/a"), "POST", kilobyte + "a1").status, 200);
        QCOMPARE(send(QStringLiteral("/_mock/b"), "POST", kilobyte + "b1").status, 200);
        QCOMPARE(send(QStringLiteral("/_mock/a"), "POST", kilobyte + "a2").status, 200);
        QCOMPARE(send(QStringLiteral("/_mock/b"), "POST", kilobyte + "b2").status, 200);
        const auto bodies = [&](const char *name) {
            QStringList out;
            const Result<std::vector<MockRequest>> requests = bounded.received(name);
            for (const MockRequest &request : *requests)
                out << QString::fromStdString(request.body.substr(1000));
            return out;
        };
        QCOMPARE(bodies("a"), QStringList{QStringLiteral("a2")});
        QCOMPARE(bodies("b"), QStringList{QStringLiteral("b2")});
        QCOMPARE(bounded.find("a")->requestCount, std::uint64_t(2));
        QVERIFY(bounded.remove("b")); // its bytes are free again
        QCOMPARE(send(QStringLiteral("/_mock/a"), "POST", kilobyte + "a3").status, 200);
        QCOMPARE(bodies("a"), (QStringList{QStringLiteral("a2"), QStringLiteral("a3")}));
    }

    // A long unknown name is not echoed whole.
    void unknownEndpoint_longName_notEchoed()
    {
        const Answer answer = send(QStringLiteral("/_mock/") + QString(60000, QLatin1Char('n')));
        QCOMPARE(answer.status, 404);
        QVERIFY2(answer.body.size() < 200, answer.body.left(200).constData());
    }

    void records_areNumberedAndEveryChangeMovesTheRevision()
    {
        std::uint64_t revision = m_endpoints->revision();
        const auto moved = [&] {
            const std::uint64_t now = m_endpoints->revision();
            const bool changed = now > revision;
            revision = now;
            return changed;
        };
        QVERIFY(m_endpoints->set("counted", "200").ok());
        QVERIFY(moved());
        for (int i = 0; i < 5; ++i) {
            QCOMPARE(send(QStringLiteral("/_mock/counted")).status, 200);
            QVERIFY(moved());
        }
        const std::vector<MockRequest> requests = received("counted"); // the last 3 of 5
        QCOMPARE(requests.size(), std::size_t(3));
        QCOMPARE(requests[0].number, std::uint64_t(3));
        QCOMPARE(requests[2].number, std::uint64_t(5));
        QVERIFY(!m_endpoints->set("counted", "oops").ok());
        QVERIFY(!moved());
        QVERIFY(m_endpoints->clearReceived("counted").ok());
        QVERIFY(moved());
        QVERIFY(m_endpoints->set("counted", "500").ok()); // a new script numbers afresh
        QCOMPARE(send(QStringLiteral("/_mock/counted")).status, 500);
        QCOMPARE(received("counted").front().number, std::uint64_t(1));
        QVERIFY(m_endpoints->remove("counted"));
        QVERIFY(moved());
    }

    void close_clientSeesConnectionClosed()
    {
        QVERIFY(m_endpoints->set("dropper", "close").ok());
        const Answer answer = send(QStringLiteral("/_mock/dropper"), "POST", "{}");
        QCOMPARE(answer.error, QNetworkReply::RemoteHostClosedError);
        QCOMPARE(answer.status, 0);
        const std::vector<MockRequest> requests = received("dropper");
        QVERIFY(!requests.empty()); // Qt resends it before reporting the error (2 recorded on Qt 6.4)
        for (const MockRequest &request : requests)
            QCOMPARE(request.answer.action, MockAction::Close);
    }

    // Qt's client resends a request whose connection closed before any
    // answer (so with "close, 200" it would show 200); a plain socket shows
    // exactly what the endpoint does.
    void close_thenStatus_dropsOnceThenAnswers()
    {
        QVERIFY(m_endpoints->set("once", "close, 200").ok());
        QTcpSocket raw;
        raw.connectToHost(QHostAddress::LocalHost, m_port);
        QVERIFY(raw.waitForConnected(20'000));
        raw.write("POST /_mock/once HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\n\r\n{}");
        QSignalSpy disconnected(&raw, &QTcpSocket::disconnected);
        QVERIFY(disconnected.wait(20'000));
        QCOMPARE(raw.readAll(), QByteArray()); // not a byte of answer
        QCOMPARE(send(QStringLiteral("/_mock/once"), "POST", "{}").status, 200);
        const std::vector<MockRequest> requests = received("once");
        QCOMPARE(requests.size(), std::size_t(2));
        QCOMPARE(requests[0].answer.action, MockAction::Close);
        QCOMPARE(requests[0].body, std::string("{}"));
        QCOMPARE(requests[1].answer.status, 200);
    }

    void hang_clientTransferTimeoutFires()
    {
        QVERIFY(m_endpoints->set("sleepy", "hang 20 s, 200").ok());
        const Answer hung = send(QStringLiteral("/_mock/sleepy"), "POST", "{}", {}, 300);
        QCOMPARE(hung.status, 0);
        QCOMPARE(hung.error, QNetworkReply::OperationCanceledError); // how Qt reports its transfer timeout
        const std::vector<MockRequest> requests = received("sleepy");
        QCOMPARE(requests.size(), std::size_t(1));
        QCOMPARE(requests[0].answer.action, MockAction::Hang);
        QCOMPARE(send(QStringLiteral("/_mock/sleepy")).status, 200);
    }

    void unknownEndpoint_answers404()
    {
        const Answer answer = send(QStringLiteral("/_mock/nobody"));
        QCOMPARE(answer.status, 404);
        QCOMPARE(m_server->notMockCount(), 0);
    }

    void otherPath_isLeftToTheServer_data()
    {
        QTest::addColumn<QString>("path");
        QTest::newRow("root") << "/";
        QTest::newRow("api") << "/api/topics";
        QTest::newRow("prefix without slash") << "/_mockery/x";
    }
    void otherPath_isLeftToTheServer()
    {
        QFETCH(QString, path);
        QVERIFY(m_endpoints->set("x", "500").ok());
        QCOMPARE(send(path).status, 202);
        QCOMPARE(m_server->notMockCount(), 1);
        QCOMPARE(m_endpoints->find("x")->requestCount, std::uint64_t(0));
    }

    void replace_startsAfresh()
    {
        QVERIFY(m_endpoints->set("flaky", "503, 200").ok());
        QCOMPARE(send(QStringLiteral("/_mock/flaky")).status, 503);
        QCOMPARE(send(QStringLiteral("/_mock/flaky")).status, 200);
        QVERIFY(m_endpoints->set("flaky", "503, 200").ok());
        QVERIFY(received("flaky").empty());
        QCOMPARE(send(QStringLiteral("/_mock/flaky")).status, 503);
    }

    void remove_thenAnswers404()
    {
        QVERIFY(m_endpoints->set("gone", "200").ok());
        QVERIFY(m_endpoints->remove("gone"));
        QVERIFY(!m_endpoints->remove("gone"));
        QCOMPARE(send(QStringLiteral("/_mock/gone")).status, 404);
        QCOMPARE(m_endpoints->received("gone").error().code, BrokerErrorCode::ResourceNotFound);
        QCOMPARE(m_endpoints->clearReceived("gone").error().code, BrokerErrorCode::ResourceNotFound);
    }

    void list_isByName()
    {
        QVERIFY(m_endpoints->set("b", "429 always").ok());
        QVERIFY(m_endpoints->set("a", "200").ok());
        const std::vector<MockEndpointSummary> expected{{"a", "200", 0}, {"b", "429 always", 0}};
        QCOMPARE(m_endpoints->list(), expected);
        QCOMPARE(MockEndpoints::pathOf("a"), std::string("/_mock/a"));
    }

    void set_refusesBadNameOrScript_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("script");
        QTest::newRow("empty name") << "" << "200";
        QTest::newRow("slash in name") << "a/b" << "200";
        QTest::newRow("blank in name") << "a b" << "200";
        QTest::newRow("name too long") << QString(81, QLatin1Char('n')) << "200";
        QTest::newRow("bad script") << "ok" << "200 x";
    }
    void set_refusesBadNameOrScript()
    {
        QFETCH(QString, name);
        QFETCH(QString, script);
        QVERIFY(m_endpoints->set("ok", "500").ok());
        const Status set = m_endpoints->set(name.toStdString(), script.toStdString());
        QVERIFY(!set.ok());
        QCOMPARE(set.error().code, BrokerErrorCode::InvalidParameterValue);
        QCOMPARE(m_endpoints->find("ok")->script, std::string("500")); // unchanged
        QCOMPARE(m_endpoints->list().size(), std::size_t(1));
    }
};

RELAYDESK_TEST_MAIN(MockEndpointsTest)
#include "mock_endpoints_test.moc"
