// SPDX-License-Identifier: MIT
// Http1Server with TLS (docs/behaviour.md §8.7): one port serves TLS and
// plain HTTP, chosen by each connection's first byte, with the same request
// bounds, pipelining and timeouts; hostile TLS starts (a handshake never
// finished, garbage after 0x16) are closed without harm. The certificate
// comes from a local CA made in a temporary folder; TLS clients are
// QSslSocket trusting that CA. Timeouts are made small; nothing is timed.
#include "host/local_certificate_authority.h"
#include "http/http1_server.h"
#include "http/tls_server_context.h"
#include "support/result_problem.h"
#include "support/test_main.h"

#include <QDateTime>
#include <QSslSocket>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace relaydesk;
using relaydesk::test::problemOf;

namespace {

constexpr std::size_t kMaxBody = 64;

// A client that is plain or TLS (trusting `authority`), collecting what it receives.
class Client final {
public:
    Client(quint16 port, const QString &authority)
    {
        QObject::connect(&m_socket, &QSslSocket::readyRead, [this] { m_received += m_socket.readAll(); });
        QObject::connect(&m_socket, &QSslSocket::disconnected, [this] { m_closed = true; });
        if (authority.isEmpty()) {
            m_socket.connectToHost(QHostAddress::LocalHost, port);
            return;
        }
        QSslConfiguration configuration = QSslConfiguration::defaultConfiguration();
        configuration.setCaCertificates(QSslCertificate::fromPath(authority));
        m_socket.setSslConfiguration(configuration);
        m_socket.connectToHostEncrypted(QStringLiteral("localhost"), port);
    }
    bool ready() const
    {
        return m_socket.state() == QAbstractSocket::ConnectedState &&
               (m_socket.mode() == QSslSocket::UnencryptedMode || m_socket.isEncrypted());
    }
    void send(const QByteArray &bytes) { m_socket.write(bytes); }
    const QByteArray &received() const { return m_received; }
    bool closed() const { return m_closed; }

private:
    QSslSocket m_socket;
    QByteArray m_received;
    bool m_closed = false;
};

} // namespace

class Http1ServerTlsTest final : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<Http1Server> start(std::chrono::milliseconds idleTimeout)
    {
        Http1Server::Options options;
        options.connection.limits.maxBodyBytes = kMaxBody;
        options.connection.idleTimeout = idleTimeout;
        options.connection.headerTimeout = std::chrono::hours(1);
        options.connection.lingerTimeout = std::chrono::milliseconds(200);
        options.connection.tls = m_tls;
        auto server = std::make_unique<Http1Server>(options, [](const HttpRequest &request, ReplyChannel channel) {
            if (request.bodyTooLarge()) // as the broker answers it
                return channel.send(HttpReply{413, "text/plain", {}, "too large"});
            channel.send(HttpReply{200, "text/plain", {}, request.method() + ' ' + request.target() + ' ' + request.body()});
        });
        auto *listener = new HttpListener;
        if (!listener->listen(QHostAddress::LocalHost, 0))
            return nullptr;
        m_port = listener->serverPort();
        server->bind(listener);
        return server;
    }

    QTemporaryDir m_folder;
    QString m_authority;
    std::shared_ptr<const TlsServerContext> m_tls;
    quint16 m_port = 0;

private slots:
    void initTestCase()
    {
        QVERIFY(m_folder.isValid());
        const LocalCertificateAuthority authority(m_folder.path());
        auto issued = authority.serverCertificate({QStringLiteral("localhost")}, QDateTime::currentSecsSinceEpoch());
        QVERIFY2(std::holds_alternative<TlsFiles>(issued), qPrintable(problemOf(issued)));
        const TlsFiles files = std::get<TlsFiles>(issued);
        auto loaded = TlsServerContext::load(files.certificate, files.key);
        QVERIFY2(!std::holds_alternative<QString>(loaded), qPrintable(problemOf(loaded)));
        m_tls = std::get<std::shared_ptr<const TlsServerContext>>(loaded);
        m_authority = authority.certificatePath();
    }

    // The same requests get the same answers over either transport, on one port.
    void plainAndTls_samePort_sameAnswers_data()
    {
        QTest::addColumn<bool>("tls");
        QTest::addColumn<QByteArray>("requests");
        QTest::addColumn<QList<QByteArray>>("answers");
        QTest::addColumn<bool>("closes");
        const QByteArray pipelined = "GET /a HTTP/1.1\r\nHost: x\r\n\r\n"
                                     "POST /b HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nhi";
        const QByteArray tooLarge = "POST /c HTTP/1.1\r\nHost: x\r\nContent-Length: 65\r\n\r\n" + QByteArray(65, 'x');
        const QList<QByteArray> both{"200 OK", "GET /a ", "POST /b hi"};
        for (const bool tls : {false, true}) {
            const char *name = tls ? "TLS" : "plain";
            QTest::addRow("%s: two pipelined requests, answered in order", name) << tls << pipelined << both << false;
            QTest::addRow("%s: a body over the limit: 413 and closed", name) << tls << tooLarge
                                                                             << QList<QByteArray>{"413"} << true;
            QTest::addRow("%s: Connection: close: answered, then closed", name)
                << tls << QByteArray("GET /d HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                << QList<QByteArray>{"GET /d "} << true;
        }
    }
    void plainAndTls_samePort_sameAnswers()
    {
        QFETCH(bool, tls);
        QFETCH(QByteArray, requests);
        QFETCH(QList<QByteArray>, answers);
        QFETCH(bool, closes);
        const auto server = start(std::chrono::hours(1));
        QVERIFY(server);
        Client client(m_port, tls ? m_authority : QString());
        QTRY_VERIFY_WITH_TIMEOUT(client.ready(), 20000);
        client.send(requests);
        QTRY_VERIFY_WITH_TIMEOUT(client.received().contains(answers.last()), 20000);
        qsizetype at = 0;
        for (const QByteArray &answer : answers) { // in order
            at = client.received().indexOf(answer, at);
            QVERIFY2(at >= 0, client.received().constData());
        }
        if (closes)
            QTRY_VERIFY_WITH_TIMEOUT(client.closed(), 20000);
        else
            QVERIFY(!client.closed());
    }

    // What a hostile or broken TLS client sends first: the connection is closed
    // without an answer (by the idle timeout when it just stops), and the
    // server goes on serving TLS clients.
    void hostileTlsStart_closedWithoutHarm_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::newRow("a handshake never finished (a record header, then nothing)") << QByteArray("\x16\x03\x01\x02\x00", 5);
        QTest::newRow("0x16 alone, then nothing") << QByteArray("\x16", 1);
        QTest::newRow("garbage after 0x16") << QByteArray("\x16GET / HTTP/1.1\r\nHost: x\r\n\r\n");
        QTest::newRow("a record too large for TLS") << QByteArray("\x16\x03\x01\xff\xff", 5) + QByteArray(512, 'A');
    }
    void hostileTlsStart_closedWithoutHarm()
    {
        QFETCH(QByteArray, bytes);
        // The idle timeout ends the hostile connection; it must also leave the
        // next client time for its whole handshake on a loaded machine (50 ms
        // did not, under a parallel build): 2 s.
        const auto server = start(std::chrono::seconds(2));
        QVERIFY(server);
        Client hostile(m_port, QString());
        QTRY_VERIFY_WITH_TIMEOUT(hostile.ready(), 20000);
        hostile.send(bytes);
        QTRY_VERIFY_WITH_TIMEOUT(hostile.closed(), 20000);
        QVERIFY2(!hostile.received().contains("HTTP/1.1"), hostile.received().constData());
        QTRY_COMPARE_WITH_TIMEOUT(server->connectionCount(), std::size_t(0), 20000);

        Client next(m_port, m_authority);
        QTRY_VERIFY_WITH_TIMEOUT(next.ready(), 20000);
        next.send("GET /after HTTP/1.1\r\nHost: x\r\n\r\n");
        QTRY_VERIFY_WITH_TIMEOUT(next.received().contains("GET /after "), 20000);
    }
};

RELAYDESK_TEST_MAIN(Http1ServerTlsTest)
#include "http1_server_tls_test.moc"
