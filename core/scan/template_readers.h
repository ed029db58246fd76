// SPDX-License-Identifier: MIT
#pragma once

#include "found_policy.h"

#include <optional>
#include <string>
#include <vector>

namespace relaydesk {

// What one reader made of one file: the format's name and the policies in it
// (places, names, kind, document and dead-letter facts set; not yet checked).
struct TemplateScan {
    std::string format;   // "CloudFormation", "Terraform plan", "ARM template", …
    std::vector<FoundPolicy> policies;
};

// The readers, one per format (docs/policies.md, "policy scan"). Each
// recognises its format by content and returns nothing for any other
// document. `file` is the name reported. Pure.
std::optional<TemplateScan> readCloudFormation(const ScanDocument &document, const std::string &file);
std::optional<TemplateScan> readTerraformPlan(const ScanDocument &document, const std::string &file);
std::optional<TemplateScan> readArmTemplate(const ScanDocument &document, const std::string &file);
std::optional<TemplateScan> readHeatTemplate(const ScanDocument &document, const std::string &file);
std::optional<TemplateScan> readServiceBusConfigJson(const ScanDocument &document, const std::string &file);
// Zaqar queue metadata, a plain delivery policy or an SQS redrive policy.
std::optional<TemplateScan> readPolicyFile(const ScanDocument &document, const std::string &file);

// Shared by the readers.
namespace scan_reading {

// A policy found at `pointer` of `document`.
FoundPolicy foundAt(const ScanDocument &document, const std::string &file, const std::string &pointer,
                    std::string name, std::string service, std::string form, FoundPolicyKind kind);
// A policy value as written: an object, or JSON text holding one (parsed).
nlohmann::json policyValue(const nlohmann::json &value);
// A whole number written as a number or as text ("5"); nothing otherwise.
std::optional<std::int64_t> wholeNumber(const nlohmann::json &value);
// "arn:aws:sqs:us-east-1:123456789012:orders-dlq" => "orders-dlq".
std::string arnResource(const std::string &arn);
// The Zaqar queue metadata at `pointer` (_retry_policy, _max_claim_count,
// _dead_letter_queue, _default_message_ttl): its delivery and redrive policies.
void readZaqarMetadata(const ScanDocument &document, const std::string &file, const std::string &pointer,
                       const std::string &name, std::vector<FoundPolicy> &into);
bool hasZaqarMetadata(const nlohmann::json &value);

} // namespace scan_reading

} // namespace relaydesk
