// SPDX-License-Identifier: MIT
#include "broker/metrics/minute_ring.h"

#include <algorithm>

namespace relaydesk {

namespace {

std::size_t slotOf(std::int64_t minute)
{
    const std::int64_t slot = minute % MinuteRing::kMinutes;
    return std::size_t(slot < 0 ? slot + MinuteRing::kMinutes : slot);
}

} // namespace

std::int64_t MinuteRing::minuteOf(ClockTime time)
{
    const std::int64_t ms = toEpochMilliseconds(time);
    return ms >= 0 ? ms / 60000 : (ms - 59999) / 60000;
}

void MinuteRing::add(ClockTime at, std::int64_t count)
{
    m_total += count;
    const std::int64_t minute = minuteOf(at);
    if (!m_started) {
        m_newestMinute = minute;
        m_started = true;
    } else if (minute > m_newestMinute) {
        const std::int64_t skipped = std::min<std::int64_t>(minute - m_newestMinute, kMinutes);
        for (std::int64_t m = minute - skipped + 1; m <= minute; ++m)
            m_buckets[slotOf(m)] = 0;
        m_newestMinute = minute;
    }
    if (minute > m_newestMinute - kMinutes)
        m_buckets[slotOf(minute)] += count; // a little late (an older unit's time) still lands in its minute
}

std::int64_t MinuteRing::countAt(std::int64_t minute) const
{
    if (minute > m_newestMinute || minute <= m_newestMinute - kMinutes)
        return 0;
    return m_buckets[slotOf(minute)];
}

std::int64_t MinuteRing::inLast(int minutes, ClockTime now) const
{
    const std::int64_t end = minuteOf(now);
    std::int64_t sum = 0;
    for (std::int64_t m = end - std::clamp(minutes, 1, kMinutes) + 1; m <= end; ++m)
        sum += countAt(m);
    return sum;
}

std::array<std::int64_t, MinuteRing::kMinutes> MinuteRing::lastHour(ClockTime now) const
{
    std::array<std::int64_t, kMinutes> counts{};
    const std::int64_t end = minuteOf(now);
    for (int i = 0; i < kMinutes; ++i)
        counts[std::size_t(i)] = countAt(end - kMinutes + 1 + i);
    return counts;
}

} // namespace relaydesk
