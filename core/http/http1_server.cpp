// SPDX-License-Identifier: MIT
#include "http/http1_server.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

namespace relaydesk {

DescriptorLimits raiseDescriptorLimit()
{
    rlimit limit{};
    if (::getrlimit(RLIMIT_NOFILE, &limit) != 0)
        return {};
    if (limit.rlim_cur < limit.rlim_max) {
        rlimit raised = limit;
        raised.rlim_cur = limit.rlim_max;
        if (::setrlimit(RLIMIT_NOFILE, &raised) == 0)
            limit = raised;
    }
    return {std::size_t(limit.rlim_cur), std::size_t(limit.rlim_max)};
}

namespace {

std::size_t connectionCap(std::size_t configured)
{
    if (configured > 0)
        return configured;
    rlimit limit{};
    if (::getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY)
        return 65536;
    const std::size_t soft = std::size_t(limit.rlim_cur);
    return std::max<std::size_t>(16, soft > Http1Server::kReservedDescriptors ? soft - Http1Server::kReservedDescriptors : 0);
}

void refuse(qintptr descriptor, std::size_t cap)
{
    const QByteArray body = "The broker has " + QByteArray::number(qulonglong(cap)) +
                            " connections open, its limit; try again later.\n";
    const QByteArray response = "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
                                "Content-Length: " + QByteArray::number(body.size()) +
                                "\r\nRetry-After: 1\r\nConnection: close\r\n\r\n" + body;
    (void)::send(int(descriptor), response.constData(), std::size_t(response.size()), MSG_NOSIGNAL | MSG_DONTWAIT);
    ::shutdown(int(descriptor), SHUT_WR);
    ::close(int(descriptor));
}

} // namespace

Http1Server::Http1Server(Options options, Http1ServerConnection::Dispatch dispatch, QObject *parent)
    : QObject(parent), m_options(options), m_dispatch(std::move(dispatch)),
      m_maxConnections(connectionCap(options.maxConnections))
{
}

void Http1Server::bind(HttpListener *listener)
{
    m_listener = listener;
    listener->setParent(this);
    listener->setMaxPendingConnections(INT_MAX);
    // QTcpServer::listen used a backlog of 50; a burst of connects beyond it
    // had its SYNs dropped and retried by the client a second later.
    if (listener->isListening())
        ::listen(int(listener->socketDescriptor()), kListenBacklog);
    connect(listener, &HttpListener::accepted, this, &Http1Server::onAccepted);
    connect(listener, &QTcpServer::acceptError, this, [this](QAbstractSocket::SocketError) {
        m_listener->pauseAccepting();
        QTimer::singleShot(m_options.acceptRetry, this, [this] { m_listener->resumeAccepting(); });
    });
}

void Http1Server::onAccepted(qintptr descriptor)
{
    if (m_open >= m_maxConnections) {
        refuse(descriptor, m_maxConnections);
        return;
    }
    ++m_open;
    auto *connection = new Http1ServerConnection(descriptor, m_options.connection, m_dispatch, this);
    connect(connection, &Http1ServerConnection::closed, this, [this] { --m_open; });
}

void Http1Server::stopAccepting()
{
    if (m_listener)
        m_listener->close();
}

std::size_t Http1Server::owedAnswers() const
{
    std::size_t owed = 0;
    for (const Http1ServerConnection *connection : findChildren<Http1ServerConnection *>(Qt::FindDirectChildrenOnly))
        owed += connection->owedAnswers();
    return owed;
}

} // namespace relaydesk
