// SPDX-License-Identifier: MIT
#include "http/http_request.h"

#include "http/http1_field_syntax.h"

namespace relaydesk {

HttpRequest::HttpRequest(QByteArray method, QByteArray target, bool http10, Headers headers)
    : m_method(std::move(method)), m_target(std::move(target)), m_url(QUrl::fromEncoded(m_target)),
      m_http10(http10), m_headers(std::move(headers))
{
}

QByteArray HttpRequest::value(std::string_view name) const
{
    for (const auto &[field, value] : m_headers)
        if (http1::equalsNoCase(std::string_view(field.constData(), std::size_t(field.size())), name))
            return value;
    return {};
}

bool HttpRequest::keepAlive() const
{
    bool close = false;
    bool keepAlive = false;
    for (const auto &[field, value] : m_headers) {
        if (!http1::equalsNoCase(std::string_view(field.constData(), std::size_t(field.size())), "connection"))
            continue;
        http1::forEachElement(std::string_view(value.constData(), std::size_t(value.size())), [&](std::string_view option) {
            close = close || http1::equalsNoCase(option, "close");
            keepAlive = keepAlive || http1::equalsNoCase(option, "keep-alive");
        });
    }
    return !close && (!m_http10 || keepAlive);
}

} // namespace relaydesk
