// SPDX-License-Identifier: MIT
// Http1Server / Http1ServerConnection on 127.0.0.1 with raw client sockets
//: answers in request order, keep-alive and
// close semantics, half-close, bounded bodies, framing refusals, the
// connection cap and the idle and header timeouts (made small here; the
// tests wait for what happens, they never measure how long it took).
#include "http/http1_server.h"
#include "support/test_main.h"

#include <QSignalSpy>
#include <QTcpSocket>
#include <QTest>

#include <memory>
#include <sys/socket.h>

using namespace relaydesk;

namespace {

// A client socket that collects what it receives and whether the server closed.
class Client final {
public:
    explicit Client(quint16 port)
    {
        QObject::connect(&m_socket, &QTcpSocket::readyRead, [this] { m_received += m_socket.readAll(); });
        QObject::connect(&m_socket, &QTcpSocket::disconnected, [this] { m_closed = true; });
        m_socket.connectToHost(QHostAddress::LocalHost, port);
    }
    bool connected() { return m_socket.state() == QAbstractSocket::ConnectedState || m_socket.waitForConnected(10000); }
    void send(const QByteArray &bytes) { m_socket.write(bytes); m_socket.flush(); }
    void shutdownWrite() { m_socket.flush(); ::shutdown(int(m_socket.socketDescriptor()), SHUT_WR); }
    const QByteArray &received() const { return m_received; }
    bool closed() const { return m_closed; }
    int answers() const { return int(m_received.count("HTTP/1.1 ")); }
    QTcpSocket &socket() { return m_socket; }

private:
    QTcpSocket m_socket;
    QByteArray m_received;
    bool m_closed = false;
};

} // namespace

class Http1ServerTest final : public QObject {
    Q_OBJECT

private:
    // Answers "METHOD TARGET BODY"; requests to /hold/… are held until release().
    std::unique_ptr<Http1Server> start(Http1Server::Options options = small())
    {
        m_held.clear();
        m_dispatched = 0;
        auto server = std::make_unique<Http1Server>(options, [this](const HttpRequest &request, ReplyChannel channel) {
            ++m_dispatched;
            if (request.target().startsWith("/hold/")) {
                m_held.emplace_back(request.target(), channel);
                return;
            }
            channel.send(HttpReply{200, "text/plain", {}, request.method() + ' ' + request.target() + ' ' + request.body()});
        });
        auto *listener = new HttpListener;
        if (!listener->listen(QHostAddress::LocalHost, 0))
            return nullptr;
        m_port = listener->serverPort();
        server->bind(listener);
        return server;
    }
    static Http1Server::Options small()
    {
        Http1Server::Options options;
        options.connection.limits = {1024, 64};
        options.connection.idleTimeout = std::chrono::hours(1);
        options.connection.headerTimeout = std::chrono::hours(1);
        options.connection.lingerTimeout = std::chrono::milliseconds(200);
        return options;
    }
    void releaseInReverse()
    {
        for (auto held = m_held.rbegin(); held != m_held.rend(); ++held)
            held->second.send(HttpReply{200, "text/plain", {}, "answer " + held->first});
        m_held.clear();
    }

    quint16 m_port = 0;
    int m_dispatched = 0;
    std::vector<std::pair<QByteArray, ReplyChannel>> m_held;

private slots:
    // Item 6: answers come in request order whatever order they are ready in.
    void pipelinedAnswersInRequestOrder()
    {
        auto server = start();
        QVERIFY(server);
        Client client(m_port);
        QVERIFY(client.connected());
        client.send("GET /hold/1 HTTP/1.1\r\n\r\nGET /hold/2 HTTP/1.1\r\n\r\nGET /hold/3 HTTP/1.1\r\n\r\nGET /now HTTP/1.1\r\n\r\n");
        QTRY_COMPARE(m_held.size(), std::size_t(3));
        QTRY_COMPARE(m_dispatched, 4); // /now is answered at once but waits for the three before it
        releaseInReverse();
        QTRY_COMPARE(client.answers(), 4);
        const QByteArray &got = client.received();
        QVERIFY(got.indexOf("answer /hold/1") < got.indexOf("answer /hold/2"));
        QVERIFY(got.indexOf("answer /hold/2") < got.indexOf("answer /hold/3"));
        QVERIFY(got.indexOf("answer /hold/3") < got.indexOf("GET /now"));
        QVERIFY(!client.closed());
    }

    // Item 15: Connection: close and HTTP/1.0 end the connection after the answer.
    void closeAfterAnswer_data()
    {
        QTest::addColumn<QByteArray>("request");
        QTest::newRow("Connection: close") << QByteArray("GET /a HTTP/1.1\r\nConnection: close\r\n\r\nGET /b HTTP/1.1\r\n\r\n");
        QTest::newRow("HTTP/1.0") << QByteArray("GET /a HTTP/1.0\r\n\r\nGET /b HTTP/1.0\r\n\r\n");
    }
    void closeAfterAnswer()
    {
        QFETCH(QByteArray, request);
        auto server = start();
        QVERIFY(server);
        Client client(m_port);
        QVERIFY(client.connected());
        client.send(request);
        QTRY_VERIFY(client.closed());
        QCOMPARE(client.answers(), 1);
        QVERIFY(client.received().contains("GET /a"));
        QVERIFY(client.received().contains("Connection: close\r\n"));
        QVERIFY(!client.received().contains("GET /b"));
    }

    void keepAliveByDefault()
    {
        auto server = start();
        QVERIFY(server);
        Client client(m_port);
        QVERIFY(client.connected());
        client.send("GET /a HTTP/1.1\r\n\r\n");
        QTRY_COMPARE(client.answers(), 1);
        client.send("GET /b HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
        QTRY_COMPARE(client.answers(), 2);
        QVERIFY(client.received().contains("Connection: keep-alive\r\n"));
        QVERIFY(!client.closed());
    }

    // Item 15: a client that half-closes after sending still gets its answers.
    void halfClosedClientAnswered()
    {
        auto server = start();
        QVERIFY(server);
        Client client(m_port);
        QVERIFY(client.connected());
        client.send("POST /hold/1 HTTP/1.1\r\nContent-Length: 2\r\n\r\nhiGET /x HTTP/1.1\r\n\r\n");
        client.shutdownWrite();
        QTRY_COMPARE(m_held.size(), std::size_t(1));
        QTRY_COMPARE(m_dispatched, 2);
        releaseInReverse();
        QTRY_VERIFY(client.closed());
        QCOMPARE(client.answers(), 2);
        QVERIFY(client.received().contains("answer /hold/1"));
    }

    // Item 14: framing refused with 400 (or 431/501/505) and the connection closed.
    void framingRefused_data()
    {
        QTest::addColumn<QByteArray>("request");
        QTest::addColumn<QByteArray>("status"); // and its reason phrase, in words
        QTest::newRow("length 2^64") << QByteArray("POST / HTTP/1.1\r\nContent-Length: 18446744073709551616\r\n\r\nx") << QByteArray("400 Bad Request");
        QTest::newRow("length -1") << QByteArray("POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\nx") << QByteArray("400 Bad Request");
        QTest::newRow("length abc") << QByteArray("POST / HTTP/1.1\r\nContent-Length: abc\r\n\r\nx") << QByteArray("400 Bad Request");
        QTest::newRow("two lengths") << QByteArray("POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nxy")
                                     << QByteArray("400 Bad Request");
        QTest::newRow("no colon") << QByteArray("GET / HTTP/1.1\r\nBroken header\r\n\r\n") << QByteArray("400 Bad Request");
        QTest::newRow("garbage") << QByteArray("\x01\x02 not http at all\r\n\r\n") << QByteArray("400 Bad Request");
        QTest::newRow("head too large") << QByteArray("GET / HTTP/1.1\r\nX-Big: " + QByteArray(66 * 1024, 'a') + "\r\n\r\n")
                                        << QByteArray("431 Request Header Fields Too Large");
        QTest::newRow("HTTP/2.0") << QByteArray("GET / HTTP/2.0\r\n\r\n") << QByteArray("505 HTTP Version Not Supported");
    }
    void framingRefused()
    {
        QFETCH(QByteArray, request);
        QFETCH(QByteArray, status);
        auto server = start();
        QVERIFY(server);
        Client client(m_port);
        QVERIFY(client.connected());
        client.send(request);
        QTRY_VERIFY(client.closed());
        QVERIFY2(client.received().startsWith("HTTP/1.1 " + status + "\r\n"), client.received().left(200).constData());
        QVERIFY(client.received().contains("Connection: close\r\n"));
        QCOMPARE(m_dispatched, 0);
    }

    // Item 2: a declared length over the limit is answered before the body comes.
    void declaredLengthOverLimitAnsweredAtOnce()
    {
        auto server = start();
        QVERIFY(server);
        Client client(m_port);
        QVERIFY(client.connected());
        client.send("POST /big HTTP/1.1\r\nContent-Length: 4000000000\r\n\r\n0123");
        QTRY_VERIFY(client.closed());
        QCOMPARE(m_dispatched, 1);
        QVERIFY(client.received().contains("Connection: close\r\n"));
    }

    // Item 2: a chunked body over the limit ends reading; the rest is dropped and the connection closes.
    void chunkedOverLimitStopsReading()
    {
        auto server = start();
        QVERIFY(server);
        Client client(m_port);
        QVERIFY(client.connected());
        client.send("POST /big HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n");
        for (int i = 0; i < 100; ++i)
            client.send("20\r\n" + QByteArray(32, 'x') + "\r\n");
        QTRY_VERIFY(client.closed());
        QCOMPARE(m_dispatched, 1);
        QCOMPARE(client.answers(), 1);
    }

    // Item 3: connections over the cap are refused with a 503 at once.
    void connectionsOverCapRefused()
    {
        Http1Server::Options options = small();
        options.maxConnections = 2;
        auto server = start(options);
        QVERIFY(server);
        Client first(m_port), second(m_port);
        QVERIFY(first.connected() && second.connected());
        QTRY_COMPARE(server->connectionCount(), std::size_t(2));
        Client third(m_port);
        QTRY_VERIFY(third.closed());
        QVERIFY2(third.received().startsWith("HTTP/1.1 503 "), third.received().constData());
        first.send("GET /still HTTP/1.1\r\n\r\n");
        QTRY_COMPARE(first.answers(), 1);
        first.socket().abort();
        QTRY_COMPARE(server->connectionCount(), std::size_t(1));
        Client fourth(m_port);
        QVERIFY(fourth.connected());
        fourth.send("GET /again HTTP/1.1\r\n\r\n");
        QTRY_COMPARE(fourth.answers(), 1);
    }

    // Item 3: an idle keep-alive connection is closed after the idle timeout;
    // one that sends no complete head within the header timeout gets a 408.
    void idleConnectionClosed()
    {
        Http1Server::Options options = small();
        options.connection.idleTimeout = std::chrono::milliseconds(50);
        auto server = start(options);
        QVERIFY(server);
        Client client(m_port);
        QVERIFY(client.connected());
        client.send("GET /a HTTP/1.1\r\n\r\n");
        QTRY_VERIFY(client.closed());
        QCOMPARE(client.answers(), 1);
        QTRY_COMPARE(server->connectionCount(), std::size_t(0));
    }
    void slowHeadClosed()
    {
        Http1Server::Options options = small();
        options.connection.headerTimeout = std::chrono::milliseconds(50);
        auto server = start(options);
        QVERIFY(server);
        Client client(m_port);
        QVERIFY(client.connected());
        client.send("GET /a HTTP/1.1\r\nX-Slow: ");
        QTRY_VERIFY(client.closed());
        QVERIFY2(client.received().startsWith("HTTP/1.1 408 "), client.received().constData());
        QCOMPARE(m_dispatched, 0);
    }
    // A request whose answer is owed (a long poll) is not timed out.
    void owedAnswerNotTimedOut()
    {
        Http1Server::Options options = small();
        options.connection.idleTimeout = std::chrono::milliseconds(20);
        options.connection.headerTimeout = std::chrono::milliseconds(20);
        auto server = start(options);
        QVERIFY(server);
        Client client(m_port);
        QVERIFY(client.connected());
        client.send("GET /hold/poll HTTP/1.1\r\n\r\n");
        QTRY_COMPARE(m_held.size(), std::size_t(1));
        Client idle(m_port); // connected later, closed by its idle timeout: the poll's time has passed too
        QVERIFY(idle.connected());
        QTRY_VERIFY(idle.closed());
        QVERIFY(!client.closed());
        releaseInReverse();
        QTRY_COMPARE(client.answers(), 1);
    }

    // Item 5's transport side: a reset connection is gone (its channel and context).
    void resetConnectionDropsContext()
    {
        auto server = start();
        QVERIFY(server);
        Client client(m_port);
        QVERIFY(client.connected());
        client.send("GET /hold/poll HTTP/1.1\r\n\r\n");
        QTRY_COMPARE(m_held.size(), std::size_t(1));
        QPointer<QObject> context = m_held.front().second.context();
        QVERIFY(context);
        const linger reset{1, 0};
        ::setsockopt(int(client.socket().socketDescriptor()), SOL_SOCKET, SO_LINGER, &reset, sizeof reset);
        client.socket().abort();
        QTRY_VERIFY(context.isNull());
        QVERIFY(!m_held.front().second.connected());
    }
};

RELAYDESK_TEST_MAIN(Http1ServerTest)
#include "http1_server_test.moc"
