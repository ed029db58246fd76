// SPDX-License-Identifier: MIT
#pragma once

// The request bodies of the Zaqar routes, read and checked as Zaqar checks
// them before anything reaches the broker (docs/behaviour.md §8.5). Each
// reader returns nothing when the body is acceptable, else the description
// of the 400. Pure, any thread.

#include "api/zaqar/zaqar_rules.h"
#include "broker/clock_time.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace relaydesk::zaqar {

// One posted message, checked.
struct PostedMessage {
    nlohmann::json body;
    std::optional<std::int64_t> ttl;     // absent: the queue's default
    std::optional<std::int64_t> delay;   // absent: the queue's default
};

// POST …/messages: {"messages": [{"body", "ttl", "delay"}, …]}, 1–20 of them;
// appends each to `posted`. Ranges of ttl and delay are the queue's to check.
std::optional<std::string> readPostedMessages(const nlohmann::json &request, std::vector<PostedMessage> &posted);

// POST …/claims and PATCH …/claims/ID: {"ttl", "grace"}, each 60–43 200
// seconds; absent ones keep the value in `terms` (the defaults, 300 and 60).
struct ClaimTerms {
    std::int64_t ttl = kDefaultClaimTtl;
    std::int64_t grace = kDefaultClaimGrace;
    // A "limit" in the body (Zaqar reads it from the query only): when
    // present it must be an integer 1–20, and counts when the query has none.
    std::optional<std::int64_t> limit;
};
std::optional<std::string> readClaimTerms(const std::optional<nlohmann::json> &body, ClaimTerms &terms);

// POST …/subscriptions and PATCH …/subscriptions/ID: {"subscriber" (an http
// or https URL with a host), "ttl" (≥ 60, see also subscriptionEndProblem),
// "options" (an object whose _retry_policy is valid)}; absent fields stay
// unset (an update keeps them).
struct SubscriptionTerms {
    std::optional<std::string> subscriber;
    std::optional<std::int64_t> ttl;
    std::optional<nlohmann::json> options;
};
std::optional<std::string> readSubscriptionTerms(const std::optional<nlohmann::json> &body, SubscriptionTerms &terms);
// The refusal of a subscription ttl that would end after kLastSubscriptionSecond
// counted from `now` (readSubscriptionTerms, without a clock, refuses a ttl
// longer than kLastSubscriptionSecond itself).
std::optional<std::string> subscriptionEndProblem(std::int64_t ttl, ClockTime now);

} // namespace relaydesk::zaqar
