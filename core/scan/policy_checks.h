// SPDX-License-Identifier: MIT
#pragma once

#include "found_policy.h"

#include <cstdint>

namespace relaydesk {

// What the checks of a scan measure against (docs/policies.md, "policy scan").
struct ScanOptions {
    // A retry span shorter than this is finding retry-span-short
    // (--expected-outage): 15 minutes, an endpoint's restart or a short
    // incident; an HTTP/S policy may plan at most 3600 s in all, so the
    // default stays well below that.
    std::int64_t expectedOutageSeconds = 900;
};

// Whether `value` is an intrinsic function left for the deployment to resolve:
// CloudFormation's {"Ref": …} and {"Fn::…": …}, Heat's {"get_param": …} and
// its kin, an ARM "[expression]" string. Pure.
bool isIntrinsic(const nlohmann::json &value);
// "Fn::Sub", "Ref", "get_param", "[expression]": the intrinsic's name for messages.
std::string intrinsicName(const nlohmann::json &value);

// Validates a policy the readers found and fills in its errors, summary and
// findings (the rule table of docs/policies.md). The readers have set its
// place, names, kind, document and (for redrives and Service Bus entities)
// the dead-letter facts. Validation is the policy layer's and the broker's
// own (explainPolicy, parseServiceBusQueue), never a copy. Pure.
void checkFoundPolicy(FoundPolicy &policy, const ScanDocument &document, const ScanOptions &options);

} // namespace relaydesk
