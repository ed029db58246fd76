// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QObject>
#include <QPointer>

#include <cstdint>
#include <utility>
#include <vector>


namespace relaydesk {

class Http1ServerConnection;

// One HTTP response as the protocol layers build it. Plain value type.
// The header in which a Relaydesk broker says in words why it answered an
// error itself rather than by an endpoint's script (a mock endpoint that
// does not exist, docs/behaviour.md §4.7); a delivery keeps its value in the
// attempt log. Lower case, as the response parser keeps names.
inline constexpr const char *kBrokerErrorHeader = "x-relaydesk-error";

struct HttpReply {
    int status = 200;
    QByteArray contentType;
    std::vector<std::pair<QByteArray, QByteArray>> headers;   // besides Content-Type/-Length
    QByteArray body;
};

// Where the answer to one request goes: its turn on the connection it came
// on (http/http1_server_connection.h writes answers in request order). The
// connection may close before the answer is ready (a client giving up on a
// long poll); send() then does nothing. A channel answers once: later calls
// are ignored.
// Ownership: refers to the connection weakly (QPointer). Thread: the
// connection's thread (the HTTP server's).
class ReplyChannel final {
public:
    ReplyChannel(Http1ServerConnection *connection, std::uint64_t sequence);

    // The answer: status line, Content-Type, Content-Length, the headers and
    // the body, as an HTTP/1.1 response (the connection decides keep-alive).
    void send(const HttpReply &reply);
    // Drops the connection without an answer when this request's turn comes
    // (mock endpoints' "close").
    void abort();
    bool connected() const;
    // The connection as the context of broker calls made for this request:
    // their replies are posted to its thread, and dropped once it is gone
    // (a waiting receive is withdrawn when its client goes).
    QObject *context() const { return m_connection.data(); }

private:
    Http1ServerConnection *connection() const;

    QPointer<QObject> m_connection;
    std::uint64_t m_sequence = 0;
    bool m_answered = false;
};

// The reason phrase of a status ("OK", "Bad Request", …; "Status" if unknown).
QByteArray reasonPhrase(int status);

} // namespace relaydesk
