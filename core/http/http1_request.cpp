// SPDX-License-Identifier: MIT
#include "http/http1_request.h"

#include "http/http1_field_syntax.h"
#include "http/http_delivery_client.h"

#include <QUrl>

#include <algorithm>

namespace relaydesk {

namespace {

using http1::equalsNoCase;

bool isOurs(const std::string &name)
{
    return equalsNoCase(name, "host") || equalsNoCase(name, "content-length")
           || equalsNoCase(name, "transfer-encoding") || equalsNoCase(name, "connection");
}

bool hasAuthorization(const HttpDeliveryRequest &request)
{
    return std::any_of(request.headers.begin(), request.headers.end(),
                       [](const auto &header) { return equalsNoCase(header.first, "authorization"); });
}

void appendFieldText(QByteArray &wire, const std::string &text)
{
    if (text.find_first_of("\r\n") == std::string::npos) {
        wire.append(text.data(), qsizetype(text.size()));
        return;
    }
    for (const char c : text)
        wire += (c == '\r' || c == '\n') ? ' ' : c; // no header injection
}

} // namespace

std::string Http1Origin::key() const
{
    return (tls ? "https://" : "http://") + host.toStdString() + ':' + std::to_string(port);
}

std::optional<Http1Request> http1PostFor(const HttpDeliveryRequest &request, std::string &error)
{
    const QUrl url(QString::fromStdString(request.url), QUrl::StrictMode);
    const QString scheme = url.scheme().toLower();
    if (!url.isValid() || (scheme != QLatin1String("http") && scheme != QLatin1String("https")) || url.host().isEmpty()) {
        error = "not an http or https URL: '" + request.url + "'";
        return std::nullopt;
    }
    Http1Request out;
    out.origin.tls = scheme == QLatin1String("https");
    out.origin.host = url.host();
    const int defaultPort = out.origin.tls ? 443 : 80;
    out.origin.port = quint16(url.port(defaultPort));

    QByteArray hostField = url.host(QUrl::FullyEncoded).toLatin1();
    if (hostField.contains(':'))
        hostField = '[' + hostField + ']';
    if (out.origin.port != defaultPort)
        hostField += ':' + QByteArray::number(out.origin.port);
    QByteArray target = url.path(QUrl::FullyEncoded).toLatin1();
    if (target.isEmpty())
        target = "/";
    if (url.hasQuery())
        target += '?' + url.query(QUrl::FullyEncoded).toLatin1();

    QByteArray &wire = out.wire;
    wire.reserve(qsizetype(256 + target.size() + request.body.size()));
    wire += "POST " + target + " HTTP/1.1\r\nHost: " + hostField + "\r\n";
    for (const auto &[name, value] : request.headers) {
        if (name.empty() || isOurs(name))
            continue;
        appendFieldText(wire, name);
        wire += ": ";
        appendFieldText(wire, value);
        wire += "\r\n";
    }
    if (!url.userInfo().isEmpty() && !hasAuthorization(request)) {
        const QByteArray credentials = url.userName(QUrl::FullyDecoded).toUtf8() + ':' + url.password(QUrl::FullyDecoded).toUtf8();
        wire += "Authorization: Basic " + credentials.toBase64() + "\r\n";
    }
    wire += "Content-Length: " + QByteArray::number(qsizetype(request.body.size())) + "\r\nConnection: keep-alive\r\n\r\n";
    wire.append(request.body.data(), qsizetype(request.body.size()));
    return out;
}

} // namespace relaydesk
