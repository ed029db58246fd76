// SPDX-License-Identifier: MIT
#include "host/serve_identity.h"

#include <algorithm>

namespace relaydesk {

namespace {

bool isHostCharacter(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
           c == '_';
}

// "host", "host:port" or "[v6]:port" with nothing else in it.
bool isPlainAuthority(std::string_view text)
{
    if (text.empty() || text.size() > 255)
        return false;
    std::string_view host = text;
    std::string_view port;
    if (text.front() == '[') {
        const auto close = text.find(']');
        if (close == std::string_view::npos || close < 2)
            return false;
        const std::string_view inside = text.substr(1, close - 1);
        if (!std::all_of(inside.begin(), inside.end(), [](char c) {
                return c == ':' || c == '.' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
            }))
            return false;
        const std::string_view rest = text.substr(close + 1);
        if (!rest.empty() && rest.front() != ':')
            return false;
        port = rest.empty() ? rest : rest.substr(1);
        host = {};
        if (!rest.empty() && port.empty())
            return false;
    } else if (const auto colon = text.find(':'); colon != std::string_view::npos) {
        host = text.substr(0, colon);
        port = text.substr(colon + 1);
        if (port.empty())
            return false;
    }
    if (text.front() != '[' && (host.empty() || !std::all_of(host.begin(), host.end(), isHostCharacter)))
        return false;
    return port.size() <= 5 && std::all_of(port.begin(), port.end(), [](char c) { return c >= '0' && c <= '9'; });
}

} // namespace

std::string reachableEndpoint(const QHostAddress &bind, quint16 port)
{
    QHostAddress address = bind;
    if (address == QHostAddress::Any || address == QHostAddress::AnyIPv4)
        address = QHostAddress::LocalHost;
    else if (address == QHostAddress::AnyIPv6)
        address = QHostAddress::LocalHostIPv6;
    QString host = address.toString();
    if (address.protocol() == QAbstractSocket::IPv6Protocol)
        host = QLatin1Char('[') + host + QLatin1Char(']');
    return QStringLiteral("http://%1:%2").arg(host).arg(port).toStdString();
}

BrokerIdentity serveIdentity(const ServeOptions &options, quint16 port, const BrokerIdentity &fromConfig)
{
    BrokerIdentity identity = fromConfig;
    if (!options.region.isEmpty())
        identity.region = options.region.toStdString();
    if (!options.accountId.isEmpty())
        identity.accountId = options.accountId.toStdString();
    identity.endpoint =
        options.advertisedUrl.isEmpty() ? reachableEndpoint(options.bind, port) : options.advertisedUrl.toStdString();
    return identity;
}

std::optional<BrokerIdentity> identityForHost(const BrokerIdentity &broker, bool advertised, QByteArrayView host)
{
    const std::string_view text(host.data(), static_cast<std::size_t>(host.size()));
    if (advertised || !isPlainAuthority(text))
        return std::nullopt;
    BrokerIdentity identity = broker;
    identity.endpoint = "http://" + std::string(text);
    return identity;
}

} // namespace relaydesk
