// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>

namespace relaydesk::amqp_limits {

// What the Service Bus port holds for a peer (docs/reliability.md#amqp-port).
// Each is announced where AMQP has a field for it, and enforced.

// The max-frame-size of every connection (Azure Service Bus announces the
// same). Proton refuses a larger frame from its header, before its body:
// the connection is closed with amqp:connection:framing-error.
inline constexpr std::uint32_t kMaxFrameSize = 65'536;

// The max-message-size of a link: the emulator's (Standard tier) message
// size; a delivery past it detaches the link with
// amqp:link:message-size-exceeded at the frame that passes it.
inline constexpr std::uint64_t kMaxMessageSize = 262'144;

// The max-message-size of a $cbs link: a put-token request (a SAS token is
// a few hundred bytes).
inline constexpr std::uint64_t kMaxTokenRequestSize = 65'536;

// Before a connection's first accepted token (serve --credentials): the
// sessions and links it may begin, past which it is closed with
// amqp:resource-limit-exceeded. With the $cbs message size and the frame
// size they bound what it makes the broker hold.
inline constexpr int kMaxSessionsBeforeToken = 16;
inline constexpr int kMaxLinksBeforeToken = 16;

} // namespace relaydesk::amqp_limits
