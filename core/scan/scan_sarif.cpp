// SPDX-License-Identifier: MIT
// `policy scan --format sarif`: SARIF 2.1.0 (OASIS), as code scanning reads it.
#include "scan_report.h"
#include "scan_rules.h"

#include <nlohmann/json.hpp>

namespace relaydesk {

nlohmann::json scanSarif(const ScanResult &result, const std::string &toolVersion)
{
    nlohmann::json rules = nlohmann::json::array();
    for (const ScanRule &rule : kScanRules) {
        rules.push_back({{"id", rule.id},
                         {"shortDescription", {{"text", rule.description}}},
                         {"defaultConfiguration", {{"level", findingLevelName(rule.level)}}}});
    }
    nlohmann::json results = nlohmann::json::array();
    for (const FoundPolicy &policy : result.policies) {
        for (const ScanFinding &finding : policy.findings) {
            std::size_t index = 0;
            while (index < kScanRules.size() && kScanRules[index].id != finding.rule)
                ++index;
            nlohmann::json physical{{"artifactLocation", {{"uri", policy.file}}}};
            if (finding.place.known())
                physical["region"] = {{"startLine", finding.place.line}, {"startColumn", finding.place.column}};
            const std::string field = finding.field.empty() ? std::string() : finding.field + ": ";
            results.push_back({{"ruleId", finding.rule},
                               {"ruleIndex", index},
                               {"level", findingLevelName(finding.level)},
                               {"message", {{"text", policy.name + " (" + policy.form + "): " + field + finding.message}}},
                               {"locations",
                                {{{"physicalLocation", physical},
                                  {"logicalLocations", {{{"name", policy.name}, {"kind", "resource"}}}}}}}});
        }
    }
    nlohmann::json driver{{"name", "relaydesk policy scan"},
                          {"version", toolVersion},
                          {"rules", rules}};
    return {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
            {"version", "2.1.0"},
            {"runs", {{{"tool", {{"driver", driver}}}, {"results", results}}}}};
}

} // namespace relaydesk
