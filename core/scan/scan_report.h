// SPDX-License-Identifier: MIT
#pragma once

#include "policy_scan.h"

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <vector>

namespace relaydesk {

// The reports of `policy scan` (docs/policies.md, "policy scan"). `charts`
// is empty or holds, for each policy of `result` in order, the path of its
// chart ("" for none), as the report should link it. Pure.
std::string scanReportText(const ScanResult &result);
std::string scanReportMarkdown(const ScanResult &result, const std::vector<std::string> &charts);
nlohmann::json scanReportJson(const ScanResult &result, const std::vector<std::string> &charts);
nlohmann::json foundPolicyJson(const FoundPolicy &policy);
// SARIF 2.1.0: one result per finding, with its rule id and location.
nlohmann::json scanSarif(const ScanResult &result, const std::string &toolVersion);

// "file:12:5".
std::string placeText(const std::string &file, const TextPlace &place);

} // namespace relaydesk
