// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <vector>

namespace relaydesk {

// Time-axis ticks at round steps (docs/window.md "Words and numbers"): 1, 2,
// 5, 10, 15, 30 s; 1, 2, 5, 10, 15, 30 min; 1, 2, 6, 12 h; 1, 2, 7 d. A
// QDateTimeAxis puts its ticks evenly from its minimum to its maximum, so the
// range is widened to whole steps (at most one step each side) and the tick
// count follows. Pure; any thread.
struct TimeTicks {
    std::int64_t fromMs = 0; // a multiple of stepMs
    std::int64_t toMs = 0;   // a multiple of stepMs, > fromMs
    std::int64_t stepMs = 0;
    int count = 2;           // (toMs - fromMs) / stepMs + 1, ≤ maxTicks when a step allows it
};

// The smallest round step that shows [fromMs, toMs] with at most `maxTicks`
// ticks (at least 2); the largest step when none does.
TimeTicks roundTimeTicks(std::int64_t fromMs, std::int64_t toMs, int maxTicks);

// Ticks at round times inside a range that stays as it is (the dashboard's
// activity chart, whose right edge is "now"): every multiple of the smallest
// round step ≥ minStepMs that puts at most `maxTicks` of them in [fromMs, toMs]
// (the largest step when none does). Even spacing; may be empty when the
// range is shorter than the step.
struct TicksWithin {
    std::int64_t stepMs = 0;
    std::vector<std::int64_t> atMs; // ascending, each a multiple of stepMs
};
TicksWithin roundTicksWithin(std::int64_t fromMs, std::int64_t toMs, int maxTicks, std::int64_t minStepMs = 0);

} // namespace relaydesk
