// SPDX-License-Identifier: MIT
// Whether a delivery policy has its throttle / request section: present
// (possibly empty) or its one field set. What policy_json.cpp writes back
// and what effective_policy.cpp inherits from the topic.
#pragma once

#include "delivery_policy.h"

namespace relaydesk {

inline bool hasThrottlePolicy(const DeliveryPolicy &p)
{
    return p.hasThrottleSection || p.maxReceivesPerSecond.has_value();
}

inline bool hasRequestPolicy(const DeliveryPolicy &p)
{
    return p.hasRequestSection || p.headerContentType.has_value();
}

} // namespace relaydesk
