// SPDX-License-Identifier: MIT
#pragma once

#include "http/http1_request.h"
#include "http/http1_response_parser.h"

#include <QObject>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

class QSslConfiguration;
class QTcpSocket;

namespace relaydesk {

// How one request on a connection ended: a status when a complete response
// arrived, else what went wrong (refused, reset, closed early, DNS, TLS,
// malformed response). With a status, errorText is the response's
// X-Relaydesk-Error header (kBrokerErrorHeader, http_reply.h), usually empty.
struct Http1Outcome {
    std::optional<int> status;
    std::string errorText;
};

// One HTTP/1.1 keep-alive connection to an origin (plain TCP or TLS), one
// request at a time, no pipelining. It connects on its first send(); a
// request's bytes are written exactly once — never re-sent, whatever happens.
// After a complete response the connection becomes idle when the response
// allows keep-alive, otherwise it closes.
//
// Callbacks (on the owner's thread, from socket events, never inside send()):
// `finished` once per send() with the outcome — the connection is already
// idle or closed then, and the callback may send() again or close(); `closed`
// when an idle connection is closed by the peer. After close() neither runs.
//
// Ownership: owns its socket; borrows the TLS configuration (must outlive it).
// Thread: the thread that made it.
class Http1Connection final : public QObject { // no Q_OBJECT: no signals or slots of its own
public:
    using Finished = std::function<void(Http1Connection &, Http1Outcome)>;
    using Closed = std::function<void(Http1Connection &)>;

    Http1Connection(Http1Origin origin, const QSslConfiguration *tls, Http1ResponseParser::Limits limits,
                    Finished finished, Closed closed, QObject *parent = nullptr);
    ~Http1Connection() override; // closes without callbacks
    Http1Connection(const Http1Connection &) = delete;
    Http1Connection &operator=(const Http1Connection &) = delete;

    // Connected, no request, reusable.
    bool idle() const { return m_state == State::Idle; }
    bool closedForGood() const { return m_state == State::Closed; }
    // Idle and the peer has neither closed nor sent anything unasked (checked
    // on the socket itself, not only from events already delivered).
    bool reusable() const;
    // Sends one request; only on a new or an idle connection. `tag` names the
    // request for the owner (tag()).
    void send(QByteArray wire, std::uint64_t tag);
    std::uint64_t tag() const { return m_tag; }
    // Aborts the connection at once; no callback runs afterwards.
    void close();

private:
    enum class State { New, Connecting, Idle, Busy, Closed };

    void onConnected();
    void onReadyRead();
    void onEnded(const std::string &why);
    void finish(Http1Outcome outcome, bool keep);
    std::string socketErrorText() const;

    Http1Origin m_origin;
    const QSslConfiguration *m_tls = nullptr;
    Finished m_finished;
    Closed m_closed;
    QTcpSocket *m_socket = nullptr; // child; a QSslSocket for https
    State m_state = State::New;
    QByteArray m_wire;              // the request waiting for the connection
    std::uint64_t m_tag = 0;
    Http1ResponseParser m_parser;
    std::string m_tlsErrors;        // from sslErrors, for the error text
};

} // namespace relaydesk
