// SPDX-License-Identifier: MIT
#pragma once

#include "broker/attribute_text.h"
#include "delivery_policy_attribute.h"
#include "filter_policy.h"
#include "broker/result.h"

#include "policy/policy_validation.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace relaydesk {

// The FilterPolicy attribute: the text as given and the policy read from it.
struct FilterPolicyAttribute {
    std::string text;
    FilterPolicy policy;
    bool operator==(const FilterPolicyAttribute &) const = default;
};

// A subscription's dead-letter queue (docs/behaviour.md §4.2): {"deadLetterTargetArn": ARN}.
struct SubscriptionRedrivePolicy {
    std::string deadLetterTargetArn;
    bool operator==(const SubscriptionRedrivePolicy &) const = default;
};

// Every settable attribute of a subscription with its default (docs/behaviour.md §1, 4, 6).
// Plain value type; instances made by parseSubscriptionAttributes() /
// applySubscriptionAttribute() satisfy the rules below.
struct SubscriptionAttributes {
    bool rawMessageDelivery = false;                         // RawMessageDelivery
    std::optional<FilterPolicyAttribute> filterPolicy;       // FilterPolicy (FilterPolicyScope MessageAttributes only)
    std::optional<SubscriptionRedrivePolicy> redrivePolicy;  // RedrivePolicy
    std::optional<DeliveryPolicyAttribute> deliveryPolicy;   // DeliveryPolicy (subscription or Zaqar form; http/https only)
    // Relaydesk (Service Bus message lifetime, docs/behaviour.md §6)
    std::optional<int64_t> defaultMessageTimeToLive;         // DefaultMessageTimeToLive ≥ 1 s; the smaller of topic and subscription applies
    std::optional<int64_t> autoDeleteOnIdle;                 // AutoDeleteOnIdle ≥ 300 s; none = never

    bool operator==(const SubscriptionAttributes &) const = default;
};

// Subscribe's Protocol parameter: "http", "https" or "sqs" (docs/behaviour.md §1).
// SnsInvalidParameter "Invalid parameter: Amazon SNS does not support this
// protocol string: X" otherwise.
Result<EndpointProtocol> parseSubscriptionProtocol(std::string_view protocol);

// Subscribe's Endpoint for a protocol: an http:// or https:// URL with a host
// (matching the protocol), or an SQS queue ARN. SnsInvalidParameter
// "Invalid parameter: Endpoint …" otherwise. Whether the queue exists is the
// broker's check.
Status validateSubscriptionEndpoint(EndpointProtocol protocol, std::string_view endpoint);

// Subscribe: the attributes of a new subscription with this protocol.
// RawMessageDelivery is applied first, since the DeliveryPolicy's allowed
// content types depend on it. Errors are SnsInvalidParameter:
//  - unknown or read-only names: "Invalid parameter: Attributes Reason: Unknown attribute NAME";
//  - FilterPolicy: parseFilterPolicy's reasons; FilterPolicyScope other than
//    MessageAttributes (MessageBody is not supported);
//  - DeliveryPolicy on an sqs subscription (it uses the fixed
//    sns-aws-managed policy, docs/behaviour.md §2.3), or any problem of the policy;
//  - RedrivePolicy that is not {"deadLetterTargetArn": SQS ARN}.
// An empty FilterPolicy, RedrivePolicy or DeliveryPolicy means "none". Pure.
Result<SubscriptionAttributes> parseSubscriptionAttributes(EndpointProtocol protocol, const AttributeMap &given);

// SetSubscriptionAttributes (one attribute per call). Turning raw delivery
// off re-checks the stored DeliveryPolicy's content type. Same errors. Pure.
Result<SubscriptionAttributes> applySubscriptionAttribute(EndpointProtocol protocol, const SubscriptionAttributes &current,
                                                          std::string_view name, std::string_view value);

// The stored attributes as GetSubscriptionAttributes returns them:
// RawMessageDelivery always; FilterPolicy with FilterPolicyScope, RedrivePolicy,
// DeliveryPolicy and the lifetime ones when set. The broker adds
// SubscriptionArn, TopicArn, Owner, Protocol, Endpoint, PendingConfirmation,
// ConfirmationWasAuthenticated and EffectiveDeliveryPolicy. Pure.
AttributeMap writeSubscriptionAttributes(const SubscriptionAttributes &attributes);

} // namespace relaydesk
