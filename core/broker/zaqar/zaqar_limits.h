// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdint>

namespace relaydesk::zaqar {

// Zaqar's default limits (zaqar/conf/transport.py, zaqar/transport/validation.py;
// docs/behaviour.md §8.5): the values the /v2 API checks and the window
// shows, protocol-free so ui/ may include them (docs/architecture.md §2).
inline constexpr std::int64_t kDefaultMessageTtl = 3600;
inline constexpr std::int64_t kMinMessageTtl = 60;
inline constexpr std::int64_t kMaxMessageTtl = 1209600;
inline constexpr std::int64_t kMaxMessageDelay = 900;
inline constexpr std::int64_t kDefaultClaimTtl = 300;
inline constexpr std::int64_t kDefaultClaimGrace = 60;
inline constexpr std::int64_t kMinClaimTtl = 60;
inline constexpr std::int64_t kMaxClaimTtl = 43200;
inline constexpr std::int64_t kMinClaimGrace = 60;
inline constexpr std::int64_t kMaxClaimGrace = 43200;
inline constexpr std::int64_t kDefaultSubscriptionTtl = 3600;
inline constexpr std::int64_t kMinSubscriptionTtl = 60;
// A subscription's ttl must end by 9999-12-31T23:59:59Z (Python's
// datetime.max, the bound Zaqar's validation meets as an OverflowError).
inline constexpr std::int64_t kLastSubscriptionSecond = 253402300799;
inline constexpr int kMaxPerPage = 20;              // queues, messages, subscriptions per page; claim and pop limit
inline constexpr std::size_t kMaxMessagesPostSize = 256 * 1024;
inline constexpr std::size_t kMaxQueueMetadata = 64 * 1024;
inline constexpr std::size_t kMaxQueueName = 64;
inline constexpr const char *kLimitProblem = "Limit must be at least 1 and may not be greater than 20.";

} // namespace relaydesk::zaqar
