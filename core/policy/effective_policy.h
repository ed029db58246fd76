// SPDX-License-Identifier: MIT
#pragma once

#include "delivery_policy.h"
#include "policy_validation.h"

#include <optional>
#include <string_view>

namespace relaydesk {

// Where a value of the effective policy came from (docs/behaviour.md §2.3).
enum class PolicySource { Subscription, Topic, Default, Fixed };
std::string_view policySourceName(PolicySource source); // "subscription", "topic", "default", "fixed"

// The policy that governs deliveries to one subscription, complete (every
// section present), with the origin of each section.
struct EffectivePolicy {
    DeliveryPolicy policy;
    PolicySource retrySource = PolicySource::Default;
    PolicySource throttleSource = PolicySource::Default;
    PolicySource requestSource = PolicySource::Default;
    bool overridesDisabled = false; // the topic/queue level disabled subscription overrides
};

// docs/behaviour.md §2.3, section by section: the subscription's section if it has one,
// else the topic's (queue's, in Zaqar terms), else the defaults — unless the
// topic level disables subscription overrides, in which case the topic's
// sections win (defaults for what it lacks). `sqs` subscriptions always get
// the fixed sns-aws-managed preset. The result is in SNS subscription form
// (policy.form), dialect of the retry section's origin. Pure.
EffectivePolicy resolveEffectivePolicy(EndpointProtocol protocol, const std::optional<DeliveryPolicy> &subscription,
                                       const std::optional<DeliveryPolicy> &topic);

} // namespace relaydesk
