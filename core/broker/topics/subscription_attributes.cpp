// SPDX-License-Identifier: MIT
#include "subscription_attributes.h"

#include "broker/echoed_value.h"

#include "json/bounded_json.h"

#include "broker/broker_identity.h"
#include "broker/entity_names.h"

#include <nlohmann/json.hpp>

namespace relaydesk {

namespace {

constexpr std::string_view kRawMessageDelivery = "RawMessageDelivery";
constexpr std::string_view kFilterPolicyScope = "MessageAttributes";

bool isSqsQueueArn(std::string_view text)
{
    const auto parts = splitArn(text);
    return parts && parts->service == "sqs" && !parts->region.empty() && !parts->accountId.empty() &&
           validateQueueName(parts->resource).ok();
}

Status checkDeliveryPolicy(EndpointProtocol protocol, const SubscriptionAttributes &a, std::string_view text,
                           std::optional<DeliveryPolicyAttribute> &out)
{
    if (text.empty()) {
        out.reset();
        return {};
    }
    if (protocol == EndpointProtocol::Sqs)
        return snsAttributeError("DeliveryPolicy", "sqs subscriptions use the fixed sns-aws-managed policy, which "
                                                   "cannot be changed");
    Result<DeliveryPolicyAttribute> parsed = parseDeliveryPolicyAttribute(
        text, DeliveryPolicyLevel::Subscription, PolicyCheckContext{protocol, a.rawMessageDelivery});
    if (!parsed)
        return parsed.error();
    out = std::move(parsed).value();
    return {};
}

// Applies one attribute other than RawMessageDelivery.
Status applyOne(EndpointProtocol protocol, SubscriptionAttributes &a, std::string_view name, std::string_view value)
{
    if (name == "FilterPolicy") {
        if (value.empty()) {
            a.filterPolicy.reset();
            return {};
        }
        Result<FilterPolicy> parsed = parseFilterPolicy(value);
        if (!parsed) {
            // parseFilterPolicy says "Invalid parameter: FilterPolicy: REASON"; use the attribute form.
            constexpr std::string_view kPrefix = "Invalid parameter: FilterPolicy: ";
            const std::string &message = parsed.error().message;
            return snsAttributeError(name, message.rfind(kPrefix, 0) == 0 ? message.substr(kPrefix.size()) : message);
        }
        a.filterPolicy = FilterPolicyAttribute{std::string(value), std::move(parsed).value()};
    } else if (name == "FilterPolicyScope") {
        if (value == "MessageBody")
            return snsAttributeError(name, "MessageBody is not supported by Relaydesk; use MessageAttributes");
        if (value != kFilterPolicyScope)
            return snsAttributeError(name, "Invalid value [" + echoedValue(value) +
                                               "]. Please use either MessageBody or MessageAttributes");
    } else if (name == "DeliveryPolicy") {
        return checkDeliveryPolicy(protocol, a, value, a.deliveryPolicy);
    } else if (name == "RedrivePolicy") {
        if (value.empty()) {
            a.redrivePolicy.reset();
            return {};
        }
        const nlohmann::json document = parseBoundedJson(value);
        if (document.is_discarded() || !document.is_object())
            return snsAttributeError(name, "is not a valid JSON object");
        for (const auto &[key, item] : document.items()) {
            if (key != "deadLetterTargetArn")
                return snsAttributeError(name, "unknown key \"" + key + "\"; only deadLetterTargetArn is allowed");
        }
        const auto arn = document.find("deadLetterTargetArn");
        if (arn == document.end() || !arn->is_string() || !isSqsQueueArn(arn->get<std::string>()))
            return snsAttributeError(name, "deadLetterTargetArn must be the ARN of an SQS queue");
        a.redrivePolicy = SubscriptionRedrivePolicy{arn->get<std::string>()};
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

bool isSettableSubscriptionAttribute(std::string_view name)
{
    for (std::string_view known : {"RawMessageDelivery", "FilterPolicy", "FilterPolicyScope", "DeliveryPolicy",
                                   "RedrivePolicy", "DefaultMessageTimeToLive", "AutoDeleteOnIdle"}) {
        if (known == name)
            return true;
    }
    return false;
}

Status applyRaw(SubscriptionAttributes &a, std::string_view value)
{
    const auto raw = parseAttributeBoolean(value);
    if (!raw)
        return snsAttributeError(kRawMessageDelivery, "must be true or false");
    a.rawMessageDelivery = *raw;
    return {};
}

} // namespace

Result<EndpointProtocol> parseSubscriptionProtocol(std::string_view protocol)
{
    EndpointProtocol parsed = EndpointProtocol::Http;
    if (!parseEndpointProtocol(protocol, parsed))
        return BrokerError(BrokerErrorCode::SnsInvalidParameter,
                           "Invalid parameter: Amazon SNS does not support this protocol string: " + echoedValue(protocol) +
                               ". This broker delivers to the protocols http, https and sqs.");
    return parsed;
}

Status validateSubscriptionEndpoint(EndpointProtocol protocol, std::string_view endpoint)
{
    if (protocol == EndpointProtocol::Sqs) {
        if (!isSqsQueueArn(endpoint))
            return BrokerError(BrokerErrorCode::SnsInvalidParameter,
                               "Invalid parameter: SQS endpoint ARN");
        return {};
    }
    const std::string_view scheme = protocol == EndpointProtocol::Http ? "http://" : "https://";
    const bool schemeOk = endpoint.size() > scheme.size() && endpoint.substr(0, scheme.size()) == scheme;
    const std::string_view rest = schemeOk ? endpoint.substr(scheme.size()) : std::string_view();
    const std::size_t hostEnd = rest.find_first_of("/?#");
    if (!schemeOk || hostEnd == 0 || rest.find(' ') != std::string_view::npos)
        return BrokerError(BrokerErrorCode::SnsInvalidParameter,
                           "Invalid parameter: Endpoint must match the specified protocol (" + std::string(scheme) + "…)");
    return {};
}

Result<SubscriptionAttributes> parseSubscriptionAttributes(EndpointProtocol protocol, const AttributeMap &given)
{
    SubscriptionAttributes attributes;
    for (const auto &[name, value] : given) {
        if (!isSettableSubscriptionAttribute(name))
            return snsUnknownAttribute(name);
    }
    if (const auto raw = given.find(std::string(kRawMessageDelivery)); raw != given.end()) {
        if (Status applied = applyRaw(attributes, raw->second); !applied)
            return applied.error();
    }
    for (const auto &[name, value] : given) {
        if (name == kRawMessageDelivery)
            continue;
        if (Status applied = applyOne(protocol, attributes, name, value); !applied)
            return applied.error();
    }
    return attributes;
}

Result<SubscriptionAttributes> applySubscriptionAttribute(EndpointProtocol protocol, const SubscriptionAttributes &current,
                                                          std::string_view name, std::string_view value)
{
    SubscriptionAttributes attributes = current;
    if (name != kRawMessageDelivery) {
        if (Status applied = applyOne(protocol, attributes, name, value); !applied)
            return applied.error();
        return attributes;
    }
    if (Status applied = applyRaw(attributes, value); !applied)
        return applied.error();
    if (attributes.deliveryPolicy) {
        // The content types a policy may use depend on raw delivery (docs/behaviour.md §4.3).
        const std::string text = attributes.deliveryPolicy->text;
        if (Status rechecked = checkDeliveryPolicy(protocol, attributes, text, attributes.deliveryPolicy); !rechecked)
            return rechecked.error();
    }
    return attributes;
}

AttributeMap writeSubscriptionAttributes(const SubscriptionAttributes &a)
{
    AttributeMap out;
    out[std::string(kRawMessageDelivery)] = formatAttributeBoolean(a.rawMessageDelivery);
    if (a.filterPolicy) {
        out["FilterPolicy"] = a.filterPolicy->text;
        out["FilterPolicyScope"] = std::string(kFilterPolicyScope);
    }
    if (a.redrivePolicy) {
        nlohmann::ordered_json policy;
        policy["deadLetterTargetArn"] = a.redrivePolicy->deadLetterTargetArn;
        out["RedrivePolicy"] = policy.dump();
    }
    if (a.deliveryPolicy)
        out["DeliveryPolicy"] = a.deliveryPolicy->text;
    if (a.defaultMessageTimeToLive)
        out["DefaultMessageTimeToLive"] = std::to_string(*a.defaultMessageTimeToLive);
    if (a.autoDeleteOnIdle)
        out["AutoDeleteOnIdle"] = std::to_string(*a.autoDeleteOnIdle);
    return out;
}

} // namespace relaydesk
