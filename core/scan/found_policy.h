// SPDX-License-Identifier: MIT
#pragma once

#include "scan_document.h"

#include "broker/queues/servicebus_queue.h"
#include "policy/policy_issue.h"
#include "policy/policy_report.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace relaydesk {

// How much a finding matters (SARIF's levels): --fail-on picks the least
// that fails the scan (docs/policies.md, "policy scan").
enum class FindingLevel { Note, Warning, Error };
std::string_view findingLevelName(FindingLevel level);   // "note", "warning", "error"
std::optional<FindingLevel> parseFindingLevel(std::string_view name);

// One thing a review should notice about a policy, with its rule id
// ("dlq-target-missing", …, the table in docs/policies.md) and its place.
struct ScanFinding {
    std::string rule;
    FindingLevel level = FindingLevel::Warning;
    std::string message;
    std::string field;   // the policy's field ("" for the policy as a whole)
    TextPlace place;
    bool operator==(const ScanFinding &) const = default;
};

// What kind of policy was found.
enum class FoundPolicyKind {
    Delivery,   // an SNS or Zaqar delivery (retry) policy: a schedule
    Redrive,    // an SQS redrive policy, SNS subscription redrive or Zaqar dead-letter metadata
    Lifetime,   // a Service Bus queue or subscription: TTL, lock, max deliveries
};

// The redrive facts of a queue (SQS, SNS subscription, Zaqar).
struct RedriveFacts {
    std::optional<std::int64_t> maxReceiveCount;     // receives (claims) before the move
    std::optional<std::int64_t> visibilitySeconds;   // VisibilityTimeout / claim ttl
    std::optional<std::int64_t> retentionSeconds;    // MessageRetentionPeriod / message ttl
};

// One policy found in a template, with what the scan made of it.
struct FoundPolicy {
    std::string file;           // as reported: the scanned path and the file under it
    std::string relativeFile;   // under the scanned folder (the file's name for a file): how --base pairs files
    TextPlace place;
    std::string name;      // the logical name, the resource address, the entity's name
    std::string service;   // "SNS", "SQS", "Zaqar", "Service Bus"
    std::string form;      // "SNS topic delivery policy", "SQS redrive policy", "Service Bus queue", …
    FoundPolicyKind kind = FoundPolicyKind::Delivery;
    std::string pointer;   // where in the document (JSON pointer)
    nlohmann::json document;   // the policy as written (JSON text inside the template parsed)

    std::optional<PolicyExplanation> delivery;            // kind Delivery, when readable
    std::optional<RedriveFacts> redrive;                  // kind Redrive
    std::optional<ServiceBusQueueProperties> lifetime;    // kind Lifetime, when valid
    std::vector<PolicyIssue> errors;                      // every error at its field
    std::string summary;                                  // schedule or lifetime in one line
    std::vector<ScanFinding> findings;

    // Set by the readers for the checks.
    EndpointProtocol protocol = EndpointProtocol::Http;   // what a delivery policy is checked for
    std::string deadLetterTarget;                    // where dead letters go, as written ("" none)
    std::optional<bool> deadLetterTargetInTemplate;  // nothing when unresolved or none
    std::map<std::string, std::string> fieldPointers;   // a field => its place (JSON pointer), when not under `pointer`
    std::vector<std::string> unknownFields;          // fields only known after apply (Terraform's after_unknown)

    bool valid() const { return errors.empty(); }
    // How --base pairs a policy with its earlier self: file, name and form.
    std::string key() const { return relativeFile + "#" + name + "#" + form; }
};

} // namespace relaydesk
