// SPDX-License-Identifier: MIT
// CloudFormation and SAM templates (JSON or YAML): AWS::SNS::Topic and
// AWS::SNS::Subscription DeliveryPolicy, AWS::SNS::Subscription and
// AWS::SQS::Queue RedrivePolicy (docs/policies.md, "policy scan").
#include "template_readers.h"

#include <set>

namespace relaydesk {

namespace {

using namespace scan_reading;
using nlohmann::json;

class CloudFormationReader final {
public:
    CloudFormationReader(const ScanDocument &document, const std::string &file) : m_document(document), m_file(file) {}

    TemplateScan read()
    {
        const json &resources = m_document.root["Resources"];
        for (auto it = resources.begin(); it != resources.end(); ++it) {
            m_logicalNames.insert(it.key());
            const json name = it.value().value("Properties", json::object()).value("QueueName", json());
            if (name.is_string())
                m_queueNames.insert(name.get<std::string>());
        }
        TemplateScan scan{"CloudFormation", {}};
        for (auto it = resources.begin(); it != resources.end(); ++it) {
            if (!it.value().is_object())
                continue;
            const std::string type = it.value().value("Type", std::string());
            const json properties = it.value().value("Properties", json::object());
            const std::string pointer = childPointer(childPointer("/Resources", it.key()), "Properties");
            if (type == "AWS::SNS::Topic" && properties.contains("DeliveryPolicy"))
                scan.policies.push_back(delivery(it.key(), pointer, properties, "SNS topic delivery policy"));
            if (type == "AWS::SNS::Subscription" && properties.contains("DeliveryPolicy"))
                scan.policies.push_back(delivery(it.key(), pointer, properties, "SNS subscription delivery policy"));
            if ((type == "AWS::SNS::Subscription" || type == "AWS::SQS::Queue") && properties.contains("RedrivePolicy"))
                scan.policies.push_back(redrive(it.key(), pointer, properties, type == "AWS::SQS::Queue"));
        }
        return scan;
    }

private:
    FoundPolicy delivery(const std::string &logical, const std::string &pointer, const json &properties,
                         const std::string &form)
    {
        FoundPolicy policy = foundAt(m_document, m_file, childPointer(pointer, "DeliveryPolicy"), logical, "SNS", form,
                                     FoundPolicyKind::Delivery);
        policy.document = policyValue(properties["DeliveryPolicy"]);
        if (const auto protocol = properties.find("Protocol"); protocol != properties.end() && protocol->is_string())
            parseEndpointProtocol(protocol->get<std::string>(), policy.protocol);
        return policy;
    }

    FoundPolicy redrive(const std::string &logical, const std::string &pointer, const json &properties, bool queue)
    {
        FoundPolicy policy = foundAt(m_document, m_file, childPointer(pointer, "RedrivePolicy"), logical,
                                     queue ? "SQS" : "SNS",
                                     queue ? "SQS redrive policy" : "SNS subscription redrive policy",
                                     FoundPolicyKind::Redrive);
        policy.document = policyValue(properties["RedrivePolicy"]);
        RedriveFacts facts;
        if (queue) {
            facts.visibilitySeconds = wholeNumber(properties.value("VisibilityTimeout", json(30)));
            facts.retentionSeconds = wholeNumber(properties.value("MessageRetentionPeriod", json(345600)));
        }
        if (policy.document.is_object() && !policy.document.contains("Fn::Sub") && !policy.document.contains("Ref")) {
            if (const auto count = policy.document.find("maxReceiveCount"); count != policy.document.end()) {
                facts.maxReceiveCount = wholeNumber(*count);
                if (!facts.maxReceiveCount && !count->is_object())
                    policy.errors.push_back({"maxReceiveCount", "must be an integer between 1 and 1000"});
            }
            if (const auto target = policy.document.find("deadLetterTargetArn"); target != policy.document.end())
                deadLetterTarget(*target, policy);
        }
        policy.redrive = facts;
        return policy;
    }

    // !GetAtt Q.Arn and !Ref Q name a resource of the template: resolved by
    // reference, written back as text. A literal ARN is looked up by queue
    // name; anything else is left for the unresolved-intrinsic note.
    void deadLetterTarget(json &target, FoundPolicy &policy) const
    {
        std::string logical;
        if (target.is_object() && target.contains("Fn::GetAtt") && target["Fn::GetAtt"].is_array() &&
            !target["Fn::GetAtt"].empty() && target["Fn::GetAtt"][0].is_string())
            logical = target["Fn::GetAtt"][0].get<std::string>();
        else if (target.is_object() && target.contains("Ref") && target["Ref"].is_string())
            logical = target["Ref"].get<std::string>();
        if (!logical.empty() && m_logicalNames.count(logical)) {
            policy.deadLetterTarget = logical;
            policy.deadLetterTargetInTemplate = true;
            target = "arn of " + logical;
        } else if (target.is_string()) {
            policy.deadLetterTarget = target.get<std::string>();
            policy.deadLetterTargetInTemplate = m_queueNames.count(arnResource(policy.deadLetterTarget)) > 0;
        }
    }

    const ScanDocument &m_document;
    const std::string &m_file;
    std::set<std::string> m_logicalNames;
    std::set<std::string> m_queueNames;
};

} // namespace

std::optional<TemplateScan> readCloudFormation(const ScanDocument &document, const std::string &file)
{
    const json &root = document.root;
    if (!root.is_object() || !root.contains("Resources") || !root["Resources"].is_object())
        return std::nullopt;
    bool aws = root.contains("AWSTemplateFormatVersion") || root.contains("Transform");
    for (const auto &resource : root["Resources"]) {
        if (resource.is_object() && resource.value("Type", std::string()).rfind("AWS::", 0) == 0)
            aws = true;
    }
    if (!aws)
        return std::nullopt;
    return CloudFormationReader(document, file).read();
}

} // namespace relaydesk
