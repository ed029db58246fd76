// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

namespace relaydesk {

// One validation finding: the full JSON path of the field it is about
// ("healthyRetryPolicy.maxDelayTarget", "" for the document itself) and a
// sentence a person understands.
struct PolicyIssue {
    std::string field;
    std::string message;
    bool operator==(const PolicyIssue &) const = default;
};

using PolicyIssues = std::vector<PolicyIssue>;

} // namespace relaydesk
