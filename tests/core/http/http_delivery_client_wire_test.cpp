// SPDX-License-Identifier: MIT
// HttpDeliveryClient against a raw loopback TCP server that answers every
// request with fixed bytes: what the request looks like on the wire, chunked
// and interim responses, bodies delimited by close, Connection: close, idle
// connections closed by the peer, and malformed answers as connection errors.
#include "http/http_delivery_client.h"

#include "support/delivery_client_support.h"

#include "broker/wall_time_source.h"
#include "support/test_main.h"

#include <QEventLoop>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>

#include <memory>
#include <optional>

using namespace relaydesk;

namespace {

// Answers each complete request (head + Content-Length body) with `reply`,
// then closes when `closeAfterReply`. Same thread as the client.
class RawEndpoint final {
public:
    RawEndpoint()
    {
        QObject::connect(&m_server, &QTcpServer::newConnection, &m_server, [this] { accept(); });
        m_server.listen(QHostAddress::LocalHost, 0);
    }
    std::string url(const std::string &path = "/hook") const
    {
        return "http://127.0.0.1:" + std::to_string(m_server.serverPort()) + path;
    }
    quint16 port() const { return m_server.serverPort(); }

    QByteArray reply;
    bool closeAfterReply = false;
    int connections = 0;
    int closed = 0; // connections that ended (either side)
    std::vector<QByteArray> requests;

private:
    void accept()
    {
        while (QTcpSocket *socket = m_server.nextPendingConnection()) {
            ++connections;
            auto buffer = std::make_shared<QByteArray>();
            QObject::connect(socket, &QTcpSocket::readyRead, socket, [this, socket, buffer] {
                buffer->append(socket->readAll());
                const qsizetype end = buffer->indexOf("\r\n\r\n");
                if (end < 0)
                    return;
                const QByteArray head = buffer->left(end).toLower();
                const qsizetype at = head.indexOf("content-length:");
                const qsizetype length = at < 0 ? 0 : head.mid(at + 15, head.indexOf('\r', at) - at - 15).trimmed().toLongLong();
                if (buffer->size() < end + 4 + length)
                    return;
                requests.push_back(buffer->left(end + 4 + length));
                buffer->remove(0, end + 4 + length);
                socket->write(reply);
                if (closeAfterReply)
                    socket->disconnectFromHost();
            });
            QObject::connect(socket, &QTcpSocket::disconnected, socket, [this, socket] {
                ++closed;
                socket->deleteLater();
            });
        }
    }

    QTcpServer m_server;
};

HttpDeliveryResult postAndWait(HttpDeliveryClient &client, const std::string &url)
{
    return testing::postAndWait(client, HttpDeliveryRequest{url, {{"Content-Type", "application/json"}, {"Host", "ignored"}}, "{\"a\":1}", {}});
}

} // namespace

class HttpDeliveryClientWireTest final : public QObject {
    Q_OBJECT

private slots:
    void request_onTheWire()
    {
        RawEndpoint endpoint;
        endpoint.reply = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n";
        HttpDeliveryClient client(m_wall, {});
        QCOMPARE(postAndWait(client, endpoint.url("/a%20b/hook?x=1&y=%2F")).httpStatus.value_or(0), 200);
        QCOMPARE(endpoint.requests.size(), std::size_t(1));
        const QByteArray expected = "POST /a%20b/hook?x=1&y=%2F HTTP/1.1\r\nHost: 127.0.0.1:" + QByteArray::number(endpoint.port())
                                    + "\r\nContent-Type: application/json\r\nContent-Length: 7\r\n"
                                      "Connection: keep-alive\r\n\r\n{\"a\":1}";
        QCOMPARE(endpoint.requests[0], expected);
    }

    void lineBreaksInHeaders_becomeSpaces_userInfoBecomesBasicAuth()
    {
        RawEndpoint endpoint;
        endpoint.reply = "HTTP/1.1 204 No Content\r\n\r\n";
        HttpDeliveryClient client(m_wall, {});
        QEventLoop loop;
        const std::string url = "http://user:p%40ss@127.0.0.1:" + std::to_string(endpoint.port()) + "/";
        client.post(HttpDeliveryRequest{url, {{"X-Evil", "a\r\nInjected: 1"}}, {}, {}}, [&](HttpDeliveryResult) { loop.quit(); });
        loop.exec();
        QCOMPARE(endpoint.requests.size(), std::size_t(1));
        const QByteArray request = endpoint.requests[0];
        QVERIFY2(request.contains("\r\nX-Evil: a  Injected: 1\r\n"), request.constData());
        QVERIFY2(request.contains("\r\nAuthorization: Basic " + QByteArray("user:p@ss").toBase64() + "\r\n"), request.constData());
        QVERIFY(request.contains("\r\nContent-Length: 0\r\n"));
    }

    void response_data()
    {
        QTest::addColumn<QByteArray>("reply");
        QTest::addColumn<bool>("closeAfterReply");
        QTest::addColumn<int>("status"); // 0: a connection error is expected
        QTest::addColumn<QString>("error");

        QTest::newRow("chunked with trailers")
            << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4;x=y\r\nabcd\r\n0\r\nX-T: 1\r\n\r\n") << false
            << 200 << QString();
        QTest::newRow("100 Continue first") << QByteArray("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n")
                                            << false << 201 << QString();
        QTest::newRow("body until close") << QByteArray("HTTP/1.1 202 Accepted\r\n\r\nsome body") << true << 202 << QString();
        QTest::newRow("redirect returned as is") << QByteArray("HTTP/1.1 301 Moved\r\nLocation: http://127.0.0.1:1/\r\nContent-Length: 0\r\n\r\n")
                                                 << false << 301 << QString();
        QTest::newRow("malformed status line") << QByteArray("HTTP/1.1 OK\r\n\r\n") << false << 0 << "malformed status line";
        QTest::newRow("bad content-length") << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: x\r\n\r\n") << false << 0
                                            << "invalid Content-Length";
        QTest::newRow("bad chunk size") << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nnope\r\n") << false
                                        << 0 << "invalid chunk size";
        QTest::newRow("oversized header section") << "HTTP/1.1 200 OK\r\nX-Big: " + QByteArray(80 * 1024, 'b') + "\r\n\r\n"
                                                  << false << 0 << "header section larger than 65536 bytes";
        QTest::newRow("cut short") << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nshort") << true << 0
                                   << "before the response was complete";
    }
    void response()
    {
        QFETCH(QByteArray, reply);
        QFETCH(bool, closeAfterReply);
        QFETCH(int, status);
        QFETCH(QString, error);
        RawEndpoint endpoint;
        endpoint.reply = reply;
        endpoint.closeAfterReply = closeAfterReply;
        HttpDeliveryClient client(m_wall, {});
        const HttpDeliveryResult result = postAndWait(client, endpoint.url());
        QCOMPARE(endpoint.requests.size(), std::size_t(1));
        if (status != 0) {
            QCOMPARE(result.httpStatus.value_or(0), status);
            QVERIFY(result.failure == HttpDeliveryResult::Failure::None);
            return;
        }
        QVERIFY(!result.httpStatus);
        QVERIFY(result.failure == HttpDeliveryResult::Failure::ConnectionError);
        QVERIFY2(QString::fromStdString(result.errorText).contains(error), result.errorText.c_str());
    }

    void connectionClose_nextPostOnANewConnection()
    {
        RawEndpoint endpoint; // keeps its side open: the client must not reuse it anyway
        endpoint.reply = "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok";
        HttpDeliveryClient client(m_wall, {});
        QCOMPARE(postAndWait(client, endpoint.url()).httpStatus.value_or(0), 200);
        QCOMPARE(postAndWait(client, endpoint.url()).httpStatus.value_or(0), 200);
        QCOMPARE(endpoint.requests.size(), std::size_t(2));
        QCOMPARE(endpoint.connections, 2);
    }

    void idleConnectionClosedByPeer_notReused()
    {
        RawEndpoint endpoint; // keep-alive answers, then closes anyway
        endpoint.reply = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";
        endpoint.closeAfterReply = true;
        HttpDeliveryClient client(m_wall, {});
        QCOMPARE(postAndWait(client, endpoint.url()).httpStatus.value_or(0), 200);
        QTRY_COMPARE(endpoint.closed, 1); // the close is on its way to the client
        const HttpDeliveryResult second = postAndWait(client, endpoint.url());
        QVERIFY2(second.httpStatus.value_or(0) == 200, second.errorText.c_str());
        QCOMPARE(endpoint.requests.size(), std::size_t(2));
        QCOMPARE(endpoint.connections, 2);
    }

private:
    SystemWallTimeSource m_wall;
};

RELAYDESK_TEST_MAIN(HttpDeliveryClientWireTest)
#include "http_delivery_client_wire_test.moc"
