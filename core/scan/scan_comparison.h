// SPDX-License-Identifier: MIT
#pragma once

#include "policy_scan.h"

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <vector>

namespace relaydesk {

// `policy scan --base PATH`: the policies of the head tree against those of
// the base tree, paired by file (relative to the scanned folder), name and
// form (docs/policies.md, "Comparing two trees"). Pointers into the results.
struct ScanComparison {
    struct Change {
        const FoundPolicy *before = nullptr;
        const FoundPolicy *after = nullptr;
        std::string diff;   // as `policy diff` shows it for delivery policies; field by field otherwise
    };
    std::vector<const FoundPolicy *> added;
    std::vector<const FoundPolicy *> removed;
    std::vector<Change> changed;
};

ScanComparison compareScans(const ScanResult &base, const ScanResult &head);
std::string comparisonText(const ScanComparison &comparison);
std::string comparisonMarkdown(const ScanComparison &comparison);
nlohmann::json comparisonJson(const ScanComparison &comparison);

} // namespace relaydesk
