// SPDX-License-Identifier: MIT
#include "delivery_policy_attribute.h"

#include "broker/echoed_value.h"

#include "json/bounded_json.h"

#include "policy/policy_json.h"

#include <nlohmann/json.hpp>

namespace relaydesk {

BrokerError snsAttributeError(std::string_view name, std::string_view reason)
{
    std::string message = "Invalid parameter: Attributes Reason: ";
    message.append(name).append(": ").append(reason);
    return BrokerError(BrokerErrorCode::SnsInvalidParameter, std::move(message));
}

BrokerError snsUnknownAttribute(std::string_view name)
{
    return BrokerError(BrokerErrorCode::SnsInvalidParameter,
                       "Invalid parameter: Attributes Reason: Unknown attribute " + echoedValue(name));
}

Result<DeliveryPolicyAttribute> parseDeliveryPolicyAttribute(std::string_view text, DeliveryPolicyLevel level,
                                                             const PolicyCheckContext &context)
{
    constexpr std::string_view kName = "DeliveryPolicy";
    const nlohmann::json document = parseBoundedJson(text);
    if (document.is_discarded())
        return snsAttributeError(kName, "is not valid JSON");
    if (document.is_object() && !document.empty()) {
        const PolicyForm form = detectPolicyForm(document);
        if (level == DeliveryPolicyLevel::Topic && form == PolicyForm::SnsSubscription)
            return snsAttributeError(kName, "a topic's delivery policy has the form {\"http\": {\"defaultHealthyRetryPolicy\": "
                                            "{...}}}, not the subscription form");
        if (level == DeliveryPolicyLevel::Subscription && form == PolicyForm::SnsTopic)
            return snsAttributeError(kName, "a subscription's delivery policy has the form {\"healthyRetryPolicy\": "
                                            "{...}}, not the topic form {\"http\": ...}");
    }

    PolicyValidation validation;
    if (document.is_object() && document.empty() && level == DeliveryPolicyLevel::Topic) {
        // {} is read as the subscription form; on a topic it is an empty topic policy.
        PolicyReadResult read = readPolicy(document, PolicyForm::SnsTopic);
        validation.policy = read.policy;
        validation.errors = std::move(read.errors);
    } else {
        validation = checkPolicyDocument(document, context);
    }
    if (!validation.valid() || !validation.policy) {
        std::string reason;
        for (const PolicyIssue &issue : validation.errors) {
            if (!reason.empty())
                reason += "; ";
            reason += issue.field.empty() ? issue.message : issue.field + " " + issue.message;
        }
        return snsAttributeError(kName, reason.empty() ? "is not a valid delivery policy" : reason);
    }
    return DeliveryPolicyAttribute{std::string(text), *validation.policy};
}

} // namespace relaydesk
