// SPDX-License-Identifier: MIT
// Terraform plans as `terraform show -json PLAN` writes them: the resources of
// planned_values.root_module and its child_modules, and resource_changes[]
// (change.after, change.after_unknown) for what the planned values lack
// (docs/policies.md, "policy scan"). The configuration section, when the plan
// has one, tells a policy the configuration sets from a value the provider
// computes: a queue's redrive_policy "known after apply" because another
// resource (aws_sqs_queue_redrive_policy) sets it is no policy of the queue.
#include "template_readers.h"

#include <map>
#include <regex>
#include <set>

namespace relaydesk {

namespace {

using namespace scan_reading;
using nlohmann::json;

struct PlannedResource {
    std::string address;
    std::string type;
    std::string pointer;   // of its values
    json values;
    json unknown;          // after_unknown, when resource_changes has it
};

class TerraformPlanReader final {
public:
    TerraformPlanReader(const ScanDocument &document, const std::string &file) : m_document(document), m_file(file) {}

    TemplateScan read()
    {
        const json &root = m_document.root;
        if (root.contains("configuration") && root["configuration"].contains("root_module")) {
            m_hasConfiguration = true;
            configuration(root["configuration"]["root_module"], "");
        }
        if (root.contains("planned_values") && root["planned_values"].contains("root_module"))
            module(root["planned_values"]["root_module"], "/planned_values/root_module");
        const json changes = root.value("resource_changes", json::array());
        for (std::size_t i = 0; i < changes.size(); ++i) {
            const json &change = changes[i];
            const std::string address = change.value("address", std::string());
            const json after = change.value("change", json::object()).value("after", json());
            const json unknown = change.value("change", json::object()).value("after_unknown", json::object());
            if (m_seen.count(address)) {
                for (PlannedResource &resource : m_resources) {
                    if (resource.address == address)
                        resource.unknown = unknown;
                }
            } else if (after.is_object()) {
                m_seen.insert(address);
                m_resources.push_back({address, change.value("type", std::string()),
                                       childPointer(childPointer(childPointer("/resource_changes", i), "change"), "after"),
                                       after, unknown});
            }
        }
        for (const PlannedResource &resource : m_resources) {
            if (resource.type == "aws_sqs_queue" && resource.values.value("name", json()).is_string())
                m_queueNames.insert(resource.values["name"].get<std::string>());
        }
        TemplateScan scan{"Terraform plan", {}};
        for (const PlannedResource &resource : m_resources) {
            if (resource.type == "aws_sns_topic")
                attribute(resource, "delivery_policy", "SNS topic delivery policy", scan);
            if (resource.type == "aws_sns_topic_subscription") {
                attribute(resource, "delivery_policy", "SNS subscription delivery policy", scan);
                attribute(resource, "redrive_policy", "SNS subscription redrive policy", scan);
            }
            if (resource.type == "aws_sqs_queue" || resource.type == "aws_sqs_queue_redrive_policy")
                attribute(resource, "redrive_policy", "SQS redrive policy", scan);
        }
        return scan;
    }

private:
    void module(const json &value, const std::string &pointer)
    {
        const json resources = value.value("resources", json::array());
        for (std::size_t i = 0; i < resources.size(); ++i) {
            const std::string address = resources[i].value("address", std::string());
            m_seen.insert(address);
            m_resources.push_back({address, resources[i].value("type", std::string()),
                                   childPointer(childPointer(childPointer(pointer, "resources"), i), "values"),
                                   resources[i].value("values", json::object()), json::object()});
        }
        const json children = value.value("child_modules", json::array());
        for (std::size_t i = 0; i < children.size(); ++i)
            module(children[i], childPointer(childPointer(pointer, "child_modules"), i));
    }

    // Each configured resource's attributes, by its address without instance
    // keys ("module.sqs.aws_sqs_queue.this"), through module_calls.
    void configuration(const json &module, const std::string &prefix)
    {
        if (!module.is_object())
            return;
        const json resources = module.value("resources", json::array());
        for (const json &resource : resources) {
            if (!resource.is_object())
                continue;
            std::set<std::string> &set = m_configured[prefix + resource.value("address", std::string())];
            const json expressions = resource.value("expressions", json::object());
            if (expressions.is_object()) {
                for (auto it = expressions.begin(); it != expressions.end(); ++it)
                    set.insert(it.key());
            }
        }
        const json calls = module.value("module_calls", json::object());
        if (!calls.is_object())
            return;
        for (auto it = calls.begin(); it != calls.end(); ++it) {
            if (it.value().is_object())
                configuration(it.value().value("module", json::object()), prefix + "module." + it.key() + ".");
        }
    }

    // Whether the configuration leaves `name` of `address` to the provider
    // (the resource is configured, the attribute is not). Without a
    // configuration section nothing is known, and nothing is left out.
    bool computedOnly(const std::string &address, const std::string &name) const
    {
        static const std::regex instanceKey(R"(\[[^\]]*\])");
        const auto found = m_configured.find(std::regex_replace(address, instanceKey, ""));
        return m_hasConfiguration && found != m_configured.end() && found->second.count(name) == 0;
    }

    void attribute(const PlannedResource &resource, const std::string &name, const std::string &form, TemplateScan &scan)
    {
        const json value = resource.values.value(name, json());
        const bool unknown = resource.unknown.is_object() && resource.unknown.value(name, json(false)) == json(true);
        if ((value.is_null() || value == json("")) && (!unknown || computedOnly(resource.address, name)))
            return;
        const bool redrive = name == "redrive_policy";
        const std::string service = form.substr(0, 3) == "SQS" ? "SQS" : "SNS";
        FoundPolicy policy = foundAt(m_document, m_file, childPointer(resource.pointer, name), resource.address, service,
                                     form, redrive ? FoundPolicyKind::Redrive : FoundPolicyKind::Delivery);
        if (unknown) {
            policy.unknownFields.push_back("");
            scan.policies.push_back(std::move(policy));
            return;
        }
        policy.document = policyValue(value);
        if (const auto protocol = resource.values.find("protocol"); protocol != resource.values.end() && protocol->is_string())
            parseEndpointProtocol(protocol->get<std::string>(), policy.protocol);
        if (redrive) {
            RedriveFacts facts;
            if (resource.type == "aws_sqs_queue") {
                facts.visibilitySeconds = wholeNumber(resource.values.value("visibility_timeout_seconds", json()));
                facts.retentionSeconds = wholeNumber(resource.values.value("message_retention_seconds", json()));
            }
            if (policy.document.is_object()) {
                if (policy.document.contains("maxReceiveCount"))
                    facts.maxReceiveCount = wholeNumber(policy.document["maxReceiveCount"]);
                if (policy.document.value("deadLetterTargetArn", json()).is_string()) {
                    policy.deadLetterTarget = policy.document["deadLetterTargetArn"].get<std::string>();
                    policy.deadLetterTargetInTemplate = m_queueNames.count(arnResource(policy.deadLetterTarget)) > 0;
                }
            }
            policy.redrive = facts;
        }
        scan.policies.push_back(std::move(policy));
    }

    const ScanDocument &m_document;
    const std::string &m_file;
    std::vector<PlannedResource> m_resources;
    std::set<std::string> m_seen;
    std::set<std::string> m_queueNames;
    std::map<std::string, std::set<std::string>> m_configured;   // configured address => attributes set
    bool m_hasConfiguration = false;
};

} // namespace

std::optional<TemplateScan> readTerraformPlan(const ScanDocument &document, const std::string &file)
{
    const json &root = document.root;
    if (!root.is_object() || !root.contains("format_version") ||
        !(root.contains("planned_values") || root.contains("resource_changes")))
        return std::nullopt;
    return TerraformPlanReader(document, file).read();
}

} // namespace relaydesk
