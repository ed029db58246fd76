// SPDX-License-Identifier: MIT
// HttpDeliveryClient over TLS against a loopback TLS server with a
// self-signed certificate for "localhost" made at test time (openssl CLI):
// trusted through extraCaFile it answers (and the connection is kept alive);
// without it, or under another host name, the result is a ConnectionError
// with the TLS error text.
#include "http/http_delivery_client.h"

#include "support/delivery_client_support.h"

#include "broker/wall_time_source.h"
#include "support/test_main.h"

#include <QEventLoop>
#include <QProcess>
#include <QSslCertificate>
#include <QSslKey>
#include <QSslSocket>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

#include <memory>
#include <optional>

using namespace relaydesk;

namespace {

// Answers every request "200 ok" over TLS; counts connections.
class TlsEndpoint final : public QTcpServer {
public:
    TlsEndpoint(QSslCertificate certificate, QSslKey key) : m_certificate(std::move(certificate)), m_key(std::move(key))
    {
        listen(QHostAddress::LocalHost, 0);
    }
    int connections = 0;
    int requests = 0;

protected:
    void incomingConnection(qintptr descriptor) override
    {
        auto *socket = new QSslSocket(this);
        if (!socket->setSocketDescriptor(descriptor)) {
            delete socket;
            return;
        }
        ++connections;
        socket->setLocalCertificate(m_certificate);
        socket->setPrivateKey(m_key);
        auto buffer = std::make_shared<QByteArray>();
        connect(socket, &QSslSocket::readyRead, socket, [this, socket, buffer] {
            buffer->append(socket->readAll());
            const qsizetype end = buffer->indexOf("\r\n\r\n");
            const QByteArray head = buffer->left(end).toLower();
            const qsizetype at = head.indexOf("content-length:");
            if (end < 0 || at < 0)
                return;
            const qsizetype length = head.mid(at + 15, head.indexOf('\r', at) - at - 15).trimmed().toLongLong();
            if (buffer->size() < end + 4 + length)
                return;
            buffer->remove(0, end + 4 + length);
            ++requests;
            socket->write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
        });
        connect(socket, &QSslSocket::disconnected, socket, &QObject::deleteLater);
        socket->startServerEncryption();
    }

private:
    QSslCertificate m_certificate;
    QSslKey m_key;
};

HttpDeliveryResult postAndWait(HttpDeliveryClient &client, const std::string &url)
{
    return testing::postAndWait(client, HttpDeliveryRequest{url, {{"Content-Type", "text/plain"}}, "hello", {}});
}

} // namespace

class HttpDeliveryClientTlsTest final : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        // installer/dev.sh installs what this needs (libssl3 for Qt's TLS backend, the openssl command):
        // missing, the test fails rather than passing by skipping.
        QVERIFY2(QSslSocket::supportsSsl(),
                 qPrintable("no TLS backend in this Qt: " + QSslSocket::sslLibraryBuildVersionString()));
        QVERIFY(m_dir.isValid());
        m_certificatePath = m_dir.filePath(QStringLiteral("localhost.pem"));
        m_keyPath = m_dir.filePath(QStringLiteral("localhost.key"));
        QProcess openssl;
        openssl.start(QStringLiteral("openssl"),
                      {"req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost", "-addext",
                       "subjectAltName=DNS:localhost", "-days", "1", "-keyout", m_keyPath, "-out", m_certificatePath});
        QVERIFY2(openssl.waitForStarted(), "the openssl command is not available to make a test certificate");
        QVERIFY(openssl.waitForFinished(120'000));
        QVERIFY2(openssl.exitCode() == 0, openssl.readAllStandardError().constData());
        const QList<QSslCertificate> certificates = QSslCertificate::fromPath(m_certificatePath);
        QCOMPARE(certificates.size(), 1);
        QFile keyFile(m_keyPath);
        QVERIFY(keyFile.open(QIODevice::ReadOnly));
        const QSslKey key(&keyFile, QSsl::Rsa);
        QVERIFY(!key.isNull());
        m_endpoint = std::make_unique<TlsEndpoint>(certificates.front(), key);
        QVERIFY(m_endpoint->isListening());
    }

    void trustedThroughExtraCaFile_answers_andKeepsTheConnection()
    {
        HttpDeliveryClientOptions options;
        options.extraCaFile = m_certificatePath.toStdString();
        HttpDeliveryClient client(m_wall, options);
        const int connectionsBefore = m_endpoint->connections;
        for (int i = 0; i < 3; ++i) {
            const HttpDeliveryResult result = postAndWait(client, url("localhost"));
            QVERIFY2(result.httpStatus.value_or(0) == 200, result.errorText.c_str());
        }
        QCOMPARE(m_endpoint->connections - connectionsBefore, 1);
    }

    void untrusted_connectionErrorWithTlsText()
    {
        HttpDeliveryClient client(m_wall, {});
        const int requestsBefore = m_endpoint->requests;
        const HttpDeliveryResult result = postAndWait(client, url("localhost"));
        QVERIFY(!result.httpStatus);
        QVERIFY(result.failure == HttpDeliveryResult::Failure::ConnectionError);
        QVERIFY2(QString::fromStdString(result.errorText).contains("TLS handshake failed"), result.errorText.c_str());
        QVERIFY2(QString::fromStdString(result.errorText).contains("self signed", Qt::CaseInsensitive)
                     || QString::fromStdString(result.errorText).contains("self-signed", Qt::CaseInsensitive),
                 result.errorText.c_str());
        QCOMPARE(m_endpoint->requests, requestsBefore); // nothing sent over an unverified connection
    }

    void otherHostName_connectionErrorWithTlsText()
    {
        HttpDeliveryClientOptions options;
        options.extraCaFile = m_certificatePath.toStdString();
        HttpDeliveryClient client(m_wall, options);
        const HttpDeliveryResult result = postAndWait(client, url("127.0.0.1"));
        QVERIFY(result.failure == HttpDeliveryResult::Failure::ConnectionError);
        QVERIFY2(QString::fromStdString(result.errorText).contains("host name", Qt::CaseInsensitive), result.errorText.c_str());
    }

private:
    std::string url(const std::string &host) const
    {
        return "https://" + host + ":" + std::to_string(m_endpoint->serverPort()) + "/hook";
    }

    SystemWallTimeSource m_wall;
    QTemporaryDir m_dir;
    QString m_certificatePath;
    QString m_keyPath;
    std::unique_ptr<TlsEndpoint> m_endpoint;
};

RELAYDESK_TEST_MAIN(HttpDeliveryClientTlsTest)
#include "http_delivery_client_tls_test.moc"
