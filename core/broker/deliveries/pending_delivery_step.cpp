// SPDX-License-Identifier: MIT
#include "broker/deliveries/pending_delivery_step.h"

namespace relaydesk {

std::string_view attemptOutcomeName(AttemptOutcome outcome)
{
    switch (outcome) {
    case AttemptOutcome::Delivered: return "delivered";
    case AttemptOutcome::Retryable: return "retryable";
    case AttemptOutcome::Permanent: return "permanent";
    case AttemptOutcome::Timeout: return "timeout";
    case AttemptOutcome::ConnectionError: return "connectionError";
    case AttemptOutcome::ThrottledWait: return "throttled-wait";
    }
    return "retryable";
}

std::string_view deliveryEndName(DeliveryEnd end)
{
    switch (end) {
    case DeliveryEnd::Delivered: return "delivered";
    case DeliveryEnd::DeadLettered: return "deadLettered";
    case DeliveryEnd::Discarded: return "discarded";
    case DeliveryEnd::Confirmed: return "confirmed";
    }
    return "discarded";
}

AttemptOutcome classifyAttempt(Dialect dialect, std::optional<int> httpStatus, TransportFailure failure)
{
    if (!httpStatus) {
        return failure == TransportFailure::Timeout ? AttemptOutcome::Timeout : AttemptOutcome::ConnectionError;
    }
    const int status = *httpStatus;
    if (status >= 200 && status <= 299)
        return AttemptOutcome::Delivered;
    if (dialect == Dialect::Zaqar) {
        if (status >= 300 && status <= 499)
            return AttemptOutcome::Permanent;
        return AttemptOutcome::Retryable; // 500–599 and anything outside 200–599
    }
    if ((status >= 500 && status <= 599) || status == 429)
        return AttemptOutcome::Retryable;
    return AttemptOutcome::Permanent;
}

bool isRetryable(AttemptOutcome outcome)
{
    return outcome == AttemptOutcome::Retryable || outcome == AttemptOutcome::Timeout
        || outcome == AttemptOutcome::ConnectionError;
}

std::string phaseOfAttempt(const RetrySchedule &schedule, std::int64_t attempt)
{
    if (attempt <= 0)
        return "initial";
    if (attempt > schedule.retries())
        return std::string(retryPhaseName(RetryPhase::PostBackoff));
    return std::string(retryPhaseName(schedule.phaseOfRetry(attempt)));
}

NextStep nextStepAfter(const RetrySchedule &schedule, std::int64_t attempt, AttemptOutcome outcome)
{
    NextStep step;
    if (outcome == AttemptOutcome::Delivered) {
        step.delivered = true;
        return step;
    }
    if (!isRetryable(outcome) || attempt >= schedule.retries())
        return step;
    step.ends = false;
    step.nextAttempt = attempt + 1;
    step.plannedDelaySeconds = schedule.delayBeforeRetry(step.nextAttempt);
    return step;
}

} // namespace relaydesk
