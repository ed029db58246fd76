// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace relaydesk::ip_literal {

// IP addresses as URL hosts spell them, read without resolving anything
// (broker/topics/endpoint_address.h). Pure.

using Bytes = std::array<std::uint8_t, 16>;   // an IPv6 address; IPv4 as ::ffff:a.b.c.d

// ::ffff:a.b.c.d of the IPv4 address `address`.
Bytes mappedIpv4(std::uint32_t address);

// `host` as an IPv4 address in any form URL parsers (inet_aton) take: 1–4
// parts, each decimal, 0… octal or 0x… hex, the last filling the remaining
// bytes — "0", "2852039166", "0xa9.254.43518". Nothing for anything else.
std::optional<std::uint32_t> ipv4Number(std::string_view host);

// An IPv6 address (no zone, no brackets), an embedded dotted IPv4 tail allowed.
std::optional<Bytes> ipv6Address(std::string_view text);

// The value of a hexadecimal digit, -1 for any other character.
int hexValue(char c);

} // namespace relaydesk::ip_literal
