// SPDX-License-Identifier: MIT
#pragma once

#include "delivery_policy.h"

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

namespace relaydesk {

// The four phases of retries, in order (docs/behaviour.md §3.1). Attempt 0 is the initial
// attempt and belongs to no phase.
enum class RetryPhase { Immediate, PreBackoff, Backoff, PostBackoff };
inline constexpr std::array<RetryPhase, 4> kRetryPhases = {RetryPhase::Immediate, RetryPhase::PreBackoff,
                                                           RetryPhase::Backoff, RetryPhase::PostBackoff};
std::string_view retryPhaseName(RetryPhase phase); // "immediate", "preBackoff", "backoff", "postBackoff"

// One phase of a schedule. Constant phases are a count and a delay, so a
// 100 000-retry phase costs nothing; the backoff phase lists its delays.
struct SchedulePhase {
    RetryPhase phase = RetryPhase::Immediate;
    int64_t retries = 0;
    int delaySeconds = 0;        // constant phases
    std::vector<int> delays;     // backoff phase: one per retry, whole seconds
    int64_t totalSeconds() const;
    int delayOf(int64_t indexInPhase) const { return phase == RetryPhase::Backoff ? delays[size_t(indexInPhase)] : delaySeconds; }
};

// The planned delays before each retry of one policy: a pure function of the
// policy and its dialect (docs/behaviour.md §3). Value type; all queries are O(1) or
// O(backoff retries), never O(total retries).
class RetrySchedule final {
public:
    RetrySchedule() = default;
    RetrySchedule(Dialect dialect, BackoffFunction function, std::array<SchedulePhase, 4> phases);

    Dialect dialect() const { return m_dialect; }
    BackoffFunction backoffFunction() const { return m_function; }
    const std::array<SchedulePhase, 4> &phases() const { return m_phases; }
    const SchedulePhase &phase(RetryPhase which) const { return m_phases[size_t(which)]; }

    int64_t retries() const;                 // all four phases
    int64_t attempts() const { return retries() + 1; }
    int64_t totalDelaySeconds() const;       // sum of every planned delay
    int maxDelaySeconds() const;             // the largest single delay

    // Retry r counts from 1 (attempt r). Precondition: 1 <= r <= retries().
    RetryPhase phaseOfRetry(int64_t retry) const;
    int delayBeforeRetry(int64_t retry) const;
    // Seconds from the first attempt to attempt r (0 for r = 0).
    int64_t secondsUntilAttempt(int64_t attempt) const;

private:
    Dialect m_dialect = Dialect::Sns;
    BackoffFunction m_function = BackoffFunction::Linear;
    std::array<SchedulePhase, 4> m_phases{};
};

// The delays of an SNS backoff phase of n retries (docs/behaviour.md §3.2): rounded to whole
// seconds, halves away from zero. The curves are the docs/behaviour.md §3.2 formulas, each
// capped by the curve before it (linear >= arithmetic >= geometric >=
// exponential), which the formulas alone do not guarantee for small or very
// large spans (docs/policies.md, "How Relaydesk reads a policy").
std::vector<int> backoffDelays(BackoffFunction function, int n, int minDelay, int maxDelay);

// The raw docs/behaviour.md §3.2 formula for retry i (1-based), before rounding and capping.
double backoffFormula(BackoffFunction function, int i, int n, int minDelay, int maxDelay);

// The Zaqar backoff count: floor((max - min) / 5) + 1 (docs/behaviour.md §3.3).
int zaqarBackoffRetries(int minDelay, int maxDelay);

// The schedule of a retry policy in a dialect. Preconditions: the policy
// validated (no negative counts, 1 <= min <= max).
RetrySchedule planSchedule(const RetryPolicy &policy, Dialect dialect);

} // namespace relaydesk
