// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QUrl>

#include <string_view>
#include <utility>
#include <vector>

namespace relaydesk {

// One request as the broker's HTTP server received it (http/http1_request_parser.h
// makes it). The accessors follow QHttpServerRequest's names so routes read
// the same. Plain value type.
class HttpRequest final {
public:
    using Headers = std::vector<std::pair<QByteArray, QByteArray>>;

    HttpRequest() = default;
    HttpRequest(QByteArray method, QByteArray target, bool http10, Headers headers);

    const QByteArray &method() const { return m_method; }  // as sent: "GET", "POST", …
    const QByteArray &target() const { return m_target; }  // as sent: "/path?query"
    const QUrl &url() const { return m_url; }              // the target as a URL (path and query)
    bool isHttp10() const { return m_http10; }
    const Headers &headers() const { return m_headers; }   // in order, names as sent, values trimmed
    // The first field named `name` (ASCII case-insensitive); empty when none.
    QByteArray value(std::string_view name) const;
    const QByteArray &body() const { return m_body; }      // chunked framing removed
    // The body passed the size limit: body() is empty, the answer is a 413
    // and the connection closes after it.
    bool bodyTooLarge() const { return m_bodyTooLarge; }
    // Whether the connection stays open after the answer: HTTP/1.1 unless
    // `Connection: close`, HTTP/1.0 only with `Connection: keep-alive`.
    bool keepAlive() const;

    void setBody(QByteArray body) { m_body = std::move(body); }
    void markBodyTooLarge() { m_bodyTooLarge = true; m_body.clear(); }

private:
    QByteArray m_method;
    QByteArray m_target;
    QUrl m_url;
    bool m_http10 = false;
    Headers m_headers;
    QByteArray m_body;
    bool m_bodyTooLarge = false;
};

} // namespace relaydesk
