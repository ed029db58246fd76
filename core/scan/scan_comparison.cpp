// SPDX-License-Identifier: MIT
#include "scan_comparison.h"

#include "scan_report.h"

#include <nlohmann/json.hpp>

#include <map>
#include <set>

namespace relaydesk {

namespace {

// Field by field, for redrives and Service Bus entities (or a delivery policy
// that cannot be explained on one side).
std::string fieldChanges(const nlohmann::json &before, const nlohmann::json &after)
{
    if (!before.is_object() || !after.is_object())
        return "  policy: " + before.dump() + " → " + after.dump() + "\n";
    std::set<std::string> keys;
    for (const auto &item : before.items())
        keys.insert(item.key());
    for (const auto &item : after.items())
        keys.insert(item.key());
    std::string text;
    for (const std::string &key : keys) {
        const nlohmann::json a = before.value(key, nlohmann::json());
        const nlohmann::json b = after.value(key, nlohmann::json());
        if (a != b)
            text += "  " + key + ": " + (a.is_null() ? "(none)" : a.dump()) + " → " + (b.is_null() ? "(none)" : b.dump()) + "\n";
    }
    return text;
}

std::string changeText(const FoundPolicy &before, const FoundPolicy &after)
{
    if (before.delivery && after.delivery && before.delivery->validation.policy && after.delivery->validation.policy)
        return diffText(diffPolicies(*before.delivery, *after.delivery));
    return fieldChanges(before.document, after.document) + "  before: " + before.summary + "\n  after:  " +
           after.summary + "\n";
}

std::string line(const FoundPolicy &policy)
{
    return placeText(policy.file, policy.place) + "  " + policy.name + "  " + policy.form + "  " + policy.summary;
}

} // namespace

ScanComparison compareScans(const ScanResult &base, const ScanResult &head)
{
    ScanComparison comparison;
    std::map<std::string, const FoundPolicy *> before;
    for (const FoundPolicy &policy : base.policies)
        before.emplace(policy.key(), &policy);
    std::set<std::string> seen;
    for (const FoundPolicy &policy : head.policies) {
        seen.insert(policy.key());
        const auto it = before.find(policy.key());
        if (it == before.end())
            comparison.added.push_back(&policy);
        else if (it->second->document != policy.document)
            comparison.changed.push_back({it->second, &policy, changeText(*it->second, policy)});
    }
    for (const FoundPolicy &policy : base.policies) {
        if (!seen.count(policy.key()))
            comparison.removed.push_back(&policy);
    }
    return comparison;
}

std::string comparisonText(const ScanComparison &c)
{
    std::string text = "Compared with the base: " + std::to_string(c.added.size()) + " added, " +
                       std::to_string(c.removed.size()) + " removed, " + std::to_string(c.changed.size()) + " changed\n";
    for (const FoundPolicy *policy : c.added)
        text += "added    " + line(*policy) + "\n";
    for (const FoundPolicy *policy : c.removed)
        text += "removed  " + line(*policy) + "\n";
    for (const ScanComparison::Change &change : c.changed)
        text += "changed  " + line(*change.after) + "\n" + change.diff;
    return text;
}

std::string comparisonMarkdown(const ScanComparison &c)
{
    std::string text = "\n### Compared with the base\n\n" + std::to_string(c.added.size()) + " added, " +
                       std::to_string(c.removed.size()) + " removed, " + std::to_string(c.changed.size()) + " changed.\n\n";
    for (const FoundPolicy *policy : c.added)
        text += "- **added** `" + policy->name + "` (" + policy->form + ") in `" + policy->file + "`: " + policy->summary + "\n";
    for (const FoundPolicy *policy : c.removed)
        text += "- **removed** `" + policy->name + "` (" + policy->form + ") from `" + policy->file + "`\n";
    for (const ScanComparison::Change &change : c.changed)
        text += "- **changed** `" + change.after->name + "` (" + change.after->form + ") in `" + change.after->file +
                "`\n\n```\n" + change.diff + "```\n";
    return text;
}

nlohmann::json comparisonJson(const ScanComparison &c)
{
    nlohmann::json added = nlohmann::json::array(), removed = nlohmann::json::array(), changed = nlohmann::json::array();
    for (const FoundPolicy *policy : c.added)
        added.push_back(foundPolicyJson(*policy));
    for (const FoundPolicy *policy : c.removed)
        removed.push_back(foundPolicyJson(*policy));
    for (const ScanComparison::Change &change : c.changed) {
        nlohmann::json entry{{"before", foundPolicyJson(*change.before)}, {"after", foundPolicyJson(*change.after)},
                             {"diff", change.diff}};
        if (change.before->delivery && change.after->delivery && change.before->delivery->validation.policy &&
            change.after->delivery->validation.policy)
            entry["policyDiff"] = diffJson(diffPolicies(*change.before->delivery, *change.after->delivery));
        changed.push_back(std::move(entry));
    }
    return {{"added", added}, {"removed", removed}, {"changed", changed}};
}

} // namespace relaydesk
