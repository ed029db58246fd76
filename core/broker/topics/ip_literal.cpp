// SPDX-License-Identifier: MIT
#include "broker/topics/ip_literal.h"

#include <algorithm>
#include <cctype>
#include <vector>

namespace relaydesk::ip_literal {

namespace {

// One part of an IPv4 number as inet_aton reads it: 0x… hex, 0… octal, else decimal.
std::optional<std::uint64_t> ipv4Part(std::string_view part)
{
    int base = 10;
    if (part.size() > 2 && part[0] == '0' && (part[1] == 'x' || part[1] == 'X')) {
        base = 16;
        part.remove_prefix(2);
    } else if (part.size() > 1 && part[0] == '0') {
        base = 8;
        part.remove_prefix(1);
    }
    if (part.empty() || part.size() > 12)
        return std::nullopt;
    std::uint64_t value = 0;
    for (char c : part) {
        const int digit = hexValue(c);
        if (digit < 0 || digit >= base)
            return std::nullopt;
        value = value * std::uint64_t(base) + std::uint64_t(digit);
    }
    return value;
}

} // namespace

int hexValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    c = char(std::tolower(static_cast<unsigned char>(c)));
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

Bytes mappedIpv4(std::uint32_t address)
{
    Bytes bytes{};
    bytes[10] = bytes[11] = 0xff;
    for (int i = 0; i < 4; ++i)
        bytes[std::size_t(12 + i)] = std::uint8_t(address >> (24 - 8 * i));
    return bytes;
}

std::optional<std::uint32_t> ipv4Number(std::string_view host)
{
    std::vector<std::uint64_t> parts;
    std::size_t start = 0;
    for (;;) {
        const std::size_t dot = host.find('.', start);
        const std::optional<std::uint64_t> part = ipv4Part(host.substr(start, dot == std::string_view::npos ? dot : dot - start));
        if (!part || parts.size() == 4)
            return std::nullopt;
        parts.push_back(*part);
        if (dot == std::string_view::npos)
            break;
        start = dot + 1;
    }
    std::uint64_t address = 0;
    for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
        if (parts[i] > 255)
            return std::nullopt;
        address |= parts[i] << (24 - 8 * i);
    }
    const std::size_t lastBits = 32 - 8 * (parts.size() - 1);
    if (parts.back() >= (std::uint64_t(1) << lastBits))
        return std::nullopt;
    return std::uint32_t(address | parts.back());
}

// An IPv6 address (no zone), an embedded IPv4 tail allowed.
std::optional<Bytes> ipv6Address(std::string_view text)
{
    std::vector<std::uint16_t> head;
    std::vector<std::uint16_t> tail;
    bool gap = false;
    std::size_t at = 0;
    if (text.substr(0, 2) == "::") {
        gap = true;
        at = 2;
    }
    while (at < text.size()) {
        std::vector<std::uint16_t> &groups = gap ? tail : head;
        const std::size_t end = std::min(text.find(':', at), text.size());
        const std::string_view group = text.substr(at, end - at);
        if (group.find('.') != std::string_view::npos && end == text.size()) {
            const std::optional<std::uint32_t> v4 = ipv4Number(group);
            if (!v4 || std::count(group.begin(), group.end(), '.') != 3)
                return std::nullopt;
            groups.push_back(std::uint16_t(*v4 >> 16));
            groups.push_back(std::uint16_t(*v4 & 0xffff));
            at = end;
            break;
        }
        if (group.empty() || group.size() > 4)
            return std::nullopt;
        std::uint16_t value = 0;
        for (char c : group) {
            if (hexValue(c) < 0)
                return std::nullopt;
            value = std::uint16_t(value * 16 + hexValue(c));
        }
        groups.push_back(value);
        at = end;
        if (at < text.size()) {
            if (text.substr(at, 2) == "::") {
                if (gap)
                    return std::nullopt;
                gap = true;
                at += 2;
            } else {
                ++at;
                if (at == text.size())
                    return std::nullopt;
            }
        }
    }
    const std::size_t count = head.size() + tail.size();
    if (count > 8 || (!gap && count != 8) || (gap && count == 8))
        return std::nullopt;
    std::vector<std::uint16_t> groups = head;
    groups.resize(8 - tail.size(), 0);
    groups.insert(groups.end(), tail.begin(), tail.end());
    Bytes bytes{};
    for (std::size_t i = 0; i < 8; ++i) {
        bytes[2 * i] = std::uint8_t(groups[i] >> 8);
        bytes[2 * i + 1] = std::uint8_t(groups[i] & 0xff);
    }
    return bytes;
}

} // namespace relaydesk::ip_literal
