// SPDX-License-Identifier: MIT
#include "retry_schedule.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <numeric>

namespace relaydesk {

std::string_view retryPhaseName(RetryPhase phase)
{
    switch (phase) {
    case RetryPhase::Immediate: return "immediate";
    case RetryPhase::PreBackoff: return "preBackoff";
    case RetryPhase::Backoff: return "backoff";
    case RetryPhase::PostBackoff: return "postBackoff";
    }
    return "";
}

int64_t SchedulePhase::totalSeconds() const
{
    if (phase == RetryPhase::Backoff)
        return std::accumulate(delays.begin(), delays.end(), int64_t{0});
    return retries * delaySeconds;
}

RetrySchedule::RetrySchedule(Dialect dialect, BackoffFunction function, std::array<SchedulePhase, 4> phases)
    : m_dialect(dialect), m_function(function), m_phases(std::move(phases))
{
}

int64_t RetrySchedule::retries() const
{
    int64_t total = 0;
    for (const auto &phase : m_phases)
        total += phase.retries;
    return total;
}

int64_t RetrySchedule::totalDelaySeconds() const
{
    int64_t total = 0;
    for (const auto &phase : m_phases)
        total += phase.totalSeconds();
    return total;
}

int RetrySchedule::maxDelaySeconds() const
{
    int largest = 0;
    for (const auto &phase : m_phases) {
        if (phase.retries == 0)
            continue;
        if (phase.phase == RetryPhase::Backoff)
            largest = std::max(largest, *std::max_element(phase.delays.begin(), phase.delays.end()));
        else
            largest = std::max(largest, phase.delaySeconds);
    }
    return largest;
}

RetryPhase RetrySchedule::phaseOfRetry(int64_t retry) const
{
    assert(retry >= 1 && retry <= retries());
    int64_t first = 1;
    for (const auto &phase : m_phases) {
        if (retry < first + phase.retries)
            return phase.phase;
        first += phase.retries;
    }
    return RetryPhase::PostBackoff;
}

int RetrySchedule::delayBeforeRetry(int64_t retry) const
{
    assert(retry >= 1 && retry <= retries());
    int64_t first = 1;
    for (const auto &phase : m_phases) {
        if (retry < first + phase.retries)
            return phase.delayOf(retry - first);
        first += phase.retries;
    }
    return 0;
}

int64_t RetrySchedule::secondsUntilAttempt(int64_t attempt) const
{
    assert(attempt >= 0 && attempt <= retries());
    int64_t seconds = 0;
    int64_t remaining = attempt;
    for (const auto &phase : m_phases) {
        const int64_t taken = std::min(remaining, phase.retries);
        if (phase.phase == RetryPhase::Backoff)
            seconds += std::accumulate(phase.delays.begin(), phase.delays.begin() + taken, int64_t{0});
        else
            seconds += taken * phase.delaySeconds;
        remaining -= taken;
    }
    return seconds;
}

namespace {

// Whole seconds, halves away from zero. A tiny tolerance keeps values that are
// mathematically x.5 (but computed as x.4999999) rounding the way the spec says.
int roundDelay(double seconds)
{
    return int(std::round(seconds + 1e-9));
}

} // namespace

double backoffFormula(BackoffFunction function, int i, int n, int minDelay, int maxDelay)
{
    const double lo = minDelay;
    const double hi = maxDelay;
    if (n <= 1)
        return lo;
    const double t = double(i - 1) / double(n - 1);
    switch (function) {
    case BackoffFunction::Linear:
        return lo + (hi - lo) * t;
    case BackoffFunction::Arithmetic:
        return lo + (hi - lo) * t * t;
    case BackoffFunction::Geometric:
        return std::pow(hi - lo + 1.0, t) + lo - 1.0;
    case BackoffFunction::Exponential: {
        const double a = (hi - lo) / (std::exp(double(n - 1)) - 1.0);
        return a * std::exp(double(i - 1)) + lo - a;
    }
    }
    return lo;
}

std::vector<int> backoffDelays(BackoffFunction function, int n, int minDelay, int maxDelay)
{
    std::vector<int> delays(size_t(std::max(n, 0)));
    for (int i = 1; i <= n; ++i) {
        // Each curve is capped by the one before it in the order linear,
        // arithmetic, geometric, exponential (docs/behaviour.md §3.2 invariant).
        int capped = roundDelay(backoffFormula(BackoffFunction::Linear, i, n, minDelay, maxDelay));
        for (int f = 1; f <= int(function); ++f)
            capped = std::min(capped, roundDelay(backoffFormula(BackoffFunction(f), i, n, minDelay, maxDelay)));
        delays[size_t(i - 1)] = capped;
    }
    return delays;
}

int zaqarBackoffRetries(int minDelay, int maxDelay)
{
    return (maxDelay - minDelay) / 5 + 1;
}

RetrySchedule planSchedule(const RetryPolicy &policy, Dialect dialect)
{
    std::array<SchedulePhase, 4> phases;
    phases[0] = {RetryPhase::Immediate, policy.numNoDelayRetries, 0, {}};
    phases[1] = {RetryPhase::PreBackoff, policy.numMinDelayRetries, policy.minDelayTarget, {}};
    phases[3] = {RetryPhase::PostBackoff, policy.numMaxDelayRetries, policy.maxDelayTarget, {}};

    SchedulePhase backoff{RetryPhase::Backoff, 0, 0, {}};
    if (dialect == Dialect::Zaqar) {
        const int n = zaqarBackoffRetries(policy.minDelayTarget, policy.maxDelayTarget);
        if (policy.backoffFunction == BackoffFunction::Linear) {
            // The blueprint's step rule: min, min + 5, ... up to and including max.
            for (int i = 0; i < n; ++i)
                backoff.delays.push_back(policy.minDelayTarget + 5 * i);
        } else {
            backoff.delays = backoffDelays(policy.backoffFunction, n, policy.minDelayTarget, policy.maxDelayTarget);
        }
    } else {
        backoff.delays = backoffDelays(policy.backoffFunction, std::max(policy.backoffRetries(), 0),
                                       policy.minDelayTarget, policy.maxDelayTarget);
    }
    backoff.retries = int64_t(backoff.delays.size());
    phases[2] = std::move(backoff);
    return RetrySchedule(dialect, policy.backoffFunction, std::move(phases));
}

} // namespace relaydesk
