// SPDX-License-Identifier: MIT
#pragma once

#include "result.h"

#include <string_view>

namespace relaydesk {

// Name rules of queues and topics (docs/behaviour.md §1, 10). Pure functions, thread-safe.

inline constexpr std::string_view kFifoSuffix = ".fifo";
inline constexpr std::size_t kMaxQueueNameLength = 80;     // including ".fifo"
inline constexpr std::size_t kMaxTopicNameLength = 256;    // including ".fifo"

// True when `name` ends in ".fifo" (the mark of a FIFO queue or topic).
bool hasFifoSuffix(std::string_view name);

// 1–80 characters of [A-Za-z0-9_-]; a FIFO queue's name is such a base
// followed by ".fifo", the suffix counting in the 80. Whether the name is
// FIFO is read from the suffix. InvalidParameterValue with the service's
// sentence otherwise.
Status validateQueueName(std::string_view name);

// 1–256 characters of [A-Za-z0-9_-], FIFO names ending ".fifo" (counted).
// SnsInvalidParameter "Invalid parameter: Topic Name" otherwise.
Status validateTopicName(std::string_view name);

} // namespace relaydesk
