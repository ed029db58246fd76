// SPDX-License-Identifier: MIT
#pragma once

#include "backoff_function.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace relaydesk {

// How a policy's schedule is computed and failures classified (docs/behaviour.md §3.3, 4.2).
enum class Dialect { Sns, Zaqar };

// The three JSON forms a policy is read from and written to (docs/behaviour.md §2.2).
enum class PolicyForm { SnsSubscription, SnsTopic, Zaqar };

std::string_view dialectName(Dialect dialect);           // "sns", "zaqar"
std::string_view policyFormName(PolicyForm form);        // "SNS subscription", "SNS topic", "Zaqar"
std::string_view policyFormKey(PolicyForm form);         // "subscription", "topic", "zaqar"
std::optional<PolicyForm> parsePolicyFormKey(std::string_view key);

// The healthy retry policy: the four phases (docs/behaviour.md §2.1). Plain value type.
// In the Zaqar dialect the backoff count is not a field but derived from the
// delays (docs/behaviour.md §3.3); numRetries is then kept equal to the derived total.
struct RetryPolicy {
    int numRetries = 3;
    int numNoDelayRetries = 0;
    int numMinDelayRetries = 0;
    int numMaxDelayRetries = 0;
    int minDelayTarget = 20;
    int maxDelayTarget = 20;
    BackoffFunction backoffFunction = BackoffFunction::Linear;

    // numRetries minus the three constant phases; negative when invalid.
    int backoffRetries() const { return numRetries - numNoDelayRetries - numMinDelayRetries - numMaxDelayRetries; }
    bool operator==(const RetryPolicy &) const = default;
};

// The defaults of the Zaqar form (docs/behaviour.md §2.2): 3/3/5/30/3/linear.
RetryPolicy zaqarDefaultRetryPolicy();

inline constexpr std::string_view kDefaultHeaderContentType = "text/plain; charset=UTF-8";

// The canonical model of one delivery policy as read from one JSON form.
// Sections are optional because presence matters: a subscription policy with
// only a throttle section still takes its retry section from the topic
// (docs/behaviour.md §2.3, see EffectivePolicyResolver). Plain value type, no invariants
// beyond what validatePolicy() checks.
struct DeliveryPolicy {
    Dialect dialect = Dialect::Sns;
    PolicyForm form = PolicyForm::SnsSubscription;

    std::optional<RetryPolicy> retry;                 // healthyRetryPolicy / defaultHealthyRetryPolicy / _retry_policy
    std::optional<int> maxReceivesPerSecond;          // throttlePolicy.maxReceivesPerSecond; absent = no limit
    bool hasThrottleSection = false;                  // "throttlePolicy": {} present (possibly empty)
    std::optional<std::string> headerContentType;     // requestPolicy.headerContentType
    bool hasRequestSection = false;                   // "requestPolicy": {} present (possibly empty)

    // Topic form "disableSubscriptionOverrides" / Zaqar "ignore_subscription_override".
    bool disableSubscriptionOverrides = false;

    // Deprecated keys seen on input (docs/behaviour.md §2.1); written back when present so a
    // round trip keeps them.
    bool hasSicklyRetryPolicy = false;
    bool hasGuaranteed = false;

    // Set for the service's fixed policies (presets sns-aws-managed and
    // sns-customer-managed): exempt from the 0–100 retries and 3600 s rules.
    bool managed = false;

    RetryPolicy retryOrDefault() const { return retry.value_or(RetryPolicy{}); }
    std::string headerContentTypeOrDefault() const {
        return headerContentType.value_or(std::string(kDefaultHeaderContentType));
    }
    bool operator==(const DeliveryPolicy &) const = default;
};

} // namespace relaydesk
