// SPDX-License-Identifier: MIT
#pragma once

#include "http/http1_request_parser.h"
#include "http/http_reply.h"
#include "http/http_request.h"

#include <QByteArray>
#include <QDeadlineTimer>
#include <QObject>
#include <QTimer>

#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>

class QSocketNotifier;

namespace relaydesk {

class TlsServerContext;
class TlsSession;

// One accepted HTTP/1.1 connection of the broker's server, on its socket
// descriptor (not QTcpSocket, which closes both ways at the client's FIN and
// so cannot answer a client that half-closes after sending).
//  - Requests are read with Http1RequestParser (bounded) and handed to
//    `dispatch` one by one with a ReplyChannel; answers may come in any order
//    and are written in request order (pipelining). While maxPipelined
//    answers are owed, reading stops.
//  - Keep-alive per HttpRequest::keepAlive(); a request that ends the
//    connection (Connection: close, HTTP/1.0, body over the limit, framing
//    refused with 400/431/501/505) is the last one read: its answer carries
//    `Connection: close`, then the write side is shut and what the client
//    still sends is read and dropped for lingerTimeout before the close (so
//    the answer is not lost to a reset).
//  - The client's FIN ends reading; answers owed are still written, then
//    the connection closes. A reset or a write error closes it at once.
//  - Timeouts (wall time, connection hygiene): idleTimeout with nothing owed
//    and nothing received; headerTimeout from a request's first byte to the
//    end of its head (answered 408); none while an answer is owed (a long
//    poll).
//  - TLS (Options::tls set): the connection's first byte chooses. 0x16 (a TLS
//    handshake record, peeked without taking it) makes it a TLS connection,
//    anything else a plain one; everything above is then the same over the
//    decrypted bytes. Choosing and the handshake must end within idleTimeout
//    of the accept (bytes that trickle in do not extend it); a handshake that
//    fails (garbage after 0x16, a client that distrusts the certificate)
//    closes the connection without an answer. A TLS connection's end sends
//    close_notify before the write side is shut.
// Closing deletes the object (deleteLater) after emitting closed(); a
// ReplyChannel refers to it weakly, and the connection is the reply context
// of the broker calls its requests make, so a reply for a gone client is
// dropped and a waiting receive sees its client gone.
// Ownership: owns the descriptor. Thread: the thread it was made on.
class Http1ServerConnection final : public QObject {
    Q_OBJECT

public:
    struct Options {
        Http1RequestParser::Limits limits;
        std::chrono::milliseconds idleTimeout{60'000};
        std::chrono::milliseconds headerTimeout{30'000};
        std::chrono::milliseconds lingerTimeout{2'000};
        std::size_t maxPipelined = 32;
        std::shared_ptr<const TlsServerContext> tls;   // null: plain HTTP only
    };
    using Dispatch = std::function<void(const HttpRequest &, ReplyChannel)>;

    Http1ServerConnection(qintptr descriptor, Options options, Dispatch dispatch, QObject *parent = nullptr);
    ~Http1ServerConnection() override;
    Http1ServerConnection(const Http1ServerConnection &) = delete;
    Http1ServerConnection &operator=(const Http1ServerConnection &) = delete;

    // The answer to request `sequence` (ReplyChannel::send); once per request.
    void answer(std::uint64_t sequence, const HttpReply &reply);
    // Closes the connection when request `sequence`'s turn comes, without an
    // answer to it (ReplyChannel::abort: mock endpoints' "close").
    void dropAt(std::uint64_t sequence);
    bool isOpen() const { return m_descriptor >= 0; }
    // Requests read whose answer is not yet written to the socket.
    std::size_t owedAnswers() const { return m_owed.size() + (m_output.isEmpty() ? 0 : 1); }

signals:
    void closed();

private:
    enum class Transport { Choosing, Plain, Handshake, Tls };

    struct Owed {
        std::uint64_t sequence = 0;
        bool head = false;       // HEAD: no body
        bool keepAlive = true;
        std::optional<QByteArray> bytes;
        bool drop = false;
    };

    void onReadable();
    bool readyForData();
    bool continueHandshake();
    ssize_t receive(char *buffer, std::size_t size);
    ssize_t transmit(const char *data, std::size_t size);
    void onWritable();
    void onTimeout();
    void parseInput();
    void queueFailure(int status, const std::string &message);
    void flushAnswers();
    void writeOutput();
    void startLinger();
    void updateReading();
    void updateTimer();
    void closeNow();

    int m_descriptor = -1;
    Options m_options;
    Dispatch m_dispatch;
    QSocketNotifier *m_readNotifier = nullptr;  // child
    QSocketNotifier *m_writeNotifier = nullptr; // child
    QTimer m_timer;
    Http1RequestParser m_parser;
    QByteArray m_input;
    QByteArray m_output;
    std::deque<Owed> m_owed;                // in request order
    std::uint64_t m_nextSequence = 1;
    bool m_acceptingRequests = true;        // false after the last request of the connection
    bool m_closeAfterOutput = false;
    bool m_peerClosed = false;              // the client's FIN came
    bool m_lingering = false;
    std::optional<QDeadlineTimer> m_headDeadline;
    Transport m_transport = Transport::Plain;
    std::unique_ptr<TlsSession> m_tls;
    QDeadlineTimer m_handshakeDeadline;     // Choosing and Handshake
    bool m_readWaitsForWrite = false;       // TLS: a read needs the socket writable first
};

} // namespace relaydesk
