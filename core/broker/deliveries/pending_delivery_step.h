// SPDX-License-Identifier: MIT
#pragma once

#include "policy/delivery_policy.h"
#include "policy/retry_schedule.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace relaydesk {

// How one HTTP/S attempt went at the transport level.
enum class TransportFailure { None, Timeout, ConnectionError };

// The outcome column of the attempt log (docs/behaviour.md §4.4). ThrottledWait is the row
// of an attempt held back by its subscription's throttle (no request yet; the
// attempt itself follows as a row of its own); classifyAttempt never gives it.
enum class AttemptOutcome { Delivered, Retryable, Permanent, Timeout, ConnectionError, ThrottledWait };
// "delivered", "retryable", "permanent", "timeout", "connectionError", "throttled-wait"
std::string_view attemptOutcomeName(AttemptOutcome outcome);

// What happened when a delivery ended (the log's `final`).
// Confirmed: a SubscriptionConfirmation no longer sent because the
// subscription was confirmed meanwhile (its last attempt failed, yet it did its job).
enum class DeliveryEnd { Delivered, DeadLettered, Discarded, Confirmed };
std::string_view deliveryEndName(DeliveryEnd end); // "delivered", "deadLettered", "discarded", "confirmed"

// docs/behaviour.md §4.2, per dialect. SNS: 2xx delivered; 5xx and 429 retryable; any other
// status permanent. Zaqar: 500–599 and statuses outside 200–599 retryable;
// 2xx delivered; 300–499 permanent. A timeout or connection error (no
// status) is retryable in both. Pure.
AttemptOutcome classifyAttempt(Dialect dialect, std::optional<int> httpStatus, TransportFailure failure);
bool isRetryable(AttemptOutcome outcome);

// The log's phase of attempt n: "initial" for 0, else the phase of retry n in
// `schedule` ("immediate", …); "postBackoff" past the schedule's end. Pure.
std::string phaseOfAttempt(const RetrySchedule &schedule, std::int64_t attempt);

// What follows attempt `attempt` with `outcome` under `schedule` (docs/behaviour.md §3, 4.2):
// the delivery ends (delivered, or out of retries / permanent failure), or
// the next attempt comes `plannedDelaySeconds` (before jitter) later. Pure.
struct NextStep {
    bool ends = true;
    bool delivered = false;
    std::int64_t nextAttempt = 0;
    int plannedDelaySeconds = 0;
};
NextStep nextStepAfter(const RetrySchedule &schedule, std::int64_t attempt, AttemptOutcome outcome);

} // namespace relaydesk
