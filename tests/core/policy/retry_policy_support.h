// SPDX-License-Identifier: MIT
#pragma once
// RetryPolicy values written out field by field, for the policy tests
// (effective_policy_test, policy_json_test, policy_report_test,
// retry_schedule_test). Test-only.

#include "policy/delivery_policy.h"

namespace relaydesk::testing {

inline RetryPolicy retryOf(int numRetries, int noDelay, int minRetries, int maxRetries, int minDelay, int maxDelay,
                           BackoffFunction function)
{
    RetryPolicy r;
    r.numRetries = numRetries;
    r.numNoDelayRetries = noDelay;
    r.numMinDelayRetries = minRetries;
    r.numMaxDelayRetries = maxRetries;
    r.minDelayTarget = minDelay;
    r.maxDelayTarget = maxDelay;
    r.backoffFunction = function;
    return r;
}

// The RetryPolicy of preset sns-example (docs/behaviour.md §3.4), written out by hand.
inline RetryPolicy snsExampleRetry() { return retryOf(50, 3, 2, 35, 1, 60, BackoffFunction::Exponential); }

} // namespace relaydesk::testing
