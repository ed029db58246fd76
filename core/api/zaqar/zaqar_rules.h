// SPDX-License-Identifier: MIT
#pragma once

#include "broker/zaqar/zaqar_limits.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace relaydesk::zaqar {

// The reserved metadata with their defaults, as GET /v2/queues/NAME fills
// them in: _max_messages_post_size, _default_message_ttl, _default_message_delay.
nlohmann::json withReservedDefaults(nlohmann::json metadata);

// Nothing when `name` is a queue name Zaqar takes and Relaydesk can keep
// (1–64 of [A-Za-z0-9_-]; Zaqar's '.' is refused: SQS names have none),
// else the description of the 400.
std::optional<std::string> queueNameProblem(std::string_view name);

// Whether `text` is a UUID as Python's uuid.UUID reads it (32 hex digits,
// dashes and braces allowed, an optional "urn:uuid:").
bool isClientId(std::string_view text);

// Zaqar's checks of queue metadata (queue_metadata_putting, the retry
// policy): nothing when it may be stored, else the description of the 400.
// `_retry_policy` is read as the Zaqar form of docs/behaviour.md §2.2.
std::optional<std::string> metadataProblem(const nlohmann::json &metadata);

// The check of `holder`'s `_retry_policy` (queue metadata or subscription
// options), read as the Zaqar form: nothing when absent or valid, else the
// description of the 400 naming the first problem.
std::optional<std::string> retryPolicyProblem(const nlohmann::json &holder);

// A JSON patch of queue metadata (draft 10, paths /metadata/KEY; add,
// replace, remove) applied to `metadata`. On error: status (400 or 409) and
// description.
struct PatchOutcome {
    nlohmann::json metadata;
    int status = 200;
    std::string description;   // when status != 200
};
PatchOutcome applyMetadataPatch(nlohmann::json metadata, const nlohmann::json &changes);

// Reads an integer field: absent or null => `fallback`; not an integer => nothing.
std::optional<std::int64_t> integerField(const nlohmann::json &object, const char *key, std::int64_t fallback);

} // namespace relaydesk::zaqar
