// SPDX-License-Identifier: MIT
#include "policy_presets.h"

namespace relaydesk {

namespace {

DeliveryPolicy snsPolicy(int noDelay, int minDelayRetries, int backoff, int maxDelayRetries, int minDelay,
                         int maxDelay, BackoffFunction function, bool managed)
{
    RetryPolicy retry;
    retry.numNoDelayRetries = noDelay;
    retry.numMinDelayRetries = minDelayRetries;
    retry.numMaxDelayRetries = maxDelayRetries;
    retry.numRetries = noDelay + minDelayRetries + backoff + maxDelayRetries;
    retry.minDelayTarget = minDelay;
    retry.maxDelayTarget = maxDelay;
    retry.backoffFunction = function;
    DeliveryPolicy policy;
    policy.retry = retry;
    policy.managed = managed;
    return policy;
}

std::vector<PolicyPreset> makePresets()
{
    using enum BackoffFunction;
    DeliveryPolicy example = snsPolicy(3, 2, 10, 35, 1, 60, Exponential, false);
    // The documentation's example also sets these two sections.
    example.maxReceivesPerSecond = 10;
    example.headerContentType = "application/json";

    DeliveryPolicy zaqar;
    zaqar.form = PolicyForm::Zaqar;
    zaqar.dialect = Dialect::Zaqar;
    zaqar.retry = zaqarDefaultRetryPolicy();

    return {
        {"sns-default", "SNS default: 3 retries, 20 s apart (linear)", snsPolicy(0, 0, 3, 0, 20, 20, Linear, false)},
        {"sns-example", "The HTTP/S example of the SNS documentation: 50 retries over about 37 min", example},
        {"sns-aws-managed", "SNS fixed policy for SQS, Lambda and Firehose targets: 100 015 retries over about 23 days",
         snsPolicy(3, 2, 10, 100000, 1, 20, Exponential, true)},
        {"sns-customer-managed", "SNS fixed policy for SMTP, SMS and mobile push: 50 retries over about 6.6 hours",
         snsPolicy(0, 2, 10, 38, 10, 600, Exponential, true)},
        {"zaqar-default", "Zaqar blueprint defaults: 15 retries over 210 s", zaqar},
    };
}

} // namespace

const std::vector<PolicyPreset> &policyPresets()
{
    static const std::vector<PolicyPreset> presets = makePresets();
    return presets;
}

std::optional<PolicyPreset> findPolicyPreset(std::string_view name)
{
    for (const PolicyPreset &preset : policyPresets()) {
        if (preset.name == name)
            return preset;
    }
    return std::nullopt;
}

std::string policyPresetNameList()
{
    std::string list;
    for (const PolicyPreset &preset : policyPresets())
        list += (list.empty() ? "" : ", ") + preset.name;
    return list;
}

} // namespace relaydesk
