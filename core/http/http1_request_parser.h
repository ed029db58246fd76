// SPDX-License-Identifier: MIT
#pragma once

#include "http/http_request.h"

#include <QByteArray>

#include <cstddef>
#include <cstdint>
#include <string>

namespace relaydesk {

// Reads HTTP/1.0 and 1.1 requests (RFC 9112) from the bytes of one
// connection, incrementally and within bounds: a request head over
// maxHeadBytes is refused (431) without waiting for its end; a declared
// Content-Length over maxBodyBytes ends the request at once (bodyTooLarge,
// nothing of the body is read) and a chunked body is decoded as it comes and
// ends the same way as soon as it passes the limit. Framing that could be
// read two ways is refused (400): a Content-Length that is not a plain
// decimal number (e.g. -1, abc, 2^64) or two different ones, Content-Length
// with Transfer-Encoding, a field line without a colon or with space before
// it, obsolete line folding, a request line that is not METHOD SP TARGET SP
// HTTP/1.x. A coding other than chunked is 501, another HTTP version 505.
// After a failure or a bodyTooLarge request the parser reads no further: the
// connection must close after the answer.
// Ownership: plain value. Thread: one at a time.
class Http1RequestParser final {
public:
    struct Limits {
        std::size_t maxHeadBytes = 64 * 1024;        // request line + fields (and chunked trailers)
        std::size_t maxBodyBytes = 4 * 1024 * 1024;  // decoded body
    };
    struct Failure {
        int status = 400;
        std::string message;
    };
    enum class Step {
        NeedMore, // everything given was consumed or is kept for later
        Request,  // a request is complete: takeRequest()
        Failed,   // not a request we read: failure(); close after answering it
    };

    explicit Http1RequestParser(Limits limits) : m_limits(limits) {}

    // Consumes from the front of `input` (bytes as received, in order) what
    // belongs to the current request. After Request, call again: pipelined
    // requests may follow in `input`.
    Step parse(QByteArray &input);
    HttpRequest takeRequest();
    const Failure &failure() const { return m_failure; }
    // Some bytes of a request have arrived but not its whole head (the
    // header timeout runs).
    bool inHead() const { return m_state == State::Head && m_headStarted; }
    // The head is complete and the body is still coming.
    bool inBody() const { return m_state == State::Body || m_state == State::ChunkSize ||
                                 m_state == State::ChunkData || m_state == State::Trailers; }
    // Reads nothing more (after a failure or a body over the limit).
    bool stopped() const { return m_state == State::Stopped; }

private:
    enum class State { Head, Body, ChunkSize, ChunkData, Trailers, Stopped };

    Step parseHead(QByteArray &input);
    Step readBody(QByteArray &input);
    Step readChunks(QByteArray &input);
    Step fail(int status, std::string message);
    Step complete();
    Step tooLarge();

    Limits m_limits;
    State m_state = State::Head;
    bool m_headStarted = false;
    HttpRequest m_request;
    QByteArray m_body;
    std::uint64_t m_remaining = 0;  // body bytes (Content-Length) or bytes of the current chunk
    std::size_t m_trailerBytes = 0;
    qsizetype m_scanFrom = 0;       // head bytes already scanned for its end
    bool m_ready = false;
    Failure m_failure;
};

} // namespace relaydesk
