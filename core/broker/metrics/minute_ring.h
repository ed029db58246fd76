// SPDX-License-Identifier: MIT
#pragma once

#include "broker/clock_time.h"

#include <array>
#include <cstdint>

namespace relaydesk {

// One counter's total and its counts per clock minute over the last hour: a
// ring of 60 buckets indexed by the whole minute since the epoch. Adding at
// a later minute clears the buckets of the minutes skipped; counts older
// than an hour before the newest minute only reach the total. Fixed size
// whatever the run time. Plain value; not thread-safe (its owner locks).
class MinuteRing final {
public:
    static constexpr int kMinutes = 60;

    static std::int64_t minuteOf(ClockTime time);

    void add(ClockTime at, std::int64_t count);
    std::int64_t total() const { return m_total; }
    // The count of the `minutes` minutes ending with the minute of `now`
    // (1..kMinutes; the current minute and the minutes − 1 before it).
    std::int64_t inLast(int minutes, ClockTime now) const;
    // Counts per minute of the hour ending with the minute of `now`, oldest first.
    std::array<std::int64_t, kMinutes> lastHour(ClockTime now) const;

private:
    std::int64_t countAt(std::int64_t minute) const;

    std::array<std::int64_t, kMinutes> m_buckets{};
    std::int64_t m_newestMinute = 0; // the minute the newest bucket holds (after the first add)
    bool m_started = false;
    std::int64_t m_total = 0;
};

} // namespace relaydesk
