// SPDX-License-Identifier: MIT
// What the template readers share: a found policy's place, JSON text inside
// templates, numbers written as text, ARNs, and Zaqar's queue metadata (which
// both Heat templates and metadata files hold).
#include "template_readers.h"

#include "json/bounded_json.h"

#include <array>

namespace relaydesk::scan_reading {

FoundPolicy foundAt(const ScanDocument &document, const std::string &file, const std::string &pointer,
                    std::string name, std::string service, std::string form, FoundPolicyKind kind)
{
    FoundPolicy policy;
    policy.file = file;
    policy.pointer = pointer;
    policy.place = document.placeOf(pointer);
    policy.name = std::move(name);
    policy.service = std::move(service);
    policy.form = std::move(form);
    policy.kind = kind;
    return policy;
}

nlohmann::json policyValue(const nlohmann::json &value)
{
    if (!value.is_string())
        return value;
    nlohmann::json parsed = parseBoundedJson(value.get<std::string>());
    return parsed.is_discarded() ? value : parsed;
}

std::optional<std::int64_t> wholeNumber(const nlohmann::json &value)
{
    if (value.is_number_integer())
        return value.get<std::int64_t>();
    if (value.is_number_float() && value.get<double>() == double(std::int64_t(value.get<double>())))
        return std::int64_t(value.get<double>());
    if (value.is_string()) {
        const std::string &text = value.get_ref<const std::string &>();
        if (!text.empty() && text.size() < 19 && text.find_first_not_of("0123456789") == std::string::npos)
            return std::stoll(text);
    }
    return std::nullopt;
}

std::string arnResource(const std::string &arn)
{
    if (arn.rfind("arn:", 0) != 0)
        return arn;
    return arn.substr(arn.rfind(':') + 1);
}

bool hasZaqarMetadata(const nlohmann::json &value)
{
    return value.is_object() &&
           (value.contains("_retry_policy") || value.contains("_max_claim_count") || value.contains("_dead_letter_queue"));
}

void readZaqarMetadata(const ScanDocument &document, const std::string &file, const std::string &pointer,
                       const std::string &name, std::vector<FoundPolicy> &into)
{
    const nlohmann::json metadata = document.root.value(nlohmann::json::json_pointer(pointer), nlohmann::json());
    if (!metadata.is_object())
        return;
    if (metadata.contains("_retry_policy")) {
        FoundPolicy policy = foundAt(document, file, pointer, name, "Zaqar", "Zaqar retry policy", FoundPolicyKind::Delivery);
        policy.place = document.placeOf(childPointer(pointer, "_retry_policy"));
        policy.document = {{"_retry_policy", metadata["_retry_policy"]}};
        into.push_back(std::move(policy));
    }
    if (!metadata.contains("_max_claim_count") && !metadata.contains("_dead_letter_queue"))
        return;
    FoundPolicy policy = foundAt(document, file, pointer, name, "Zaqar", "Zaqar dead-letter queue", FoundPolicyKind::Redrive);
    policy.document = nlohmann::json::object();
    RedriveFacts facts;
    for (const char *key : {"_max_claim_count", "_dead_letter_queue", "_default_message_ttl"}) {
        if (metadata.contains(key))
            policy.document[key] = metadata[key];
    }
    policy.fieldPointers["maxReceiveCount"] = childPointer(pointer, "_max_claim_count");
    if (const auto it = metadata.find("_max_claim_count"); it != metadata.end()) {
        facts.maxReceiveCount = wholeNumber(*it);
        if (!facts.maxReceiveCount && !it->is_object())
            policy.errors.push_back({"_max_claim_count", "must be an integer"});
    }
    if (const auto it = metadata.find("_default_message_ttl"); it != metadata.end())
        facts.retentionSeconds = wholeNumber(*it);
    if (const auto it = metadata.find("_dead_letter_queue"); it != metadata.end() && it->is_string())
        policy.deadLetterTarget = it->get<std::string>();
    policy.redrive = facts;
    into.push_back(std::move(policy));
}

} // namespace relaydesk::scan_reading
