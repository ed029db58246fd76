// SPDX-License-Identifier: MIT
#pragma once

#include "policy/effective_policy.h"

#include <string>

namespace relaydesk {

// The EffectiveDeliveryPolicy attribute of a topic or a subscription (docs/behaviour.md
// §2.3) in the JSON shape AWS returns:
//   {"http":{"defaultHealthyRetryPolicy":{minDelayTarget, maxDelayTarget,
//    numRetries, numMaxDelayRetries, numNoDelayRetries, numMinDelayRetries,
//    backoffFunction},"disableSubscriptionOverrides":BOOL,
//    "defaultRequestPolicy":{"headerContentType":"…"}}}
// plus "defaultThrottlePolicy":{"maxReceivesPerSecond":N} when a throttle is
// set. Pure, thread-safe.
std::string writeEffectiveDeliveryPolicy(const EffectivePolicy &effective);

} // namespace relaydesk
