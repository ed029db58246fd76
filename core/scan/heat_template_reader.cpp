// SPDX-License-Identifier: MIT
// Heat templates: OS::Zaqar::Queue resources and their metadata
// (docs/policies.md, "policy scan").
#include "template_readers.h"

#include <set>

namespace relaydesk {

using nlohmann::json;

std::optional<TemplateScan> readHeatTemplate(const ScanDocument &document, const std::string &file)
{
    const json &root = document.root;
    if (!root.is_object() || !root.contains("heat_template_version") || !root.value("resources", json()).is_object())
        return std::nullopt;
    const json &resources = root["resources"];
    std::set<std::string> names;   // a queue's name, or its resource name when it has none
    for (auto it = resources.begin(); it != resources.end(); ++it) {
        if (!it.value().is_object() || it.value().value("type", std::string()) != "OS::Zaqar::Queue")
            continue;
        const json name = it.value().value("properties", json::object()).value("name", json());
        names.insert(name.is_string() ? name.get<std::string>() : it.key());
    }
    TemplateScan scan{"Heat template", {}};
    for (auto it = resources.begin(); it != resources.end(); ++it) {
        if (!it.value().is_object() || it.value().value("type", std::string()) != "OS::Zaqar::Queue")
            continue;
        const std::string pointer = childPointer(childPointer(childPointer("/resources", it.key()), "properties"), "metadata");
        const std::size_t before = scan.policies.size();
        scan_reading::readZaqarMetadata(document, file, pointer, it.key(), scan.policies);
        for (std::size_t i = before; i < scan.policies.size(); ++i) {
            FoundPolicy &policy = scan.policies[i];
            if (!policy.deadLetterTarget.empty())
                policy.deadLetterTargetInTemplate = names.count(policy.deadLetterTarget) > 0;
        }
    }
    return scan;
}

std::optional<TemplateScan> readPolicyFile(const ScanDocument &document, const std::string &file)
{
    const json &root = document.root;
    if (!root.is_object())
        return std::nullopt;
    const std::string name = file.substr(file.rfind('/') + 1);
    if (scan_reading::hasZaqarMetadata(root)) {
        TemplateScan scan{"Zaqar queue metadata", {}};
        scan_reading::readZaqarMetadata(document, file, "", name, scan.policies);
        return scan;
    }
    if (root.contains("deadLetterTargetArn") || root.contains("maxReceiveCount")) {
        TemplateScan scan{"SQS redrive policy", {}};
        FoundPolicy policy = scan_reading::foundAt(document, file, "", name, "SQS", "SQS redrive policy",
                                                   FoundPolicyKind::Redrive);
        policy.document = root;
        RedriveFacts facts;
        facts.maxReceiveCount = scan_reading::wholeNumber(root.value("maxReceiveCount", json()));
        if (root.value("deadLetterTargetArn", json()).is_string())
            policy.deadLetterTarget = root["deadLetterTargetArn"].get<std::string>();
        policy.redrive = facts;
        scan.policies.push_back(std::move(policy));
        return scan;
    }
    for (const char *key : {"healthyRetryPolicy", "http", "throttlePolicy", "requestPolicy", "sicklyRetryPolicy"}) {
        if (root.contains(key)) {
            TemplateScan scan{"delivery policy", {}};
            FoundPolicy policy = scan_reading::foundAt(document, file, "", name, "SNS", "", FoundPolicyKind::Delivery);
            policy.document = root;
            policy.form = root.contains("http") ? "SNS topic delivery policy" : "SNS subscription delivery policy";
            scan.policies.push_back(std::move(policy));
            return scan;
        }
    }
    return std::nullopt;
}

} // namespace relaydesk
