// SPDX-License-Identifier: MIT
#include "http/http1_connection.h"

#include "broker/topics/endpoint_address.h"
#include "http/http_reply.h"

#include <QSslConfiguration>
#include <QSslSocket>
#include <QTcpSocket>

#include <algorithm>
#include <array>
#include <optional>

#ifdef Q_OS_UNIX
#include <cerrno>
#include <sys/socket.h>
#endif

namespace relaydesk {

Http1Connection::Http1Connection(Http1Origin origin, const QSslConfiguration *tls, Http1ResponseParser::Limits limits,
                                 Finished finished, Closed closed, QObject *parent)
    : QObject(parent), m_origin(std::move(origin)), m_tls(tls), m_finished(std::move(finished)),
      m_closed(std::move(closed)), m_parser(limits)
{
}

Http1Connection::~Http1Connection()
{
    close();
}

bool Http1Connection::reusable() const
{
    if (m_state != State::Idle || m_socket->state() != QAbstractSocket::ConnectedState || m_socket->bytesAvailable() > 0)
        return false;
#ifdef Q_OS_UNIX
    // The peer's FIN (or stray bytes) may be in the kernel before the event
    // loop has told the socket: look without reading.
    char probe = 0;
    const auto peeked = ::recv(int(m_socket->socketDescriptor()), &probe, 1, MSG_PEEK | MSG_DONTWAIT);
    return peeked < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
#else
    return true;
#endif
}

void Http1Connection::send(QByteArray wire, std::uint64_t tag)
{
    Q_ASSERT(m_state == State::New || m_state == State::Idle);
    m_tag = tag;
    m_parser.reset();
    if (m_state == State::Idle) {
        m_state = State::Busy;
        m_socket->write(wire); // written by the event loop: no error can surface inside send()
        return;
    }
    m_wire = std::move(wire);
    m_state = State::Connecting;
    if (m_origin.tls) {
        auto *socket = new QSslSocket(this);
        m_socket = socket;
        if (m_tls)
            socket->setSslConfiguration(*m_tls);
        socket->setPeerVerifyMode(QSslSocket::VerifyPeer);
        connect(socket, &QSslSocket::encrypted, this, &Http1Connection::onConnected);
        connect(socket, &QSslSocket::sslErrors, this, [this](const QList<QSslError> &errors) {
            for (const QSslError &error : errors)
                m_tlsErrors += (m_tlsErrors.empty() ? "" : "; ") + error.errorString().toStdString();
        });
    } else {
        m_socket = new QTcpSocket(this);
    }
    // The address actually connected to is checked (docs/behaviour.md §4.1):
    // a name that resolves to a link-local or metadata address, DNS
    // rebinding included, gets no request (nor, for https, a handshake).
    connect(m_socket, &QTcpSocket::connected, this, [this] {
        Q_IPV6ADDR peer = m_socket->peerAddress().toIPv6Address();
        std::array<std::uint8_t, 16> bytes{};
        std::copy(std::begin(peer.c), std::end(peer.c), bytes.begin());
        if (const std::optional<std::string> reason = forbiddenAddressReason(bytes)) {
            finish({std::nullopt, "refused to deliver to " + m_socket->peerAddress().toString().toStdString() +
                                      ", " + *reason},
                   false);
            return;
        }
        if (!m_origin.tls)
            onConnected();
    });
    connect(m_socket, &QTcpSocket::readyRead, this, &Http1Connection::onReadyRead);
    connect(m_socket, &QTcpSocket::disconnected, this, [this] { onEnded("connection closed by the endpoint"); });
    connect(m_socket, &QTcpSocket::errorOccurred, this, [this] { onEnded(socketErrorText()); });
    if (m_origin.tls)
        static_cast<QSslSocket *>(m_socket)->connectToHostEncrypted(m_origin.host, m_origin.port); // verifies the host name
    else
        m_socket->connectToHost(m_origin.host, m_origin.port);
}

void Http1Connection::close()
{
    if (m_socket) {
        m_socket->disconnect(this);
        m_socket->abort();
    }
    m_state = State::Closed;
}

void Http1Connection::onConnected()
{
    if (m_state != State::Connecting)
        return;
    m_socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
    m_state = State::Busy;
    m_socket->write(m_wire);
    m_wire.clear();
}

void Http1Connection::onReadyRead()
{
    static thread_local std::array<char, 64 * 1024> buffer;
    while (m_state == State::Busy) {
        const qint64 read = m_socket->read(buffer.data(), qint64(buffer.size()));
        if (read <= 0)
            return;
        const std::size_t used = m_parser.feed(std::string_view(buffer.data(), std::size_t(read)));
        if (m_parser.state() == Http1ResponseParser::State::Complete) {
            const bool keep = m_parser.keepAlive() && used == std::size_t(read) && m_socket->bytesAvailable() == 0;
            finish({m_parser.status(), m_parser.header(kBrokerErrorHeader)}, keep);
            return;
        }
        if (m_parser.state() == Http1ResponseParser::State::Error) {
            finish({std::nullopt, "invalid HTTP response: " + m_parser.error()}, false);
            return;
        }
    }
    if (m_state == State::Idle && m_socket->bytesAvailable() > 0) { // bytes nobody asked for
        close();
        m_closed(*this);
    }
}

// The socket closed or failed (both signals may come; the first one counts).
void Http1Connection::onEnded(const std::string &why)
{
    if (m_state == State::Busy)
        onReadyRead(); // bytes that came before the end may complete the response
    switch (m_state) {
    case State::New:
    case State::Closed:
        return;
    case State::Idle:
        close();
        m_closed(*this);
        return;
    case State::Connecting:
        finish({std::nullopt, m_tlsErrors.empty() ? why : "TLS handshake failed: " + m_tlsErrors}, false);
        return;
    case State::Busy:
        if (m_parser.finishAtClose() == Http1ResponseParser::State::Complete)
            finish({m_parser.status(), m_parser.header(kBrokerErrorHeader)}, false); // a body delimited by close
        else
            finish({std::nullopt, m_parser.error() + " (" + why + ")"}, false);
        return;
    }
}

void Http1Connection::finish(Http1Outcome outcome, bool keep)
{
    if (keep)
        m_state = State::Idle;
    else
        close();
    m_finished(*this, std::move(outcome)); // last: it may send() again or close()
}

std::string Http1Connection::socketErrorText() const
{
    if (m_socket->error() == QAbstractSocket::RemoteHostClosedError)
        return "connection closed by the endpoint";
    return m_socket->errorString().toStdString();
}

} // namespace relaydesk
