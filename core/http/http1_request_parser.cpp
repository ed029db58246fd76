// SPDX-License-Identifier: MIT
#include "http/http1_request_parser.h"

#include "http/http1_field_syntax.h"

#include <algorithm>
#include <cctype>
#include <string_view>
#include <utility>

namespace relaydesk {

namespace {

constexpr qsizetype kMaxChunkLine = 1024;

std::string_view view(const QByteArray &bytes)
{
    return {bytes.constData(), std::size_t(bytes.size())};
}

bool isTokenChar(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

bool isToken(std::string_view text)
{
    return !text.empty() && std::all_of(text.begin(), text.end(), isTokenChar);
}

bool isTargetChar(char c)
{
    return c > 0x20 && c < 0x7f;
}

// The line of `bytes` from `from` to the '\n' at `newline`, without CR.
QByteArray lineAt(const QByteArray &bytes, qsizetype from, qsizetype newline)
{
    qsizetype length = newline - from;
    if (length > 0 && bytes[newline - 1] == '\r')
        --length;
    return bytes.mid(from, length);
}

} // namespace

Http1RequestParser::Step Http1RequestParser::parse(QByteArray &input)
{
    if (m_state == State::Stopped)
        return Step::NeedMore;
    if (m_state == State::Head) {
        const Step step = parseHead(input);
        if (step != Step::NeedMore || m_state == State::Head || m_state == State::Stopped)
            return step;
    }
    if (m_state == State::Body)
        return readBody(input);
    return readChunks(input);
}

HttpRequest Http1RequestParser::takeRequest()
{
    m_ready = false;
    return std::exchange(m_request, HttpRequest{});
}

Http1RequestParser::Step Http1RequestParser::fail(int status, std::string message)
{
    m_state = State::Stopped;
    m_failure = Failure{status, std::move(message)};
    return Step::Failed;
}

Http1RequestParser::Step Http1RequestParser::complete()
{
    m_request.setBody(std::exchange(m_body, QByteArray{}));
    m_state = State::Head;
    m_headStarted = false;
    m_scanFrom = 0;
    m_ready = true;
    return Step::Request;
}

Http1RequestParser::Step Http1RequestParser::tooLarge()
{
    m_body.clear();
    m_request.markBodyTooLarge();
    m_state = State::Stopped;
    m_ready = true;
    return Step::Request;
}

Http1RequestParser::Step Http1RequestParser::parseHead(QByteArray &input)
{
    if (!m_headStarted) { // empty lines before a request line are ignored (RFC 9112 2.2)
        qsizetype skip = 0;
        while (skip < input.size() && (input[skip] == '\r' || input[skip] == '\n'))
            ++skip;
        input.remove(0, skip);
        if (input.isEmpty())
            return Step::NeedMore;
        m_headStarted = true;
        m_scanFrom = 0;
    }
    // The empty line ending the head; lines already scanned are not scanned again.
    qsizetype headEnd = -1;
    qsizetype bodyStart = 0;
    for (qsizetype newline = input.indexOf('\n', m_scanFrom); newline >= 0;
         newline = input.indexOf('\n', m_scanFrom)) {
        const qsizetype from = m_scanFrom;
        m_scanFrom = newline + 1;
        if (newline == from || (newline == from + 1 && input[from] == '\r')) {
            headEnd = from;
            bodyStart = newline + 1;
            break;
        }
    }
    if (headEnd < 0 ? std::size_t(input.size()) > m_limits.maxHeadBytes : std::size_t(bodyStart) > m_limits.maxHeadBytes)
        return fail(431, "the request head is longer than " + std::to_string(m_limits.maxHeadBytes) + " bytes");
    if (headEnd < 0)
        return Step::NeedMore;
    const QByteArray head = input.left(headEnd);
    input.remove(0, bodyStart);
    m_scanFrom = 0;

    qsizetype lineEnd = head.indexOf('\n');
    const QByteArray requestLine = lineAt(head, 0, lineEnd < 0 ? head.size() : lineEnd);
    const QList<QByteArray> parts = requestLine.split(' ');
    if (parts.size() != 3 || !isToken(view(parts[0])) || parts[1].isEmpty() ||
        !std::all_of(parts[1].begin(), parts[1].end(), isTargetChar) || !parts[2].startsWith("HTTP/"))
        return fail(400, "not an HTTP request line: " + http1::excerpt(view(requestLine)));
    const QByteArray &version = parts[2];
    if (version != "HTTP/1.1" && version != "HTTP/1.0") {
        const bool wellFormed = version.size() == 8 && std::isdigit(static_cast<unsigned char>(version[5])) &&
                                version[6] == '.' && std::isdigit(static_cast<unsigned char>(version[7]));
        return wellFormed ? fail(505, "HTTP version " + version.mid(5).toStdString() + " is not supported")
                          : fail(400, "not an HTTP version: " + http1::excerpt(view(version)));
    }

    HttpRequest::Headers headers;
    while (lineEnd >= 0 && lineEnd + 1 < head.size()) {
        const qsizetype from = lineEnd + 1;
        lineEnd = head.indexOf('\n', from);
        const QByteArray line = lineAt(head, from, lineEnd < 0 ? head.size() : lineEnd);
        if (line.startsWith(' ') || line.startsWith('\t'))
            return fail(400, "obsolete line folding in the request head");
        const qsizetype colon = line.indexOf(':');
        if (colon < 0)
            return fail(400, "a header line without a colon: " + http1::excerpt(view(line)));
        const QByteArray name = line.left(colon);
        if (!isToken(view(name)))
            return fail(400, "not a header name: " + http1::excerpt(view(name)));
        const std::string_view value = http1::trimmed(view(line).substr(std::size_t(colon) + 1));
        if (std::any_of(value.begin(), value.end(), [](char c) { return c == '\0' || c == '\r'; }))
            return fail(400, "a control character in header " + http1::excerpt(view(name)));
        headers.emplace_back(name, QByteArray(value.data(), qsizetype(value.size())));
    }

    // Framing: Transfer-Encoding chunked, or one Content-Length, or nothing.
    bool chunked = false;
    bool hasLength = false;
    std::uint64_t length = 0;
    for (const auto &[name, value] : headers) {
        if (http1::equalsNoCase(view(name), "transfer-encoding")) {
            bool onlyChunked = true;
            http1::forEachElement(view(value), [&](std::string_view coding) {
                onlyChunked = onlyChunked && http1::equalsNoCase(coding, "chunked") && !chunked;
                chunked = true;
            });
            if (!onlyChunked || !chunked)
                return fail(501, "transfer coding " + http1::excerpt(view(value)) + " is not supported");
        } else if (http1::equalsNoCase(view(name), "content-length")) {
            bool valid = true;
            http1::forEachElement(view(value), [&](std::string_view element) {
                std::uint64_t parsed = 0;
                valid = valid && http1::parseDecimal(element, parsed) && (!hasLength || parsed == length);
                length = parsed;
                hasLength = true;
            });
            if (!valid || !hasLength)
                return fail(400, "Content-Length " + http1::excerpt(view(value)) +
                                     " is not one decimal number of bytes");
        }
    }
    if (chunked && hasLength)
        return fail(400, "both Content-Length and Transfer-Encoding");
    m_request = HttpRequest(parts[0], parts[1], version == "HTTP/1.0", std::move(headers));
    m_body.clear();
    if (chunked) {
        m_state = State::ChunkSize;
        return Step::NeedMore;
    }
    if (length > m_limits.maxBodyBytes)
        return tooLarge();
    if (length == 0)
        return complete();
    m_remaining = length;
    m_body.reserve(qsizetype(length));
    m_state = State::Body;
    return Step::NeedMore;
}

Http1RequestParser::Step Http1RequestParser::readBody(QByteArray &input)
{
    const qsizetype take = qsizetype(std::min<std::uint64_t>(m_remaining, std::uint64_t(input.size())));
    m_body.append(input.constData(), take);
    input.remove(0, take);
    m_remaining -= std::uint64_t(take);
    return m_remaining == 0 ? complete() : Step::NeedMore;
}

Http1RequestParser::Step Http1RequestParser::readChunks(QByteArray &input)
{
    for (;;) {
        if (m_state == State::ChunkSize || m_state == State::Trailers) {
            const qsizetype newline = input.indexOf('\n');
            if (newline < 0) {
                if (input.size() > kMaxChunkLine)
                    return fail(400, "a chunk size line longer than " + std::to_string(kMaxChunkLine) + " bytes");
                return Step::NeedMore;
            }
            const QByteArray line = lineAt(input, 0, newline);
            input.remove(0, newline + 1);
            if (m_state == State::Trailers) {
                m_trailerBytes += std::size_t(newline) + 1;
                if (m_trailerBytes > m_limits.maxHeadBytes)
                    return fail(431, "the request trailers are longer than " + std::to_string(m_limits.maxHeadBytes) + " bytes");
                if (line.isEmpty())
                    return complete();
                continue;
            }
            const qsizetype semicolon = line.indexOf(';');
            std::uint64_t size = 0;
            if (!http1::parseHex(http1::trimmed(view(line.left(semicolon < 0 ? line.size() : semicolon))), size))
                return fail(400, "not a chunk size: " + http1::excerpt(view(line)));
            if (size == 0) {
                m_state = State::Trailers;
                m_trailerBytes = 0;
                continue;
            }
            if (std::uint64_t(m_body.size()) + size > m_limits.maxBodyBytes)
                return tooLarge();
            m_remaining = size;
            m_state = State::ChunkData;
        }
        if (m_remaining > 0) {
            const qsizetype take = qsizetype(std::min<std::uint64_t>(m_remaining, std::uint64_t(input.size())));
            m_body.append(input.constData(), take);
            input.remove(0, take);
            m_remaining -= std::uint64_t(take);
            if (m_remaining > 0)
                return Step::NeedMore;
        }
        // The CRLF after a chunk's data.
        if (input.startsWith("\r\n"))
            input.remove(0, 2);
        else if (input.startsWith('\n'))
            input.remove(0, 1);
        else if (input.isEmpty() || input == "\r")
            return Step::NeedMore;
        else
            return fail(400, "a chunk not followed by CRLF");
        m_state = State::ChunkSize;
    }
}

} // namespace relaydesk
