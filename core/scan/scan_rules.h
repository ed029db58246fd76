// SPDX-License-Identifier: MIT
#pragma once

#include "found_policy.h"

#include <array>
#include <string_view>

namespace relaydesk {

// The rules a scan's findings come from (docs/policies.md, "Findings"): the
// id, its level and what it means. The SARIF report lists them as its rules.
struct ScanRule {
    std::string_view id;
    FindingLevel level;
    std::string_view description;
};

inline constexpr std::array<ScanRule, 6> kScanRules = {{
    {"invalid-policy", FindingLevel::Error,
     "The policy breaks the service's rules (the errors policy validate reports), at the field named."},
    {"dlq-target-missing", FindingLevel::Warning,
     "The dead-letter target is not defined in the same template: it must exist wherever this is deployed."},
    {"max-receive-count-1", FindingLevel::Warning,
     "A redrive after one receive (maxReceiveCount, MaxDeliveryCount, _max_claim_count of 1): one failed "
     "or slow receive and the message is dead-lettered."},
    {"retry-span-short", FindingLevel::Warning,
     "The retries of the delivery policy end before an outage of the expected length (--expected-outage, "
     "15 min by default) is over."},
    {"ttl-shorter-than-lock", FindingLevel::Warning,
     "A Service Bus time to live shorter than the lock duration: a message can expire while a receiver holds it."},
    {"unresolved-intrinsic", FindingLevel::Note,
     "A value the deployment resolves (Ref, Fn::Sub, get_param, an ARM expression, a Terraform value known "
     "after apply): not checked, never guessed."},
}};

} // namespace relaydesk
