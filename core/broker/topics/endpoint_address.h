// SPDX-License-Identifier: MIT
#pragma once

#include "broker/broker_identity.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace relaydesk {

// Where an HTTP/S subscriber may not be (docs/behaviour.md §4.1): the places
// a subscription could reach that are no endpoint of the user's — link-local
// addresses (169.254.0.0/16, fe80::/10: where cloud metadata services
// answer), the cloud metadata names and addresses (metadata.google.internal,
// fd00:ec2::254, 100.100.100.200), the unspecified, "this network",
// multicast and broadcast addresses (http://0/ reaches the local host), and
// the broker's own API. Loopback and private ranges stay allowed: this is a
// local harness, and its own mock endpoints (/_mock/NAME) are subscribers.

// Why `bytes` (an IPv6 address; IPv4 as ::ffff:a.b.c.d) may not be a
// subscriber, or nothing. Pure.
std::optional<std::string> forbiddenAddressReason(const std::array<std::uint8_t, 16> &bytes);

// Why the http(s) URL `endpoint` may not be a subscriber, or nothing: its
// host read without resolving any name — literal addresses in every form a
// URL parser accepts (http://0/, http://2852039166/, http://0xa9.254.169.254/,
// [::ffff:169.254.169.254]), the metadata names — then the broker's own API:
// `identity.endpoint`'s port on a loopback host or on its host, any path but
// /_mock/. A name that resolves is not looked up here (the delivery client
// checks the address it connects to). Pure.
std::optional<std::string> forbiddenEndpointReason(std::string_view endpoint, const BrokerIdentity &identity);

} // namespace relaydesk
