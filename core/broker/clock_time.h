// SPDX-License-Identifier: MIT
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace relaydesk {

// Clock time (docs/behaviour.md §7): milliseconds since the Unix epoch, UTC. It is what
// every timestamp of the broker is in (attempt log, message times, due
// times); in scaled and virtual mode it runs apart from the wall time.
using ClockTime = std::chrono::sys_time<std::chrono::milliseconds>;
using ClockDuration = std::chrono::milliseconds;

inline int64_t toEpochMilliseconds(ClockTime time) { return time.time_since_epoch().count(); }
inline ClockTime fromEpochMilliseconds(int64_t milliseconds) { return ClockTime(ClockDuration(milliseconds)); }

// "2026-01-01T00:00:00.000Z": ISO 8601, UTC, always with milliseconds, as in
// the SNS envelope's Timestamp and the attempt log (docs/behaviour.md §4.1, 4.4). Years
// 0000–9999. Pure, thread-safe.
std::string formatIso8601(ClockTime time);

// The inverse, a little wider: "YYYY-MM-DDTHH:MM:SS" with an optional
// fraction of 1–9 digits (cut to milliseconds) and a zone "Z" or "±HH:MM".
// Nothing else (no leading/trailing blanks, no week dates). Pure, thread-safe.
std::optional<ClockTime> parseIso8601(std::string_view text);

} // namespace relaydesk
