// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QPointer>
#include <QTcpSocket>

#include <utility>
#include <vector>


namespace relaydesk {

// One HTTP response as the protocol layers build it. Plain value type.
struct HttpReply {
    int status = 200;
    QByteArray contentType;
    std::vector<std::pair<QByteArray, QByteArray>> headers;   // besides Content-Type/-Length
    QByteArray body;
};

// Where the answer to one request goes: the connection it came on. The
// connection may close before the answer is ready (a client giving up on a
// long poll); send() then does nothing. A channel answers once: later calls
// are ignored.
// Ownership: refers to the socket weakly (QPointer). Thread: the socket's
// thread (the HTTP server's).
class ReplyChannel final {
public:
    explicit ReplyChannel(QTcpSocket *socket) : m_socket(socket) {}

    // Writes status line, Content-Type, Content-Length, the headers and the
    // body as one HTTP/1.1 response (the connection stays open for the next
    // request).
    void send(const HttpReply &reply);
    // Drops the connection without an answer (mock endpoints' "close").
    void abort();
    bool connected() const;

private:
    QPointer<QTcpSocket> m_socket;
    bool m_answered = false;
};

// The reason phrase of a status ("OK", "Bad Request", …; "Status" if unknown).
QByteArray reasonPhrase(int status);

} // namespace relaydesk
