// SPDX-License-Identifier: MIT
#include "delivery_policy.h"

namespace relaydesk {

std::string_view dialectName(Dialect dialect)
{
    return dialect == Dialect::Sns ? "sns" : "zaqar";
}

std::string_view policyFormName(PolicyForm form)
{
    switch (form) {
    case PolicyForm::SnsSubscription: return "SNS subscription";
    case PolicyForm::SnsTopic: return "SNS topic";
    case PolicyForm::Zaqar: return "Zaqar";
    }
    return "";
}

std::string_view policyFormKey(PolicyForm form)
{
    switch (form) {
    case PolicyForm::SnsSubscription: return "subscription";
    case PolicyForm::SnsTopic: return "topic";
    case PolicyForm::Zaqar: return "zaqar";
    }
    return "";
}

std::optional<PolicyForm> parsePolicyFormKey(std::string_view key)
{
    for (PolicyForm form : {PolicyForm::SnsSubscription, PolicyForm::SnsTopic, PolicyForm::Zaqar}) {
        if (policyFormKey(form) == key)
            return form;
    }
    return std::nullopt;
}

RetryPolicy zaqarDefaultRetryPolicy()
{
    RetryPolicy policy;
    policy.numNoDelayRetries = 3;
    policy.numMinDelayRetries = 3;
    policy.minDelayTarget = 5;
    policy.maxDelayTarget = 30;
    policy.numMaxDelayRetries = 3;
    policy.backoffFunction = BackoffFunction::Linear;
    policy.numRetries = 3 + 3 + 3 + 6; // backoff: (30 - 5) / 5 + 1 = 6 (docs/behaviour.md §3.3)
    return policy;
}

} // namespace relaydesk
