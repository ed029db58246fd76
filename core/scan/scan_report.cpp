// SPDX-License-Identifier: MIT
// The text, Markdown and JSON reports of `policy scan`.
#include "scan_report.h"

#include <nlohmann/json.hpp>

#include <map>

namespace relaydesk {

namespace {

std::string plural(std::size_t count, const char *one, const char *many)
{
    return std::to_string(count) + " " + (count == 1 ? one : many);
}

std::string findingsTotals(const ScanResult &result)
{
    std::map<FindingLevel, std::size_t> counts;
    std::size_t invalid = 0;
    for (const FoundPolicy &policy : result.policies) {
        invalid += policy.valid() ? 0 : 1;
        for (const ScanFinding &finding : policy.findings)
            ++counts[finding.level];
    }
    std::string text = plural(result.policies.size(), "policy", "policies") + " in " +
                       plural(result.files.size(), "file", "files") + " (" +
                       plural(result.filesRead, "file", "files") + " read): " + std::to_string(invalid) + " invalid";
    for (FindingLevel level : {FindingLevel::Error, FindingLevel::Warning, FindingLevel::Note}) {
        const std::size_t count = counts[level];
        text += ", " + std::to_string(count) + " " + std::string(findingLevelName(level)) + (count == 1 ? "" : "s");
    }
    return text;
}

// Markdown table cells hold no '|' or line break.
std::string cell(std::string text)
{
    std::string out;
    for (char c : text) {
        if (c == '|')
            out += "\\|";
        else if (c == '\n')
            out += ' ';
        else
            out += c;
    }
    return out;
}

const char *levelMark(FindingLevel level)
{
    switch (level) {
    case FindingLevel::Error: return "❌";
    case FindingLevel::Warning: return "⚠️";
    case FindingLevel::Note: return "ℹ️";
    }
    return "";
}

} // namespace

std::string_view findingLevelName(FindingLevel level)
{
    switch (level) {
    case FindingLevel::Note: return "note";
    case FindingLevel::Warning: return "warning";
    case FindingLevel::Error: return "error";
    }
    return "error";
}

std::optional<FindingLevel> parseFindingLevel(std::string_view name)
{
    for (FindingLevel level : {FindingLevel::Note, FindingLevel::Warning, FindingLevel::Error}) {
        if (name == findingLevelName(level))
            return level;
    }
    return std::nullopt;
}

std::string placeText(const std::string &file, const TextPlace &place)
{
    return place.known() ? file + ":" + std::to_string(place.line) + ":" + std::to_string(place.column) : file;
}

std::string scanReportText(const ScanResult &result)
{
    std::string text;
    for (const FoundPolicy &policy : result.policies) {
        text += placeText(policy.file, policy.place) + "  " + policy.name + "  " + policy.form + "  " +
                (policy.valid() ? "valid" : "invalid") + "\n";
        text += "  " + policy.summary + "\n";
        for (const ScanFinding &finding : policy.findings) {
            text += "  " + std::string(findingLevelName(finding.level)) + " " + finding.rule + " at " +
                    placeText(policy.file, finding.place) + ": " +
                    (finding.field.empty() ? std::string() : finding.field + ": ") + finding.message + "\n";
        }
    }
    for (const std::string &problem : result.problems)
        text += "relaydesk: " + problem + "\n";
    return text + findingsTotals(result) + "\n";
}

std::string scanReportMarkdown(const ScanResult &result, const std::vector<std::string> &charts)
{
    std::string text = "## Relaydesk policy scan\n\n" + findingsTotals(result) + ".\n";
    for (const ScannedFile &file : result.files) {
        if (file.policies == 0)
            continue;
        text += "\n### `" + file.file + "` (" + file.format + ")\n\n"
                "| where | policy | service and form | valid | schedule or lifetime | findings |\n"
                "|---|---|---|---|---|---|\n";
        std::string images;
        for (std::size_t i = 0; i < result.policies.size(); ++i) {
            const FoundPolicy &policy = result.policies[i];
            if (policy.file != file.file)
                continue;
            std::string findings;
            for (const ScanFinding &finding : policy.findings) {
                findings += (findings.empty() ? "" : "<br>") + std::string(levelMark(finding.level)) + " `" +
                            finding.rule + "` " + (finding.field.empty() ? "" : "`" + finding.field + "`: ") +
                            finding.message;
            }
            const std::string where = policy.place.known()
                                          ? std::to_string(policy.place.line) + ":" + std::to_string(policy.place.column)
                                          : "";
            text += "| " + where + " | `" + cell(policy.name) + "` | " + cell(policy.service + ": " + policy.form) +
                    " | " + (policy.valid() ? "✅" : "❌") + " | " + cell(policy.summary) + " | " + cell(findings) + " |\n";
            if (i < charts.size() && !charts[i].empty())
                images += "![" + policy.name + "](" + charts[i] + ") ";
        }
        if (!images.empty())
            text += "\n" + images + "\n";
    }
    return text;
}

nlohmann::json foundPolicyJson(const FoundPolicy &policy)
{
    nlohmann::json errors = nlohmann::json::array();
    for (const PolicyIssue &issue : policy.errors)
        errors.push_back({{"field", issue.field}, {"message", issue.message}});
    nlohmann::json findings = nlohmann::json::array();
    for (const ScanFinding &finding : policy.findings)
        findings.push_back({{"rule", finding.rule}, {"level", findingLevelName(finding.level)}, {"field", finding.field},
                            {"message", finding.message}, {"line", finding.place.line}, {"column", finding.place.column}});
    nlohmann::json out{{"file", policy.file},   {"line", policy.place.line}, {"column", policy.place.column},
                       {"name", policy.name},   {"service", policy.service}, {"form", policy.form},
                       {"valid", policy.valid()}, {"errors", errors},       {"summary", policy.summary},
                       {"findings", findings},  {"policy", policy.document}};
    if (policy.delivery && policy.delivery->schedule)
        out["schedule"] = explanationJson(*policy.delivery);
    if (policy.lifetime)
        out["lifetime"] = serviceBusQueueJson(*policy.lifetime)["Properties"];
    if (!policy.deadLetterTarget.empty())
        out["deadLetterTarget"] = policy.deadLetterTarget;
    return out;
}

nlohmann::json scanReportJson(const ScanResult &result, const std::vector<std::string> &charts)
{
    nlohmann::json files = nlohmann::json::array();
    for (const ScannedFile &file : result.files)
        files.push_back({{"file", file.file}, {"format", file.format}, {"policies", file.policies}});
    nlohmann::json policies = nlohmann::json::array();
    for (std::size_t i = 0; i < result.policies.size(); ++i) {
        nlohmann::json policy = foundPolicyJson(result.policies[i]);
        if (i < charts.size() && !charts[i].empty())
            policy["chart"] = charts[i];
        policies.push_back(std::move(policy));
    }
    return {{"filesRead", result.filesRead}, {"files", files}, {"policies", policies}, {"problems", result.problems}};
}

} // namespace relaydesk
