// SPDX-License-Identifier: MIT
#include "charts/time_ticks.h"

#include <algorithm>
#include <iterator>

namespace relaydesk {

namespace {

constexpr std::int64_t kSecond = 1000, kMinute = 60 * kSecond, kHour = 60 * kMinute, kDay = 24 * kHour;
constexpr std::int64_t kSteps[] = {kSecond,      2 * kSecond,  5 * kSecond,  10 * kSecond, 15 * kSecond,
                                   30 * kSecond, kMinute,      2 * kMinute,  5 * kMinute,  10 * kMinute,
                                   15 * kMinute, 30 * kMinute, kHour,        2 * kHour,    6 * kHour,
                                   12 * kHour,   kDay,         2 * kDay,     7 * kDay};

std::int64_t floorTo(std::int64_t value, std::int64_t step)
{
    const std::int64_t q = value / step;
    return (value % step != 0 && value < 0 ? q - 1 : q) * step;
}

} // namespace

TimeTicks roundTimeTicks(std::int64_t fromMs, std::int64_t toMs, int maxTicks)
{
    maxTicks = std::max(maxTicks, 2);
    toMs = std::max(toMs, fromMs + 1);
    TimeTicks ticks;
    for (std::int64_t step : kSteps) {
        ticks.stepMs = step;
        ticks.fromMs = floorTo(fromMs, step);
        ticks.toMs = floorTo(toMs, step) + (toMs % step != 0 ? step : 0);
        ticks.count = int((ticks.toMs - ticks.fromMs) / step) + 1;
        if (ticks.count <= maxTicks)
            break;
    }
    return ticks;
}

TicksWithin roundTicksWithin(std::int64_t fromMs, std::int64_t toMs, int maxTicks, std::int64_t minStepMs)
{
    maxTicks = std::max(maxTicks, 1);
    TicksWithin ticks;
    std::int64_t first = 0;
    for (std::int64_t step : kSteps) {
        if (step < minStepMs && step != kSteps[std::size(kSteps) - 1])
            continue;
        ticks.stepMs = step;
        first = floorTo(fromMs, step) + (floorTo(fromMs, step) < fromMs ? step : 0);
        if (toMs < first || (toMs - first) / step + 1 <= maxTicks)
            break;
    }
    for (std::int64_t at = first; at <= toMs; at += ticks.stepMs)
        ticks.atMs.push_back(at);
    return ticks;
}

} // namespace relaydesk
