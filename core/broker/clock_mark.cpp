// SPDX-License-Identifier: MIT
#include "clock_mark.h"

#include "store_calls.h"

#include <algorithm>
#include <string>

namespace relaydesk {

namespace {
constexpr const char *kClockKey = "clock.time";
constexpr const char *kWallKey = "clock.wall";
} // namespace

Result<std::optional<ClockMark>> readClockMark(Database &db)
{
    constexpr std::string_view sql = "SELECT CAST(value AS INTEGER) FROM settings WHERE key = ?";
    Result<std::optional<std::int64_t>> clock = selectOptionalInt64(db, sql, std::string(kClockKey));
    if (!clock)
        return clock.error();
    Result<std::optional<std::int64_t>> wall = selectOptionalInt64(db, sql, std::string(kWallKey));
    if (!wall)
        return wall.error();
    if (!*clock || !*wall)
        return std::optional<ClockMark>();
    return std::optional<ClockMark>(ClockMark{fromEpochMilliseconds(**clock), fromEpochMilliseconds(**wall)});
}

Status writeClockMark(Database &db, ClockMark mark)
{
    constexpr std::string_view sql = "INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?), (?, ?)";
    return executeStatement(db, sql, std::string(kClockKey), std::to_string(toEpochMilliseconds(mark.clock)),
                            std::string(kWallKey), std::to_string(toEpochMilliseconds(mark.wall)));
}

ClockTime resumeClockTime(const std::optional<ClockMark> &mark, ClockTime wallNow, std::optional<ClockTime> start,
                          ClockMode mode)
{
    ClockTime resume = start.value_or(wallNow);
    if (mark) {
        const ClockDuration closed = std::max(ClockDuration::zero(), wallNow - mark->wall);
        resume = std::max(resume, mark->clock + (mode == ClockMode::Virtual ? ClockDuration::zero() : closed));
    }
    return resume;
}

} // namespace relaydesk
