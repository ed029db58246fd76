// SPDX-License-Identifier: MIT
#include "http/http1_response_parser.h"

#include "http/http1_field_syntax.h"

#include <algorithm>
#include <cstring>

namespace relaydesk {

using namespace http1;

namespace {

constexpr std::size_t kMaxChunkSizeLine = 1024;

} // namespace

void Http1ResponseParser::reset()
{
    *this = Http1ResponseParser(m_limits);
}

std::string Http1ResponseParser::header(std::string_view name) const
{
    for (const auto &[field, value] : m_headers)
        if (equalsNoCase(field, name))
            return value;
    return {};
}

std::size_t Http1ResponseParser::feed(std::string_view bytes)
{
    std::size_t used = 0;
    std::string line;
    while (used < bytes.size() && m_state == State::InProgress) {
        m_startedBytes = true;
        switch (m_phase) {
        case Phase::StatusLine:
        case Phase::Headers:
        case Phase::ChunkSize:
        case Phase::ChunkDataEnd:
        case Phase::Trailers:
            if (!takeLine(bytes, used, line))
                break;
            if (m_phase == Phase::StatusLine)
                onStatusLine(line);
            else if (m_phase == Phase::Headers)
                line.empty() ? onHeadersEnd() : onHeaderLine(line);
            else if (m_phase == Phase::ChunkSize)
                onChunkSizeLine(line);
            else if (m_phase == Phase::ChunkDataEnd)
                line.empty() ? void(m_phase = Phase::ChunkSize) : fail("chunk data not followed by CRLF");
            else if (line.empty())
                complete(); // end of the trailer section; trailers are dropped
            break;
        case Phase::Body:
        case Phase::ChunkData: {
            const std::size_t take = std::size_t(std::min<std::uint64_t>(m_remaining, bytes.size() - used));
            keepBody(bytes.substr(used, take));
            used += take;
            m_remaining -= take;
            if (m_remaining == 0)
                m_phase == Phase::Body ? complete() : void(m_phase = Phase::ChunkDataEnd);
            break;
        }
        case Phase::BodyUntilClose:
            keepBody(bytes.substr(used));
            used = bytes.size();
            break;
        case Phase::Done:
            return used;
        }
    }
    return used;
}

Http1ResponseParser::State Http1ResponseParser::finishAtClose()
{
    if (m_state != State::InProgress)
        return m_state;
    if (m_phase == Phase::BodyUntilClose)
        complete();
    else
        fail(m_startedBytes ? "connection closed before the response was complete"
                            : "connection closed before any response");
    return m_state;
}

// Takes bytes up to and including LF; true with `line` (CR LF stripped) when
// a whole line is there, false when all bytes went into the unfinished line.
bool Http1ResponseParser::takeLine(std::string_view bytes, std::size_t &used, std::string &line)
{
    const bool headerPhase = m_phase == Phase::StatusLine || m_phase == Phase::Headers || m_phase == Phase::Trailers;
    const char *start = bytes.data() + used;
    const void *lf = std::memchr(start, '\n', bytes.size() - used);
    const std::size_t take = lf ? std::size_t(static_cast<const char *>(lf) - start) + 1 : bytes.size() - used;
    m_line.append(start, take);
    used += take;
    if (headerPhase && (m_headerBytes += take) > m_limits.maxHeaderBytes) {
        fail("response header section larger than " + std::to_string(m_limits.maxHeaderBytes) + " bytes");
        return false;
    }
    if (!headerPhase && m_line.size() > kMaxChunkSizeLine) {
        fail("chunk size line longer than " + std::to_string(kMaxChunkSizeLine) + " bytes");
        return false;
    }
    if (!lf)
        return false;
    m_line.pop_back();
    if (!m_line.empty() && m_line.back() == '\r')
        m_line.pop_back();
    line.swap(m_line);
    m_line.clear();
    return true;
}

void Http1ResponseParser::onStatusLine(const std::string &line)
{
    if (line.empty())
        return; // tolerated: stray empty lines before a status line
    // HTTP/1.x SP 3DIGIT [SP reason]
    const bool shape = line.size() >= 12 && line.compare(0, 7, "HTTP/1.") == 0 && line[7] >= '0' && line[7] <= '9'
                       && line[8] == ' ' && (line.size() == 12 || line[12] == ' ');
    std::uint64_t status = 0;
    if (!shape || !parseDecimal(std::string_view(line).substr(9, 3), status) || status < 100) {
        fail("malformed status line " + excerpt(line));
        return;
    }
    m_status = int(status);
    m_http10 = line[7] == '0';
    m_phase = Phase::Headers;
}

void Http1ResponseParser::onHeaderLine(const std::string &line)
{
    if (line.front() == ' ' || line.front() == '\t') {
        fail("obsolete folded header line " + excerpt(line));
        return;
    }
    const std::size_t colon = line.find(':');
    const std::string_view name = std::string_view(line).substr(0, colon);
    if (colon == std::string::npos || name.empty() || name.find_first_of(" \t") != std::string_view::npos) {
        fail("malformed header line " + excerpt(line));
        return;
    }
    std::string lowered(name);
    std::transform(lowered.begin(), lowered.end(), lowered.begin(), lower);
    m_headers.emplace_back(std::move(lowered), std::string(trimmed(std::string_view(line).substr(colon + 1))));
}

void Http1ResponseParser::onHeadersEnd()
{
    if (m_status == 101) {
        fail("unexpected 101 Switching Protocols");
        return;
    }
    if (m_status < 200) { // interim response: the final one follows
        m_headers.clear();
        m_headerBytes = 0;
        m_phase = Phase::StatusLine;
        return;
    }
    m_keepAlive = !m_http10;
    bool chunked = false, transferCoded = false, hasLength = false;
    std::uint64_t length = 0;
    for (const auto &[name, value] : m_headers) {
        if (name == "connection") {
            forEachElement(value, [this](std::string_view token) {
                if (equalsNoCase(token, "close"))
                    m_keepAlive = false;
                else if (equalsNoCase(token, "keep-alive") && m_http10)
                    m_keepAlive = true;
            });
        } else if (name == "transfer-encoding") {
            forEachElement(value, [&](std::string_view coding) {
                transferCoded = true;
                chunked = equalsNoCase(coding, "chunked"); // only the last coding counts
            });
        } else if (name == "content-length") {
            std::uint64_t value64 = 0;
            if (!parseDecimal(value, value64) || (hasLength && value64 != length)) {
                fail("invalid Content-Length " + excerpt(value));
                return;
            }
            hasLength = true;
            length = value64;
        }
    }
    if (m_status == 204 || m_status == 304) {
        complete();
    } else if (transferCoded) {
        if (hasLength)
            m_keepAlive = false; // both framings: RFC 9112 6.3 says close afterwards
        if (chunked) {
            m_phase = Phase::ChunkSize;
        } else {
            m_keepAlive = false;
            m_phase = Phase::BodyUntilClose;
        }
    } else if (hasLength) {
        m_remaining = length;
        length == 0 ? complete() : void(m_phase = Phase::Body);
    } else {
        m_keepAlive = false;
        m_phase = Phase::BodyUntilClose;
    }
}

void Http1ResponseParser::onChunkSizeLine(const std::string &line)
{
    const std::string_view size = trimmed(std::string_view(line).substr(0, line.find(';'))); // drops extensions
    std::uint64_t value = 0;
    if (!parseHex(size, value)) {
        fail("invalid chunk size line " + excerpt(line));
        return;
    }
    m_remaining = value;
    if (value == 0) {
        m_headerBytes = 0;
        m_phase = Phase::Trailers;
    } else {
        m_phase = Phase::ChunkData;
    }
}

void Http1ResponseParser::keepBody(std::string_view bytes)
{
    m_bodyBytes += bytes.size();
    if (m_body.size() < m_limits.maxKeptBodyBytes)
        m_body.append(bytes.substr(0, m_limits.maxKeptBodyBytes - m_body.size()));
}

void Http1ResponseParser::fail(std::string why)
{
    m_state = State::Error;
    m_phase = Phase::Done;
    m_keepAlive = false;
    m_error = std::move(why);
}

void Http1ResponseParser::complete()
{
    m_state = State::Complete;
    m_phase = Phase::Done;
}

} // namespace relaydesk
