// SPDX-License-Identifier: MIT
#pragma once

#include "http/http1_server_connection.h"

#include <QObject>
#include <QTcpServer>
#include <QTimer>

#include <chrono>
#include <cstddef>

namespace relaydesk {

// A listening socket that hands each accepted descriptor on as it is
// accepted, without making a QTcpSocket of it. Listen (QTcpServer::listen)
// before handing it to Http1Server::bind. Thread: the thread it was made on.
class HttpListener final : public QTcpServer {
    Q_OBJECT

public:
    using QTcpServer::QTcpServer;

signals:
    void accepted(qintptr descriptor);

protected:
    void incomingConnection(qintptr descriptor) override { emit accepted(descriptor); }
};

// The soft and hard descriptor limits (RLIMIT_NOFILE) after raising the
// soft one to the hard one (`relaydesk serve` does it at start: a desktop's
// soft limit is often 1 024 while the hard one is far higher).
struct DescriptorLimits {
    std::size_t soft = 0;
    std::size_t hard = 0;
};
DescriptorLimits raiseDescriptorLimit();

// The HTTP/1.1 server under the broker's port: accepts connections from an
// HttpListener (listen backlog raised to kListenBacklog, every pending
// connection accepted at each wake) and serves each with an
// Http1ServerConnection calling `dispatch`. At most maxConnections are open
// at once: a connection beyond is answered `503 Service Unavailable` with
// `Connection: close` at once and closed, so the broker never runs out of
// descriptors (which left the listening socket ready forever: 100 % CPU,
// nothing answered). When accepting fails anyway (descriptors used
// elsewhere), accepting pauses for acceptRetry and resumes.
// Ownership: owns the listener once bound and the connections. Thread: the
// thread it was made on (the listener's).
class Http1Server final : public QObject {
    Q_OBJECT

public:
    static constexpr int kListenBacklog = 1024;
    // Descriptors kept for everything but connections (database files,
    // delivery connections, the listener, logs).
    static constexpr std::size_t kReservedDescriptors = 128;

    struct Options {
        Http1ServerConnection::Options connection;
        std::size_t maxConnections = 0;   // 0: the soft descriptor limit less kReservedDescriptors (at least 16)
        std::chrono::milliseconds acceptRetry{100};
    };

    Http1Server(Options options, Http1ServerConnection::Dispatch dispatch, QObject *parent = nullptr);

    // Starts serving `listener` (already listening); takes ownership.
    void bind(HttpListener *listener);
    std::size_t connectionCount() const { return m_open; }
    // Stops accepting connections (the listening socket closes); the open
    // ones go on. For a stop that answers what it owes first.
    void stopAccepting();
    // Answers owed on all open connections (see Http1ServerConnection).
    std::size_t owedAnswers() const;
    std::size_t maxConnections() const { return m_maxConnections; }

private:
    void onAccepted(qintptr descriptor);

    Options m_options;
    Http1ServerConnection::Dispatch m_dispatch;
    std::size_t m_maxConnections = 0;
    std::size_t m_open = 0;
    HttpListener *m_listener = nullptr; // child
};

} // namespace relaydesk
