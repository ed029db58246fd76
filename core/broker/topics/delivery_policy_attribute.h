// SPDX-License-Identifier: MIT
#pragma once

#include "broker/result.h"

#include "policy/delivery_policy.h"
#include "policy/policy_validation.h"

#include <string>
#include <string_view>

namespace relaydesk {

// The DeliveryPolicy attribute of a topic or a subscription: the text as the
// user gave it (stored and returned in that form, docs/behaviour.md §2.2) and the model
// read from it. Plain value type.
struct DeliveryPolicyAttribute {
    std::string text;
    DeliveryPolicy policy;
    bool operator==(const DeliveryPolicyAttribute &) const = default;
};

enum class DeliveryPolicyLevel { Topic, Subscription };

// Reads and validates the attribute with core/policy (docs/behaviour.md §2.1): a topic takes
// the SNS topic form ({"http": {...}}) or the Zaqar form, a subscription the
// SNS subscription form or the Zaqar form. Every problem is reported at once:
// SnsInvalidParameter "Invalid parameter: Attributes Reason: DeliveryPolicy:
// <field> <problem>[; <field> <problem>…]" (docs/behaviour.md §10). Pure.
Result<DeliveryPolicyAttribute> parseDeliveryPolicyAttribute(std::string_view text, DeliveryPolicyLevel level,
                                                             const PolicyCheckContext &context);

// The prefix of every SNS attribute error: "Invalid parameter: Attributes
// Reason: NAME: REASON" (docs/behaviour.md §10's form, used for all SNS attributes).
BrokerError snsAttributeError(std::string_view name, std::string_view reason);

// A topic's or a subscription's attribute name that SNS does not know:
// SnsInvalidParameter "Invalid parameter: Attributes Reason: Unknown attribute NAME".
BrokerError snsUnknownAttribute(std::string_view name);

} // namespace relaydesk
