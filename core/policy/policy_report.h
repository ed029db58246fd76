// SPDX-License-Identifier: MIT
#pragma once

#include "delivery_policy.h"
#include "policy_validation.h"
#include "retry_schedule.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace relaydesk {

// What `policy explain` reports about one policy document: its form, the
// validation outcome, and — when valid — the schedule of the policy that
// governs an HTTP subscription with it (a topic-form document is explained as
// the effective policy of a subscription with none of its own, docs/behaviour.md §8.1).
struct PolicyExplanation {
    std::string source;                 // file name, "-" or "preset NAME"
    PolicyValidation validation;
    EndpointProtocol protocol = EndpointProtocol::Http;
    std::optional<RetrySchedule> schedule; // set when valid
};

PolicyExplanation explainPolicy(const nlohmann::json &document, std::string source, const PolicyCheckContext &context);
PolicyExplanation explainPolicy(const DeliveryPolicy &policy, std::string source, const PolicyCheckContext &context);

// The JSON of docs/behaviour.md §3.6 (plus "form", "protocol", "summary",
// "cumulativeSeconds" per phase).
nlohmann::json explanationJson(const PolicyExplanation &explanation);
// The readable table of `policy explain --format text`.
std::string explanationText(const PolicyExplanation &explanation);
// "51 attempts over 36 min 45 s".
std::string scheduleSummary(const RetrySchedule &schedule);
// "100 015": digits grouped by three from five digits on, as docs/behaviour.md writes counts.
std::string groupedCount(int64_t value);
// "36 min 45 s", "23 d 3 h 34 min 2 s", "0 s".
std::string durationText(int64_t seconds);

// `policy diff A B`: the fields that differ and how the schedule changes.
struct PolicyDiff {
    struct FieldChange { std::string field; std::string before; std::string after; };
    std::vector<FieldChange> fields;  // canonical field names
    PolicyExplanation a;
    PolicyExplanation b;
};
PolicyDiff diffPolicies(PolicyExplanation a, PolicyExplanation b);
std::string diffText(const PolicyDiff &diff);
nlohmann::json diffJson(const PolicyDiff &diff);

} // namespace relaydesk
