// SPDX-License-Identifier: MIT
#include "broker/topics/endpoint_address.h"

#include "broker/topics/ip_literal.h"

#include <algorithm>
#include <cctype>

namespace relaydesk {

namespace {

using ip_literal::Bytes;
using ip_literal::hexValue;
using ip_literal::ipv4Number;
using ip_literal::ipv6Address;
using ip_literal::mappedIpv4;

std::string lowercase(std::string_view text)
{
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return out;
}

std::string percentDecoded(std::string_view text)
{
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '%' && i + 2 < text.size() && hexValue(text[i + 1]) >= 0 && hexValue(text[i + 2]) >= 0) {
            out += char(hexValue(text[i + 1]) * 16 + hexValue(text[i + 2]));
            i += 2;
        } else {
            out += text[i];
        }
    }
    return out;
}

std::optional<std::string> forbiddenIpv4Reason(std::uint32_t a)
{
    if ((a >> 24) == 0)
        return std::string("an address of \"this network\" (0.0.0.0/8: a connection to it reaches this host)");
    if ((a >> 16) == 0xa9fe)
        return std::string("a link-local address (169.254.0.0/16, where cloud metadata services answer)");
    if (a == 0x646464c8)
        return std::string("a cloud metadata address (100.100.100.200)");
    if ((a >> 28) == 0xe)
        return std::string("a multicast address (224.0.0.0/4)");
    if ((a >> 28) == 0xf)
        return std::string("a reserved or broadcast address (240.0.0.0/4)");
    return std::nullopt;
}

// Host and port of "scheme://[user@]host[:port]…" and what follows the authority.
struct UrlParts {
    std::string scheme;
    std::string host;            // percent-decoded, lowercase, without brackets or a trailing dot
    bool bracketed = false;
    std::optional<int> port;
    std::string path;            // from the first '/', '?' or '#' after the authority
};

std::optional<UrlParts> splitUrl(std::string_view url)
{
    const std::size_t separator = url.find("://");
    if (separator == std::string_view::npos)
        return std::nullopt;
    UrlParts parts;
    parts.scheme = lowercase(url.substr(0, separator));
    const std::string_view rest = url.substr(separator + 3);
    const std::size_t authorityEnd = std::min(rest.find_first_of("/?#\\"), rest.size());
    std::string_view authority = rest.substr(0, authorityEnd);
    parts.path = std::string(rest.substr(authorityEnd));
    if (const std::size_t at = authority.rfind('@'); at != std::string_view::npos)
        authority.remove_prefix(at + 1);
    std::string_view host = authority;
    std::string_view port;
    if (!authority.empty() && authority.front() == '[') {
        const std::size_t close = authority.find(']');
        if (close == std::string_view::npos)
            return std::nullopt;
        host = authority.substr(1, close - 1);
        parts.bracketed = true;
        if (close + 1 < authority.size() && authority[close + 1] == ':')
            port = authority.substr(close + 2);
    } else if (const std::size_t colon = authority.rfind(':'); colon != std::string_view::npos) {
        host = authority.substr(0, colon);
        port = authority.substr(colon + 1);
    }
    parts.host = lowercase(percentDecoded(host));
    if (!parts.host.empty() && parts.host.back() == '.')
        parts.host.pop_back();
    if (!port.empty() && port.size() <= 5 && std::all_of(port.begin(), port.end(), [](char c) { return c >= '0' && c <= '9'; }))
        parts.port = std::stoi(std::string(port));
    else if (port.empty())
        parts.port = parts.scheme == "https" ? 443 : 80;
    return parts;
}

std::optional<Bytes> literalAddress(const UrlParts &parts)
{
    if (parts.bracketed)
        return ipv6Address(parts.host.substr(0, parts.host.find('%')));
    if (const std::optional<std::uint32_t> v4 = ipv4Number(parts.host))
        return mappedIpv4(*v4);
    return std::nullopt;
}

bool isLoopbackHost(const UrlParts &parts)
{
    if (parts.host == "localhost" || (parts.host.size() > 10 && parts.host.ends_with(".localhost")))
        return true;
    const std::optional<Bytes> address = literalAddress(parts);
    if (!address)
        return false;
    const Bytes loopback6 = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
    const bool mapped = std::all_of(address->begin(), address->begin() + 10, [](std::uint8_t b) { return b == 0; }) &&
                        (*address)[10] == 0xff && (*address)[11] == 0xff;
    return *address == loopback6 || (mapped && (*address)[12] == 127);
}

// A path under /_mock/ that no dot segment can lead out of.
bool isMockPath(const std::string &path)
{
    const std::string lower = lowercase(path);
    return lower.starts_with("/_mock/") && lower.find("..") == std::string::npos && lower.find("%2e") == std::string::npos;
}

constexpr std::string_view kMetadataNames[] = {
    "metadata.google.internal", "metadata.goog", "metadata", "instance-data", "instance-data.ec2.internal",
    "metadata.azure.internal", "metadata.tencentyun.com",
};

} // namespace

std::optional<std::string> forbiddenAddressReason(const std::array<std::uint8_t, 16> &b)
{
    const bool zeroHead = std::all_of(b.begin(), b.begin() + 10, [](std::uint8_t x) { return x == 0; });
    const std::uint32_t tail = std::uint32_t(b[12]) << 24 | std::uint32_t(b[13]) << 16 | std::uint32_t(b[14]) << 8 | b[15];
    if (zeroHead && b[10] == 0xff && b[11] == 0xff)
        return forbiddenIpv4Reason(tail);
    const Bytes nat64 = {0, 0x64, 0xff, 0x9b};
    if (std::equal(nat64.begin(), nat64.begin() + 4, b.begin()) &&
        std::all_of(b.begin() + 4, b.begin() + 12, [](std::uint8_t x) { return x == 0; }))
        return forbiddenIpv4Reason(tail);
    if (std::all_of(b.begin(), b.end(), [](std::uint8_t x) { return x == 0; }))
        return std::string("the unspecified address (::: a connection to it reaches this host)");
    if (b[0] == 0xfe && (b[1] & 0xc0) == 0x80)
        return std::string("a link-local address (fe80::/10)");
    if (b[0] == 0xff)
        return std::string("a multicast address (ff00::/8)");
    const Bytes awsMetadata = {0xfd, 0x00, 0x0e, 0xc2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02, 0x54};
    if (b == awsMetadata)
        return std::string("a cloud metadata address (fd00:ec2::254)");
    return std::nullopt;
}

std::optional<std::string> forbiddenEndpointReason(std::string_view endpoint, const BrokerIdentity &identity)
{
    const std::optional<UrlParts> parts = splitUrl(endpoint);
    if (!parts)
        return std::nullopt;
    const std::string shown = parts->bracketed ? "[" + parts->host + "]" : parts->host;
    if (const std::optional<Bytes> address = literalAddress(*parts))
        if (std::optional<std::string> reason = forbiddenAddressReason(*address))
            return "its host " + shown + " is " + *reason;
    if (std::find(std::begin(kMetadataNames), std::end(kMetadataNames), parts->host) != std::end(kMetadataNames))
        return "its host " + shown + " is a cloud metadata service's name";
    const std::optional<UrlParts> own = splitUrl(identity.endpoint);
    if (own && parts->port && parts->port == own->port && (isLoopbackHost(*parts) || parts->host == own->host) &&
        !isMockPath(parts->path))
        return "it is this broker's own API (" + identity.endpoint +
               "); of the broker's own port only the mock endpoints (/_mock/NAME) may be subscribed";
    return std::nullopt;
}

} // namespace relaydesk
