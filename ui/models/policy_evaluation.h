// SPDX-License-Identifier: MIT
#pragma once

#include "policy/policy_report.h"

#include <QString>

#include <optional>

namespace relaydesk {

// What the policy editor knows about its JSON text at one moment: either a
// syntax error, or the explanation core/policy gives of the document (form,
// every error and warning, and the schedule when valid). Plain value type.
struct PolicyEvaluation {
    QString syntaxError;                           // "parse error at line 3, column 14: ..."; empty when JSON
    std::optional<PolicyExplanation> explanation;  // set when the text is JSON

    // The policy read from the document, also when rules are broken.
    const std::optional<DeliveryPolicy> &policy() const;
    bool valid() const { return explanation && explanation->validation.valid(); }
    const std::optional<RetrySchedule> &schedule() const;
};

// Parses `text` and explains it for `context`. The service's managed
// presets are exempt from the custom-policy limits (docs/behaviour.md §3.4), but their JSON
// cannot say so; `managedOrigin` is the managed preset the text came from:
// while the document still has that preset's retry section, it is explained
// as that managed policy. Pure; any thread.
PolicyEvaluation evaluatePolicyText(const QString &text, const QString &source, const PolicyCheckContext &context,
                                    const std::optional<DeliveryPolicy> &managedOrigin = std::nullopt);

// The same for a policy held as a model (a preset).
PolicyEvaluation evaluatePolicy(const DeliveryPolicy &policy, const QString &source,
                                const PolicyCheckContext &context);

// The policy as the editor writes it: writePolicy(), indented by 2.
QString policyJsonText(const DeliveryPolicy &policy);

} // namespace relaydesk
