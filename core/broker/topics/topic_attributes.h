// SPDX-License-Identifier: MIT
#pragma once

#include "broker/attribute_text.h"
#include "delivery_policy_attribute.h"
#include "broker/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace relaydesk {

// Every settable attribute of a topic with its default (docs/behaviour.md §1, 2, 6).
// Plain value type; instances made by parseTopicAttributes() /
// applyTopicAttribute() satisfy the rules below.
struct TopicAttributes {
    static constexpr std::size_t kMaxDisplayNameLength = 100;

    bool fifoTopic = false;                                 // FifoTopic; fixed at creation (the ".fifo" name)
    std::string displayName;                                // DisplayName, ≤ 100 characters
    std::optional<DeliveryPolicyAttribute> deliveryPolicy;  // DeliveryPolicy (topic or Zaqar form)
    std::string policy;                                     // Policy: access policy JSON, stored only
    std::string kmsMasterKeyId;                             // KmsMasterKeyId: stored only
    int signatureVersion = 1;                               // SignatureVersion 1 (SHA1withRSA) or 2 (SHA256withRSA), docs/behaviour.md §4.1
    bool contentBasedDeduplication = false;                 // ContentBasedDeduplication, FIFO topics only
    // Relaydesk (Service Bus message lifetime, docs/behaviour.md §6)
    std::optional<int64_t> defaultMessageTimeToLive;        // DefaultMessageTimeToLive ≥ 1 s; none = no expiry
    std::optional<int64_t> autoDeleteOnIdle;                // AutoDeleteOnIdle ≥ 300 s; none = never

    bool operator==(const TopicAttributes &) const = default;
};

// CreateTopic: the attributes of a new topic named `topicName` (a valid name,
// see validateTopicName). Errors are SnsInvalidParameter:
//  - an unknown or read-only name: "Invalid parameter: Attributes Reason: Unknown attribute NAME";
//  - FifoTopic "true" without ".fifo" in the name, or a ".fifo" name
//    without FifoTopic "true";
//  - ContentBasedDeduplication on a standard topic;
//  - a bad value: "Invalid parameter: Attributes Reason: NAME: REASON"
//    (DeliveryPolicy: every problem, see parseDeliveryPolicyAttribute).
// An empty value of an optional attribute means "none". Pure.
Result<TopicAttributes> parseTopicAttributes(std::string_view topicName, const AttributeMap &given);

// SetTopicAttributes (one attribute per call): `current` with NAME=VALUE
// applied. FifoTopic cannot be changed. Same errors. Pure.
Result<TopicAttributes> applyTopicAttribute(const TopicAttributes &current, std::string_view name, std::string_view value);

// The stored attributes as GetTopicAttributes returns them: DisplayName,
// SignatureVersion always; FifoTopic and ContentBasedDeduplication on FIFO
// topics; the optional ones when set. The broker adds TopicArn, Owner, the
// subscription counts and EffectiveDeliveryPolicy. Pure.
AttributeMap writeTopicAttributes(const TopicAttributes &attributes);

} // namespace relaydesk
