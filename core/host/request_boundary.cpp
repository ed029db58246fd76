// SPDX-License-Identifier: MIT
#include "host/request_boundary.h"

#include "broker/echoed_value.h"
#include "host/serve_options.h"
#include "http/http_request.h"

#include <QNetworkInterface>
#include <QUrl>

#include <algorithm>
#include <string_view>

namespace relaydesk {

namespace {

// A host[:port] as a Host header, an origin or --allow-host carries it.
struct Authority {
    std::string name;                      // lowercase, without the trailing dot; empty for an address
    std::optional<QHostAddress> address;
    std::optional<quint16> port;
};

bool isDigit(char c) { return c >= '0' && c <= '9'; }

bool isNameCharacter(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || isDigit(c) || c == '-' || c == '.' || c == '_';
}

bool isIpv6Character(char c)
{
    return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') || c == ':' || c == '.';
}

std::optional<quint16> readPort(std::string_view text)
{
    if (text.empty() || text.size() > 5 || !std::all_of(text.begin(), text.end(), isDigit))
        return std::nullopt;
    unsigned value = 0;
    for (char c : text)
        value = value * 10 + unsigned(c - '0');
    if (value > 65535)
        return std::nullopt;
    return static_cast<quint16>(value);
}

// Four parts 0–255 in decimal without leading zeros: the only form of an
// IPv4 address a browser sends (it rewrites 2130706433 or 0x7f.1 first).
bool isDottedDecimal(std::string_view text)
{
    int parts = 0;
    std::size_t start = 0;
    while (true) {
        const std::size_t dot = text.find('.', start);
        const std::string_view part = text.substr(start, dot == std::string_view::npos ? dot : dot - start);
        if (part.empty() || part.size() > 3 || !std::all_of(part.begin(), part.end(), isDigit) ||
            (part.size() > 1 && part.front() == '0') || std::stoi(std::string(part)) > 255)
            return false;
        ++parts;
        if (dot == std::string_view::npos)
            return parts == 4;
        start = dot + 1;
    }
}

QHostAddress addressOf(std::string_view text)
{
    return QHostAddress(QString::fromLatin1(text.data(), static_cast<qsizetype>(text.size())));
}

// RFC 3986's host[:port] with these limits: IPv6 only in brackets and without
// a zone, IPv4 only in dotted decimal, a name of letters, digits, '-', '_'
// and '.' (one trailing dot dropped), a port of 0–65535. Nothing else —
// no user info, no percent-encoding — is an authority.
std::optional<Authority> readAuthority(std::string_view text)
{
    Authority authority;
    std::string_view host = text;
    std::optional<std::string_view> port;
    if (!text.empty() && text.front() == '[') {
        const std::size_t close = text.find(']');
        if (close == std::string_view::npos)
            return std::nullopt;
        const std::string_view inside = text.substr(1, close - 1);
        if (inside.empty() || !std::all_of(inside.begin(), inside.end(), isIpv6Character))
            return std::nullopt;
        const QHostAddress address = addressOf(inside);
        if (address.protocol() != QAbstractSocket::IPv6Protocol)
            return std::nullopt;
        authority.address = address;
        const std::string_view rest = text.substr(close + 1);
        if (!rest.empty()) {
            if (rest.front() != ':')
                return std::nullopt;
            port = rest.substr(1);
        }
    } else {
        if (const std::size_t colon = text.find(':'); colon != std::string_view::npos) {
            host = text.substr(0, colon);
            port = text.substr(colon + 1);
        }
        if (host.empty() || host.size() > 254 || !std::all_of(host.begin(), host.end(), isNameCharacter))
            return std::nullopt;
        if (isDottedDecimal(host)) {
            authority.address = addressOf(host);
        } else {
            std::string name(host);
            if (name.back() == '.')
                name.pop_back();
            if (name.empty() || name.front() == '.' || name.back() == '.' || name.find("..") != std::string::npos)
                return std::nullopt;
            std::transform(name.begin(), name.end(), name.begin(),
                           [](char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; });
            authority.name = std::move(name);
        }
    }
    if (port) {
        authority.port = readPort(*port);
        if (!authority.port)
            return std::nullopt;
    }
    return authority;
}

// The authority of an absolute-form request target ("http://HOST[:PORT]/…",
// scheme in any case), without user info; nothing for any other form.
std::optional<QByteArray> absoluteFormAuthority(const QByteArray &target)
{
    const qsizetype separator = target.indexOf("://");
    if (separator < 0 || target.indexOf('/') < separator)
        return std::nullopt;
    const QByteArray scheme = target.left(separator).toLower();
    if (scheme != "http" && scheme != "https")
        return std::nullopt;
    const qsizetype from = separator + 3;
    qsizetype end = from;
    while (end < target.size() && target[end] != '/' && target[end] != '?' && target[end] != '#')
        ++end;
    return target.mid(from, end - from);   // user info stays in: readAuthority refuses it
}

bool isLoopbackName(const std::string &name)
{
    constexpr std::string_view kLocalhost = "localhost";
    constexpr std::string_view kSubdomain = ".localhost";   // RFC 6761: never a public name
    return name == kLocalhost ||
           (name.size() > kSubdomain.size() && name.compare(name.size() - kSubdomain.size(), kSubdomain.size(), kSubdomain) == 0);
}

bool sameAddress(const QHostAddress &a, const QHostAddress &b)
{
    return a.isEqual(b, QHostAddress::TolerantConversion);
}

bool sameHost(const Authority &a, const Authority &b)
{
    if (a.address && b.address)
        return sameAddress(*a.address, *b.address);
    return !a.address && !b.address && a.name == b.name;
}

// Whether `origin` ("http://host[:port]") is the origin `host` (the Host
// header) belongs to: http or https, the same host, the same port, a missing
// one being the scheme's default.
bool isOwnOrigin(std::string_view origin, const Authority &host)
{
    const std::size_t separator = origin.find("://");
    if (separator == std::string_view::npos)
        return false;
    std::string scheme(origin.substr(0, separator));
    std::transform(scheme.begin(), scheme.end(), scheme.begin(),
                   [](char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; });
    if (scheme != "http" && scheme != "https")
        return false;
    const std::optional<Authority> page = readAuthority(origin.substr(separator + 3));
    if (!page || !sameHost(*page, host))
        return false;
    const quint16 defaultPort = scheme == "http" ? 80 : 443;
    return page->port.value_or(defaultPort) == host.port.value_or(defaultPort);
}

std::string_view view(const QByteArray &bytes)
{
    return {bytes.constData(), static_cast<std::size_t>(bytes.size())};
}

std::string hostText(const Authority &authority)
{
    if (!authority.address)
        return authority.name;
    const QString text = authority.address->toString();
    return (authority.address->protocol() == QAbstractSocket::IPv6Protocol ? "[" + text + "]" : text).toStdString();
}

WireError misdirected(const QByteArray &host, const std::optional<Authority> &authority)
{
    const std::string allow = authority ? hostText(*authority) : std::string("NAME");
    return WireError::misdirectedRequest(
        "This broker does not answer to the host " + echoedValue(view(host)) +
        ": it answers to localhost, its own addresses, the --advertised-url host and the hosts allowed with "
        "--allow-host (a web page can reach 127.0.0.1 under a name of its own: DNS rebinding). To reach it "
        "under this name, start it with: relaydesk serve --allow-host " + allow + " (the window takes the same option).");
}

WireError foreignOrigin(const QByteArray &origin)
{
    return WireError::accessDenied(
        "Requests from web pages are refused: the Origin " + echoedValue(view(origin)) +
        " is not this broker's own, and the broker allows no cross-origin request (no CORS). Send the request "
        "from a program (an SDK, the aws CLI, curl), which sends no Origin.");
}

} // namespace

bool RequestBoundary::Hosts::add(const QString &host)
{
    QString text = host.trimmed();
    if (text.contains(QLatin1Char(':')) && !text.startsWith(QLatin1Char('[')))
        text = QLatin1Char('[') + text + QLatin1Char(']');   // an IPv6 address without brackets
    const QByteArray bytes = text.toUtf8();
    const std::optional<Authority> authority = readAuthority(view(bytes));
    if (!authority || authority->port)
        return false;
    if (authority->address)
        addresses.append(*authority->address);
    else
        names.push_back(authority->name);
    return true;
}

RequestBoundary::RequestBoundary(Hosts hosts) : m_hosts(std::move(hosts)) {}

std::optional<WireError> RequestBoundary::check(const HttpRequest &request) const
{
    int hosts = 0;
    int origins = 0;
    QByteArray host;
    QByteArray origin;
    for (const auto &[name, value] : request.headers()) {
        if (name.compare("host", Qt::CaseInsensitive) == 0) {
            ++hosts;
            host = value;
        } else if (name.compare("origin", Qt::CaseInsensitive) == 0) {
            ++origins;
            origin = value;
        }
    }
    if (hosts > 1)
        return WireError::misdirectedRequest("The request has more than one Host header.");
    // RFC 9112 §3.2.2: an absolute-form target's authority takes the place of Host.
    if (const std::optional<QByteArray> named = absoluteFormAuthority(request.target())) {
        host = *named;
        hosts = 1;
    } else if (hosts == 0 && !request.isHttp10()) {
        return WireError::malformedRequest("An HTTP/1.1 request must carry a Host header (RFC 9112 §3.2).");
    }
    std::optional<Authority> authority;
    if (hosts == 1) {
        authority = readAuthority(view(host));
        const bool answered =
            authority && (authority->address
                              ? authority->address->isLoopback() ||
                                    std::any_of(m_hosts.addresses.begin(), m_hosts.addresses.end(),
                                                [&](const QHostAddress &own) { return sameAddress(own, *authority->address); })
                              : isLoopbackName(authority->name) ||
                                    std::find(m_hosts.names.begin(), m_hosts.names.end(), authority->name) !=
                                        m_hosts.names.end());
        if (!answered)
            return misdirected(host, authority);
    }
    if (origins == 0)
        return std::nullopt;
    if (origins > 1 || !authority || !isOwnOrigin(view(origin), *authority))
        return foreignOrigin(origin);
    return std::nullopt;
}

RequestBoundary::Hosts brokerHosts(const ServeOptions &options)
{
    RequestBoundary::Hosts hosts;
    for (const QString &allowed : options.allowHosts)
        hosts.add(allowed);   // checked by parseServeOptions
    if (!options.advertisedUrl.isEmpty())
        hosts.add(QUrl(options.advertisedUrl).host());
    const QHostAddress &bind = options.bind;
    if (bind == QHostAddress::Any || bind == QHostAddress::AnyIPv4 || bind == QHostAddress::AnyIPv6)
        hosts.addresses += QNetworkInterface::allAddresses();
    else
        hosts.addresses.append(bind);
    return hosts;
}

} // namespace relaydesk
