// SPDX-License-Identifier: MIT
#include "topic_attributes.h"

#include "json/bounded_json.h"

#include "broker/entity_names.h"

#include <nlohmann/json.hpp>

namespace relaydesk {

namespace {

constexpr std::string_view kFifoTopic = "FifoTopic";

// Applies one settable attribute (not FifoTopic). Unknown names are refused.
Status applyOne(TopicAttributes &a, std::string_view name, std::string_view value)
{
    if (name == "DisplayName") {
        if (value.size() > TopicAttributes::kMaxDisplayNameLength)
            return snsAttributeError(name, "must be at most 100 characters");
        a.displayName = std::string(value);
    } else if (name == "DeliveryPolicy") {
        if (value.empty()) {
            a.deliveryPolicy.reset();
            return {};
        }
        Result<DeliveryPolicyAttribute> parsed =
            parseDeliveryPolicyAttribute(value, DeliveryPolicyLevel::Topic, PolicyCheckContext{});
        if (!parsed)
            return parsed.error();
        a.deliveryPolicy = std::move(parsed).value();
    } else if (name == "Policy") {
        if (!value.empty()) {
            const nlohmann::json document = parseBoundedJson(value);
            if (document.is_discarded() || !document.is_object())
                return snsAttributeError(name, "must be a JSON policy document");
        }
        a.policy = std::string(value);
    } else if (name == "KmsMasterKeyId") {
        a.kmsMasterKeyId = std::string(value);
    } else if (name == "SignatureVersion") {
        if (value != "1" && value != "2")
            return snsAttributeError(name, "must be 1 or 2");
        a.signatureVersion = value == "1" ? 1 : 2;
    } else if (name == "ContentBasedDeduplication") {
        if (!a.fifoTopic)
            return snsAttributeError(name, "Content-based deduplication can only be set for FIFO topics");
        const auto parsed = parseAttributeBoolean(value);
        if (!parsed)
            return snsAttributeError(name, "must be true or false");
        a.contentBasedDeduplication = *parsed;
    } else if (name == "DefaultMessageTimeToLive") {
        if (const auto reason = readLifetimeSeconds(a.defaultMessageTimeToLive, value, 1))
            return snsAttributeError(name, *reason);
    } else if (name == "AutoDeleteOnIdle") {
        if (const auto reason = readLifetimeSeconds(a.autoDeleteOnIdle, value, kMinAutoDeleteOnIdleSeconds))
            return snsAttributeError(name, *reason);
    } else {
        return snsUnknownAttribute(name);
    }
    return {};
}

bool isSettableTopicAttribute(std::string_view name)
{
    for (std::string_view known : {"DisplayName", "DeliveryPolicy", "Policy", "KmsMasterKeyId", "SignatureVersion",
                                   "ContentBasedDeduplication", "DefaultMessageTimeToLive", "AutoDeleteOnIdle"}) {
        if (known == name)
            return true;
    }
    return false;
}

} // namespace

Result<TopicAttributes> parseTopicAttributes(std::string_view topicName, const AttributeMap &given)
{
    for (const auto &[name, value] : given) {
        if (name != kFifoTopic && !isSettableTopicAttribute(name))
            return snsUnknownAttribute(name);
    }
    TopicAttributes attributes;
    if (const auto it = given.find(std::string(kFifoTopic)); it != given.end()) {
        const auto fifo = parseAttributeBoolean(it->second);
        if (!fifo)
            return snsAttributeError(kFifoTopic, "must be true or false");
        attributes.fifoTopic = *fifo;
    }
    if (attributes.fifoTopic != hasFifoSuffix(topicName)) {
        return attributes.fifoTopic
                   ? BrokerError(BrokerErrorCode::SnsInvalidParameter,
                                 "Invalid parameter: Fifo Topic names must end with .fifo and they must be created "
                                 "with the FifoTopic attribute set to true")
                   : BrokerError(BrokerErrorCode::SnsInvalidParameter, "Invalid parameter: Topic Name");
    }
    for (const auto &[name, value] : given) {
        if (name == kFifoTopic)
            continue;
        if (Status applied = applyOne(attributes, name, value); !applied)
            return applied.error();
    }
    return attributes;
}

Result<TopicAttributes> applyTopicAttribute(const TopicAttributes &current, std::string_view name, std::string_view value)
{
    if (name == kFifoTopic)
        return snsAttributeError(name, "cannot be changed after the topic is created");
    TopicAttributes attributes = current;
    if (Status applied = applyOne(attributes, name, value); !applied)
        return applied.error();
    return attributes;
}

AttributeMap writeTopicAttributes(const TopicAttributes &a)
{
    AttributeMap out;
    out["DisplayName"] = a.displayName;
    out["SignatureVersion"] = std::to_string(a.signatureVersion);
    if (a.fifoTopic) {
        out["FifoTopic"] = "true";
        out["ContentBasedDeduplication"] = formatAttributeBoolean(a.contentBasedDeduplication);
    }
    if (a.deliveryPolicy)
        out["DeliveryPolicy"] = a.deliveryPolicy->text;
    if (!a.policy.empty())
        out["Policy"] = a.policy;
    if (!a.kmsMasterKeyId.empty())
        out["KmsMasterKeyId"] = a.kmsMasterKeyId;
    if (a.defaultMessageTimeToLive)
        out["DefaultMessageTimeToLive"] = std::to_string(*a.defaultMessageTimeToLive);
    if (a.autoDeleteOnIdle)
        out["AutoDeleteOnIdle"] = std::to_string(*a.autoDeleteOnIdle);
    return out;
}

} // namespace relaydesk
