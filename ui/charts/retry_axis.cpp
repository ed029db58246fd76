// SPDX-License-Identifier: MIT
#include "charts/retry_axis.h"

#include "policy/retry_schedule.h"

#include <algorithm>
#include <cmath>

namespace relaydesk {
namespace {

// A constant phase longer than this is drawn as its first kHeadShown and last
// kTailShown retries around a labelled break; nothing else is ever elided.
constexpr int64_t kLongPhase = 100;
constexpr int64_t kHeadShown = 8;
constexpr int64_t kTailShown = 2;
// A run of hidden retries shorter than this is drawn after all.
constexpr int64_t kMinHidden = 10;
// Room left and right of the first and last retry, in retries.
constexpr double kXPadding = 0.6;

} // namespace

RetryAxis::RetryAxis(const std::vector<const RetrySchedule *> &schedules)
{
    std::vector<std::pair<int64_t, int64_t>> kept{{0, 0}};
    for (const RetrySchedule *schedule : schedules) {
        int64_t start = 1;
        for (const SchedulePhase &phase : schedule->phases()) {
            if (phase.retries == 0)
                continue;
            const int64_t end = start + phase.retries - 1;
            if (phase.phase != RetryPhase::Backoff && phase.retries > kLongPhase) {
                kept.emplace_back(start, start + kHeadShown - 1);
                kept.emplace_back(end - kTailShown + 1, end);
            } else {
                kept.emplace_back(start, end);
            }
            start = end + 1;
        }
        m_last = std::max(m_last, start - 1);
    }
    std::sort(kept.begin(), kept.end());
    int64_t shownUpTo = 0;
    int64_t hidden = 0;
    for (const auto &[from, to] : kept) {
        if (from - shownUpTo - 1 >= kMinHidden) {
            m_breaks.push_back({shownUpTo + 1, from - 1, 0, 0});
            hidden += from - 1 - shownUpTo;
        }
        shownUpTo = std::max(shownUpTo, to);
    }
    m_breakWidth = std::max(4.0, std::round(double(m_last - hidden) * 0.35));
    for (Break &gap : m_breaks) {
        gap.x0 = x(gap.first - 1);
        gap.x1 = x(gap.last + 1);
    }
}

double RetryAxis::low() const
{
    return -kXPadding;
}

double RetryAxis::high() const
{
    return x(m_last) + kXPadding;
}

double RetryAxis::x(int64_t retry) const
{
    double position = double(retry);
    for (const Break &gap : m_breaks) {
        if (gap.last >= retry)
            break;
        position += m_breakWidth - 1 - double(gap.count());
    }
    return position;
}

std::vector<std::pair<int64_t, int64_t>> RetryAxis::shownRuns(int64_t from, int64_t to) const
{
    std::vector<std::pair<int64_t, int64_t>> runs;
    int64_t start = from;
    for (const Break &gap : m_breaks) {
        if (gap.last < start || gap.first > to)
            continue;
        if (gap.first > start)
            runs.emplace_back(start, gap.first - 1);
        start = gap.last + 1;
    }
    if (start <= to)
        runs.emplace_back(start, to);
    return runs;
}

} // namespace relaydesk
