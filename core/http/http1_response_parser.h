// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace relaydesk {

// Reads one HTTP/1.x response to a POST from the bytes of a connection, fed
// in pieces of any size (the result does not depend on how they are cut):
// status line, header fields (names matched case-insensitively), a body
// delimited by Content-Length, by `Transfer-Encoding: chunked` (extensions
// ignored, trailers read and dropped) or by the peer closing the connection;
// 1xx interim responses (100 Continue) are skipped; 1xx, 204 and 304 have no
// body. The body is read and discarded; its first `maxKeptBodyBytes` bytes
// are kept. Anything malformed, or a header section larger than
// `maxHeaderBytes`, ends in State::Error with a sentence saying what was wrong.
//
// Pure and single-threaded; no I/O. One response at a time: reset() before
// the next response on the same connection.
class Http1ResponseParser final {
public:
    enum class State { InProgress, Complete, Error };
    struct Limits {
        std::size_t maxHeaderBytes = 64 * 1024; // status line + header fields (+ trailers)
        std::size_t maxKeptBodyBytes = 4096;
    };

    Http1ResponseParser() = default;
    explicit Http1ResponseParser(Limits limits) : m_limits(limits) {}

    // Consumes bytes of the response; returns how many were used. Bytes after
    // a complete response are not consumed (the caller decides; on a
    // connection without pipelining they mean the connection is unusable).
    std::size_t feed(std::string_view bytes);
    // The peer closed the connection: completes a body delimited by close,
    // otherwise the response is cut short (Error). No effect once Complete/Error.
    State finishAtClose();
    void reset();

    State state() const { return m_state; }
    bool started() const { return m_startedBytes; } // a byte of a response arrived
    const std::string &error() const { return m_error; }
    int status() const { return m_status; }
    // The final response's header fields, names lowercased, in arrival order.
    const std::vector<std::pair<std::string, std::string>> &headers() const { return m_headers; }
    // The first value of a field (name in any case), empty when absent.
    std::string header(std::string_view name) const;
    const std::string &keptBody() const { return m_body; }
    std::uint64_t bodyBytes() const { return m_bodyBytes; }
    // After Complete: the connection may carry another request (HTTP/1.1
    // without `Connection: close`, HTTP/1.0 with keep-alive, body not
    // delimited by close).
    bool keepAlive() const { return m_keepAlive; }

private:
    enum class Phase { StatusLine, Headers, Body, BodyUntilClose, ChunkSize, ChunkData, ChunkDataEnd, Trailers, Done };

    bool takeLine(std::string_view bytes, std::size_t &used, std::string &line);
    void onStatusLine(const std::string &line);
    void onHeaderLine(const std::string &line);
    void onHeadersEnd();
    void onChunkSizeLine(const std::string &line);
    void keepBody(std::string_view bytes);
    void fail(std::string why);
    void complete();

    Limits m_limits;
    State m_state = State::InProgress;
    Phase m_phase = Phase::StatusLine;
    std::string m_error;
    std::string m_line;               // a line not yet ended by LF
    std::size_t m_headerBytes = 0;    // of the current header section
    bool m_startedBytes = false;
    int m_status = 0;
    bool m_http10 = false;
    std::vector<std::pair<std::string, std::string>> m_headers;
    std::uint64_t m_remaining = 0;    // of the Content-Length body or of the current chunk
    std::uint64_t m_bodyBytes = 0;
    std::string m_body;
    bool m_keepAlive = false;
};

} // namespace relaydesk
