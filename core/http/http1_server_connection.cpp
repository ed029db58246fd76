// SPDX-License-Identifier: MIT
#include "http/http1_server_connection.h"

#include "http/tls_server_context.h"

#include <QSocketNotifier>

#include <algorithm>
#include <cerrno>
#include <utility>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

namespace relaydesk {

namespace {

constexpr qsizetype kReadChunk = 64 * 1024;

QByteArray responseBytes(const HttpReply &reply, bool head, bool keepAlive)
{
    QByteArray bytes;
    bytes.reserve(256 + (head ? 0 : reply.body.size()));
    bytes += "HTTP/1.1 " + QByteArray::number(reply.status) + ' ' + reasonPhrase(reply.status) + "\r\n";
    if (!reply.contentType.isEmpty())
        bytes += "Content-Type: " + reply.contentType + "\r\n";
    bytes += "Content-Length: " + QByteArray::number(reply.body.size()) + "\r\n";
    for (const auto &[name, value] : reply.headers)
        if (name.compare("connection", Qt::CaseInsensitive) != 0)
            bytes += name + ": " + value + "\r\n";
    bytes += keepAlive ? "Connection: keep-alive\r\n" : "Connection: close\r\n";
    bytes += "\r\n";
    if (!head)
        bytes += reply.body;
    return bytes;
}

} // namespace

Http1ServerConnection::Http1ServerConnection(qintptr descriptor, Options options, Dispatch dispatch, QObject *parent)
    : QObject(parent), m_descriptor(int(descriptor)), m_options(options), m_dispatch(std::move(dispatch)),
      m_parser(options.limits)
{
    ::fcntl(m_descriptor, F_SETFL, ::fcntl(m_descriptor, F_GETFL) | O_NONBLOCK);
    const int on = 1;
    ::setsockopt(m_descriptor, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on); // answers are written whole
    m_readNotifier = new QSocketNotifier(descriptor, QSocketNotifier::Read, this);
    m_writeNotifier = new QSocketNotifier(descriptor, QSocketNotifier::Write, this);
    m_writeNotifier->setEnabled(false);
    connect(m_readNotifier, &QSocketNotifier::activated, this, &Http1ServerConnection::onReadable);
    connect(m_writeNotifier, &QSocketNotifier::activated, this, &Http1ServerConnection::onWritable);
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, &Http1ServerConnection::onTimeout);
    if (m_options.tls) {
        m_transport = Transport::Choosing;
        m_handshakeDeadline = QDeadlineTimer(m_options.idleTimeout);
    }
    updateTimer();
}

Http1ServerConnection::~Http1ServerConnection()
{
    if (m_descriptor >= 0)
        ::close(m_descriptor);
}

void Http1ServerConnection::onReadable()
{
    if (m_descriptor < 0 || (!m_lingering && !readyForData()))
        return;
    char buffer[kReadChunk];
    for (;;) {
        const ssize_t got = receive(buffer, sizeof buffer);
        if (got > 0) {
            if (m_lingering || !m_acceptingRequests)
                continue; // read and dropped: the connection ends after its last answer
            m_input.append(buffer, qsizetype(got));
            parseInput();
            if (m_descriptor < 0 || !m_readNotifier->isEnabled())
                return;
            continue;
        }
        if (got == 0) { // the client's FIN: answer what is owed, then close
            m_peerClosed = true;
            m_readNotifier->setEnabled(false);
            if (m_lingering || (m_owed.empty() && m_output.isEmpty()))
                closeNow();
            else
                updateTimer();
            return;
        }
        if (errno == EINTR)
            continue;
        if (errno != EAGAIN && errno != EWOULDBLOCK)
            closeNow(); // reset: the client is gone
        return;
    }
}

void Http1ServerConnection::parseInput()
{
    while (m_acceptingRequests && m_owed.size() < m_options.maxPipelined) {
        const Http1RequestParser::Step step = m_parser.parse(m_input);
        if (step == Http1RequestParser::Step::NeedMore)
            break;
        if (step == Http1RequestParser::Step::Failed) {
            queueFailure(m_parser.failure().status, m_parser.failure().message);
            break;
        }
        const HttpRequest request = m_parser.takeRequest();
        const bool last = !request.keepAlive() || request.bodyTooLarge();
        m_owed.push_back(Owed{m_nextSequence++, request.method() == "HEAD", !last, std::nullopt, false});
        if (last) {
            m_acceptingRequests = false;
            m_input.clear();
        }
        const std::uint64_t sequence = m_owed.back().sequence;
        const QPointer<Http1ServerConnection> alive(this);
        m_dispatch(request, ReplyChannel(this, sequence));
        if (!alive || m_descriptor < 0)
            return;
    }
    updateReading();
    updateTimer();
}

void Http1ServerConnection::queueFailure(int status, const std::string &message)
{
    m_acceptingRequests = false;
    m_input.clear();
    m_owed.push_back(Owed{m_nextSequence++, false, false, std::nullopt, false});
    answer(m_owed.back().sequence, HttpReply{status, "text/plain; charset=utf-8", {}, QByteArray::fromStdString(message + "\n")});
}

void Http1ServerConnection::answer(std::uint64_t sequence, const HttpReply &reply)
{
    for (Owed &owed : m_owed) {
        if (owed.sequence != sequence)
            continue;
        if (!owed.bytes && !owed.drop)
            owed.bytes = responseBytes(reply, owed.head, owed.keepAlive);
        break;
    }
    flushAnswers();
}

void Http1ServerConnection::dropAt(std::uint64_t sequence)
{
    for (Owed &owed : m_owed)
        if (owed.sequence == sequence && !owed.bytes)
            owed.drop = true;
    flushAnswers();
}

void Http1ServerConnection::flushAnswers()
{
    if (m_descriptor < 0)
        return;
    while (!m_owed.empty() && (m_owed.front().bytes || m_owed.front().drop)) {
        Owed owed = std::move(m_owed.front());
        m_owed.pop_front();
        if (owed.drop) {
            closeNow();
            return;
        }
        m_output += *owed.bytes;
        if (!owed.keepAlive) {
            m_closeAfterOutput = true;
            m_owed.clear();
            break;
        }
    }
    writeOutput();
    if (m_descriptor >= 0 && m_acceptingRequests && !m_input.isEmpty())
        parseInput(); // pipelined requests held back while maxPipelined answers were owed
    else if (m_descriptor >= 0) {
        updateReading();
        updateTimer();
    }
}

void Http1ServerConnection::onWritable()
{
    if (m_transport == Transport::Handshake) {
        if (continueHandshake())
            onReadable();
        return;
    }
    if (std::exchange(m_readWaitsForWrite, false))
        onReadable();
    writeOutput();
}

void Http1ServerConnection::writeOutput()
{
    while (m_descriptor >= 0 && !m_output.isEmpty()) {
        const ssize_t sent = transmit(m_output.constData(), std::size_t(m_output.size()));
        if (sent > 0) {
            m_output.remove(0, qsizetype(sent));
            continue;
        }
        if (sent < 0 && errno == EINTR)
            continue;
        if (sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            m_writeNotifier->setEnabled(true);
            return;
        }
        closeNow(); // the client is gone
        return;
    }
    if (m_descriptor < 0)
        return;
    m_writeNotifier->setEnabled(false);
    if (m_peerClosed && m_owed.empty())
        closeNow();
    else if (m_closeAfterOutput && !m_lingering)
        startLinger();
    else
        updateTimer();
}

void Http1ServerConnection::startLinger()
{
    m_lingering = true;
    if (m_tls)
        m_tls->close();
    ::shutdown(m_descriptor, SHUT_WR);
    m_readNotifier->setEnabled(true);
    m_timer.start(m_options.lingerTimeout);
}

void Http1ServerConnection::updateReading()
{
    if (m_descriptor < 0 || m_peerClosed)
        return;
    // Reading goes on after the last request (to drop what follows and see a reset) but
    // pauses while maxPipelined answers are owed.
    m_readNotifier->setEnabled(!m_acceptingRequests || m_owed.size() < m_options.maxPipelined);
    // Bytes TLS already decrypted never make the socket readable again: read them now.
    if (m_readNotifier->isEnabled() && m_transport == Transport::Tls && m_tls->hasBuffered())
        QMetaObject::invokeMethod(this, &Http1ServerConnection::onReadable, Qt::QueuedConnection);
}

void Http1ServerConnection::updateTimer()
{
    if (m_descriptor < 0 || m_lingering)
        return;
    if (m_transport == Transport::Choosing || m_transport == Transport::Handshake) {
        m_timer.start(std::max<qint64>(m_handshakeDeadline.remainingTime(), 0));
        return;
    }
    if (!m_owed.empty() || !m_output.isEmpty() || m_peerClosed) {
        m_timer.stop();
        m_headDeadline.reset();
        return;
    }
    if (m_parser.inHead()) {
        if (!m_headDeadline)
            m_headDeadline = QDeadlineTimer(m_options.headerTimeout);
        m_timer.start(std::max<qint64>(m_headDeadline->remainingTime(), 0));
        return;
    }
    m_headDeadline.reset();
    m_timer.start(m_options.idleTimeout);
}

void Http1ServerConnection::onTimeout()
{
    if (m_descriptor < 0)
        return;
    if (m_lingering || !m_parser.inHead()) {
        closeNow();
        return;
    }
    queueFailure(408, "no complete request head within " + std::to_string(m_options.headerTimeout.count()) + " ms");
}

void Http1ServerConnection::closeNow()
{
    if (m_descriptor < 0)
        return;
    m_timer.stop();
    m_readNotifier->setEnabled(false);
    m_writeNotifier->setEnabled(false);
    m_tls.reset();
    ::close(m_descriptor);
    m_descriptor = -1;
    m_owed.clear();
    m_output.clear();
    m_input.clear();
    emit closed();
    deleteLater();
}

} // namespace relaydesk
