// SPDX-License-Identifier: MIT
#pragma once

#include "delivery_policy.h"
#include "policy_issue.h"

#include <nlohmann/json_fwd.hpp>

#include <string_view>

namespace relaydesk {

// The endpoint protocol a policy is checked for: the 3600 s cap applies to
// http and https only (docs/behaviour.md §2.1).
enum class EndpointProtocol { Http, Https, Sqs };
std::string_view endpointProtocolName(EndpointProtocol protocol);
bool parseEndpointProtocol(std::string_view name, EndpointProtocol &out);

struct PolicyCheckContext {
    EndpointProtocol protocol = EndpointProtocol::Http;
    bool rawDelivery = false;   // widens the allowed headerContentType (docs/behaviour.md §4.3)
};

// The range, sum, cap and content-type rules of docs/behaviour.md §2.1/4.3 on a model that
// was read successfully. Field paths are those of policy.form. Managed presets
// skip the 0–100 and 3600 s rules. Pure, thread-safe.
PolicyIssues validatePolicy(const DeliveryPolicy &policy, const PolicyCheckContext &context = {});

// Everything at once: structural errors from readPolicy() followed by the rule
// errors from validatePolicy(), plus warnings.
struct PolicyValidation {
    PolicyForm form = PolicyForm::SnsSubscription;
    std::optional<DeliveryPolicy> policy;   // set when the document could be read
    PolicyIssues errors;
    PolicyIssues warnings;
    bool valid() const { return errors.empty(); }
};
PolicyValidation checkPolicyDocument(const nlohmann::json &document, const PolicyCheckContext &context = {});

} // namespace relaydesk
