// SPDX-License-Identifier: MIT
#pragma once

#include "delivery_policy.h"
#include "policy_issue.h"

#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>

namespace relaydesk {

// Reading and writing the three JSON forms (docs/behaviour.md §2.2). Pure functions,
// thread-safe.

// Which form a document is: "_retry_policy" => Zaqar, "http" => SNS topic,
// anything else (including {}) => SNS subscription.
PolicyForm detectPolicyForm(const nlohmann::json &document);

// The result of reading: the policy when the document had the right shape,
// every structural error at once (wrong types, unknown keys, bad names, bad
// deprecated values), and warnings (deprecated keys). Range and sum rules are
// checked separately by validatePolicy(); `policy` is set whenever reading got
// as far as a model, even if `errors` is not empty.
struct PolicyReadResult {
    PolicyForm form = PolicyForm::SnsSubscription;
    std::optional<DeliveryPolicy> policy;
    PolicyIssues errors;
    PolicyIssues warnings;
};

// Reads `document` in its detected form (or `form` when given).
PolicyReadResult readPolicy(const nlohmann::json &document, std::optional<PolicyForm> form = std::nullopt);

// Writes `policy` in its own form (policy.form). Every retry field is written
// explicitly; optional sections only when present.
nlohmann::json writePolicy(const DeliveryPolicy &policy);

// The JSON path of a canonical field in a form, e.g. ("minDelayTarget",
// SnsTopic) => "http.defaultHealthyRetryPolicy.minDelayTarget",
// ("minDelayTarget", Zaqar) => "_retry_policy.minimum_delay". Canonical names
// are those of docs/behaviour.md §2.1 plus "healthyRetryPolicy" for the section itself.
std::string policyFieldPath(PolicyForm form, const std::string &canonicalField);

// Conversion to another form: the converted policy, or the reason why the
// conversion would lose something (docs/behaviour.md §2.2). Conversions that change the
// dialect keep the schedule exactly or are refused; `note` then says what
// still differs (failure classification, docs/behaviour.md §4.2).
struct PolicyConversion {
    std::optional<DeliveryPolicy> policy;
    std::string refusal;   // non-empty when policy is empty
    std::string note;      // non-empty when worth telling the user
};
PolicyConversion convertPolicy(const DeliveryPolicy &policy, PolicyForm target);

} // namespace relaydesk
