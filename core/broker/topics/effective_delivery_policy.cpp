// SPDX-License-Identifier: MIT
#include "broker/topics/effective_delivery_policy.h"

#include <nlohmann/json.hpp>

namespace relaydesk {

std::string writeEffectiveDeliveryPolicy(const EffectivePolicy &effective)
{
    const DeliveryPolicy &policy = effective.policy;
    const RetryPolicy retry = policy.retryOrDefault();
    nlohmann::ordered_json http = nlohmann::ordered_json::object();
    http["defaultHealthyRetryPolicy"] = nlohmann::ordered_json{
        {"minDelayTarget", retry.minDelayTarget},
        {"maxDelayTarget", retry.maxDelayTarget},
        {"numRetries", retry.numRetries},
        {"numMaxDelayRetries", retry.numMaxDelayRetries},
        {"numNoDelayRetries", retry.numNoDelayRetries},
        {"numMinDelayRetries", retry.numMinDelayRetries},
        {"backoffFunction", std::string(backoffFunctionName(retry.backoffFunction))},
    };
    http["disableSubscriptionOverrides"] = effective.overridesDisabled;
    if (policy.maxReceivesPerSecond)
        http["defaultThrottlePolicy"] = nlohmann::ordered_json{{"maxReceivesPerSecond", *policy.maxReceivesPerSecond}};
    http["defaultRequestPolicy"] = nlohmann::ordered_json{{"headerContentType", policy.headerContentTypeOrDefault()}};
    return nlohmann::ordered_json{{"http", http}}.dump();
}

} // namespace relaydesk
