// SPDX-License-Identifier: MIT
#include "api/zaqar/zaqar_rules.h"

#include "policy/policy_validation.h"

#include <algorithm>
#include <cctype>

namespace relaydesk::zaqar {

nlohmann::json withReservedDefaults(nlohmann::json metadata)
{
    const auto fill = [&](const char *key, std::int64_t value) {
        if (!metadata.contains(key) || metadata[key].is_null() || metadata[key] == 0)
            metadata[key] = value;
    };
    fill("_max_messages_post_size", static_cast<std::int64_t>(kMaxMessagesPostSize));
    fill("_default_message_ttl", kDefaultMessageTtl);
    fill("_default_message_delay", 0);
    return metadata;
}

std::optional<std::string> queueNameProblem(std::string_view name)
{
    if (name.size() > kMaxQueueName)
        return "Queue names may not be more than 64 characters long.";
    const bool valid = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
    });
    if (!valid)
        return "Queue names may only contain ASCII letters, digits, underscores, and dashes (Relaydesk keeps a "
               "Zaqar queue as an SQS queue, whose names have no dots).";
    return std::nullopt;
}

bool isClientId(std::string_view text)
{
    if (text.rfind("urn:uuid:", 0) == 0)
        text.remove_prefix(9);
    std::string hex;
    for (char c : text) {
        if (c == '-' || c == '{' || c == '}')
            continue;
        if (!std::isxdigit(static_cast<unsigned char>(c)))
            return false;
        hex.push_back(c);
    }
    return hex.size() == 32;
}

std::optional<std::int64_t> integerField(const nlohmann::json &object, const char *key, std::int64_t fallback)
{
    if (!object.is_object() || !object.contains(key) || object.at(key).is_null())
        return fallback;
    const nlohmann::json &value = object.at(key);
    if (!value.is_number_integer())
        return std::nullopt;
    return value.get<std::int64_t>();
}

namespace {

std::optional<std::string> rangeProblem(const nlohmann::json &metadata, const char *key, std::int64_t low,
                                        std::int64_t high, const std::string &description)
{
    if (!metadata.contains(key))
        return std::nullopt;
    const std::optional<std::int64_t> value = integerField(metadata, key, 0);
    if (!value)
        return std::string(key) + " must be integer.";
    if (*value < low || *value > high)
        return description;
    return std::nullopt;
}

} // namespace

std::optional<std::string> retryPolicyProblem(const nlohmann::json &holder)
{
    if (!holder.contains("_retry_policy"))
        return std::nullopt;
    if (!holder["_retry_policy"].is_object())
        return "retry_policy must be a dict.";
    const PolicyValidation checked = checkPolicyDocument({{"_retry_policy", holder["_retry_policy"]}});
    if (!checked.valid())
        return "Retry policy: " + checked.errors.front().field + ": " + checked.errors.front().message;
    return std::nullopt;
}

std::optional<std::string> metadataProblem(const nlohmann::json &metadata)
{
    if (!metadata.is_object())
        return "Queue metadata must be a JSON object.";
    if (metadata.dump().size() > kMaxQueueMetadata)
        return "Queue metadata is too large. Max size: " + std::to_string(kMaxQueueMetadata);
    const std::string ttlRange = " can not exceed " + std::to_string(kMaxMessageTtl) + " seconds, and must be at least " +
                                 std::to_string(kMinMessageTtl) + " seconds long.";
    if (auto problem = rangeProblem(metadata, "_default_message_ttl", kMinMessageTtl, kMaxMessageTtl,
                                    "_default_message_ttl" + ttlRange))
        return problem;
    if (auto problem = rangeProblem(metadata, "_max_messages_post_size", 1, static_cast<std::int64_t>(kMaxMessagesPostSize),
                                    "_max_messages_post_size can not exceed " + std::to_string(kMaxMessagesPostSize) +
                                        ", and must be at least greater than 0."))
        return problem;
    if (auto problem = rangeProblem(metadata, "_max_claim_count", 1, 1000, "_max_claim_count must be 1 to 1000."))
        return problem;
    if (auto problem = rangeProblem(metadata, "_dead_letter_queue_messages_ttl", kMinMessageTtl, kMaxMessageTtl,
                                    "The TTL for a message may not exceed " + std::to_string(kMaxMessageTtl) +
                                        " seconds, and must be at least " + std::to_string(kMinMessageTtl) +
                                        " seconds long."))
        return problem;
    if (auto problem = rangeProblem(metadata, "_default_message_delay", 0, kMaxMessageDelay,
                                    "The TTL can not exceed " + std::to_string(kMaxMessageDelay) +
                                        " seconds, and must be at least 0 seconds long."))
        return problem;
    if (metadata.contains("_dead_letter_queue")) {
        const nlohmann::json &dlq = metadata["_dead_letter_queue"];
        if (!dlq.is_string() || queueNameProblem(dlq.get<std::string>()))
            return "_dead_letter_queue must name a queue.";
    }
    return retryPolicyProblem(metadata);
}

PatchOutcome applyMetadataPatch(nlohmann::json metadata, const nlohmann::json &changes)
{
    const auto refuse = [](int status, std::string description) {
        return PatchOutcome{nlohmann::json::object(), status, std::move(description)};
    };
    if (!changes.is_array())
        return refuse(400, "Request body must be a JSON array of operation objects.");
    for (const nlohmann::json &change : changes) {
        if (!change.is_object())
            return refuse(400, "Operations must be JSON objects.");
        if (!change.contains("op") || !change["op"].is_string())
            return refuse(400, "Unable to find `op` in JSON Schema change. It must be one of the following: add, remove, replace.");
        const std::string op = change["op"].get<std::string>();
        if (op != "add" && op != "remove" && op != "replace")
            return refuse(400, "Invalid operation: `" + op + "`. It must be one of the following: add, remove, replace.");
        if (!change.contains("path") || !change["path"].is_string())
            return refuse(400, "Unable to find 'path' in JSON Schema change");
        const std::string path = change["path"].get<std::string>();
        const std::string prefix = "/metadata/";
        if (path.rfind(prefix, 0) != 0 || path.size() == prefix.size() ||
            path.find('/', prefix.size()) != std::string::npos)
            return refuse(400, "The root of path must be metadata, e.g /metadata/key.");
        const std::string key = path.substr(prefix.size());
        const bool reserved = key == "_max_messages_post_size" || key == "_default_message_ttl" ||
                              key == "_default_message_delay";
        if (op == "remove") {
            if (!metadata.contains(key) && !reserved)
                return refuse(409, "Can't remove non-existent object " + key + ".");
            metadata.erase(key);
            continue;
        }
        if (!change.contains("value"))
            return refuse(400, "Operation \"" + op + "\" requires a member named \"value\".");
        if (op == "replace" && !metadata.contains(key) && !reserved)
            return refuse(409, "Can't replace non-existent object " + key + ".");
        metadata[key] = change["value"];
    }
    return PatchOutcome{std::move(metadata), 200, {}};
}

} // namespace relaydesk::zaqar
