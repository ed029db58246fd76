// SPDX-License-Identifier: MIT
// Http1ServerConnection's transport: plain or TLS, chosen by the first byte
// (docs/behaviour.md §8.7), and the reads and writes over it.
#include "http/http1_server_connection.h"

#include "http/tls_server_context.h"

#include <QSocketNotifier>

#include <cerrno>
#include <sys/socket.h>

namespace relaydesk {

namespace {

constexpr unsigned char kTlsHandshakeRecord = 0x16;

} // namespace

// Chooses plain or TLS by the first byte and runs the handshake; whether
// the request bytes can be read now.
bool Http1ServerConnection::readyForData()
{
    if (m_transport == Transport::Choosing) {
        unsigned char first = 0;
        const ssize_t got = ::recv(m_descriptor, &first, 1, MSG_PEEK);
        if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
            return false;
        if (got <= 0) { // gone before its first byte
            closeNow();
            return false;
        }
        if (first != kTlsHandshakeRecord) {
            m_transport = Transport::Plain;
            updateTimer();
            return true;
        }
        m_tls = std::make_unique<TlsSession>(*m_options.tls, m_descriptor);
        m_transport = Transport::Handshake;
    }
    return m_transport != Transport::Handshake || continueHandshake();
}

bool Http1ServerConnection::continueHandshake()
{
    switch (m_tls->handshake()) {
    case TlsSession::Wait::Nothing:
        m_transport = Transport::Tls;
        m_writeNotifier->setEnabled(false);
        updateTimer();
        return true;
    case TlsSession::Wait::Read:
        m_writeNotifier->setEnabled(false);
        return false;
    case TlsSession::Wait::Write:
        m_writeNotifier->setEnabled(true);
        return false;
    default: // not TLS after all, or a client that refused the certificate
        closeNow();
        return false;
    }
}

// recv(2) on the connection's transport: > 0 bytes, 0 the client's end, < 0 with errno.
ssize_t Http1ServerConnection::receive(char *buffer, std::size_t size)
{
    if (m_transport != Transport::Tls || m_lingering)
        return ::recv(m_descriptor, buffer, size, 0);
    TlsSession::Wait wait = TlsSession::Wait::Nothing;
    const std::size_t got = m_tls->read(buffer, size, wait);
    if (got > 0)
        return ssize_t(got);
    if (wait == TlsSession::Wait::Closed)
        return 0;
    if (wait == TlsSession::Wait::Write) {
        m_readWaitsForWrite = true;
        m_writeNotifier->setEnabled(true);
    }
    errno = wait == TlsSession::Wait::Failed ? ECONNRESET : EAGAIN;
    return -1;
}

// send(2) on the connection's transport: bytes taken, or < 0 with errno.
ssize_t Http1ServerConnection::transmit(const char *data, std::size_t size)
{
    if (m_transport != Transport::Tls)
        return ::send(m_descriptor, data, size, MSG_NOSIGNAL);
    TlsSession::Wait wait = TlsSession::Wait::Nothing;
    const std::size_t sent = m_tls->write(data, size, wait);
    if (sent > 0)
        return ssize_t(sent);
    errno = wait == TlsSession::Wait::Read || wait == TlsSession::Wait::Write ? EAGAIN : EPIPE;
    return -1;
}

} // namespace relaydesk
