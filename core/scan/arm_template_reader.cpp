// SPDX-License-Identifier: MIT
// ARM templates: Microsoft.ServiceBus/namespaces/queues and
// …/topics/subscriptions, at the top level or nested in their parents'
// "resources" (docs/policies.md, "policy scan"). Properties are read as the
// emulator's Config.json writes them, so the broker's own Service Bus rules
// check them (parseServiceBusQueue, in policy_checks.cpp).
#include "template_readers.h"

#include "arm_expression.h"
#include "policy_checks.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <set>

namespace relaydesk {

namespace {

using namespace scan_reading;
using nlohmann::json;

// ARM's property => Config.json's. The lifetime and forwarding properties only:
// partitioning, size and batching do not change when a message dead-letters.
constexpr std::array<std::pair<std::string_view, std::string_view>, 10> kLifetimeProperties = {{
    {"lockDuration", "LockDuration"},
    {"maxDeliveryCount", "MaxDeliveryCount"},
    {"defaultMessageTimeToLive", "DefaultMessageTimeToLive"},
    {"deadLetteringOnMessageExpiration", "DeadLetteringOnMessageExpiration"},
    {"autoDeleteOnIdle", "AutoDeleteOnIdle"},
    {"requiresSession", "RequiresSession"},
    {"requiresDuplicateDetection", "RequiresDuplicateDetection"},
    {"duplicateDetectionHistoryTimeWindow", "DuplicateDetectionHistoryTimeWindow"},
    {"forwardTo", "ForwardTo"},
    {"forwardDeadLetteredMessagesTo", "ForwardDeadLetteredMessagesTo"},
}};

// Resource types in lower case: ARM compares them without case (Azure's
// quickstarts nest "Subscriptions" under "topics").
constexpr std::string_view kServiceBus = "microsoft.servicebus/namespaces";
constexpr std::string_view kQueues = "microsoft.servicebus/namespaces/queues";
constexpr std::string_view kSubscriptions = "microsoft.servicebus/namespaces/topics/subscriptions";

std::string lowerCase(std::string text)
{
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return text;
}

struct ArmEntity {
    std::string type;      // the full type in lower case, "microsoft.servicebus/namespaces/queues"
    std::string name;      // the entity's own name (last segment)
    std::string path;      // "topic/Subscriptions/sub" for a subscription, else the name
    std::string pointer;   // of the resource
    json properties;       // resolved
};

class ArmTemplateReader final {
public:
    ArmTemplateReader(const ScanDocument &document, const std::string &file)
        : m_document(document), m_file(file), m_expressions(document.root)
    {
    }

    TemplateScan read()
    {
        walk(m_document.root["resources"], "/resources", "", "");
        std::set<std::string> names;
        for (const ArmEntity &entity : m_entities)
            names.insert(entity.name);
        TemplateScan scan{"ARM template", {}};
        for (const ArmEntity &entity : m_entities) {
            const bool queue = entity.type == kQueues;
            if (!queue && entity.type != kSubscriptions)
                continue;
            FoundPolicy policy = foundAt(m_document, m_file, entity.pointer, entity.path, "Service Bus",
                                         queue ? "Service Bus queue" : "Service Bus subscription",
                                         FoundPolicyKind::Lifetime);
            policy.document = json::object();
            for (const auto &[arm, config] : kLifetimeProperties) {
                const std::string key(arm);
                if (!entity.properties.contains(key))
                    continue;
                policy.document[std::string(config)] = entity.properties[key];
                policy.fieldPointers[std::string(config)] = childPointer(childPointer(entity.pointer, "properties"), key);
            }
            const json target = policy.document.value("ForwardDeadLetteredMessagesTo", json());
            if (target.is_string() && !isIntrinsic(target)) {
                policy.deadLetterTarget = target.get<std::string>();
                policy.deadLetterTargetInTemplate = names.count(policy.deadLetterTarget) > 0;
            }
            // The name as the emulator would take it (a subscription's too).
            policy.name = entity.path;
            scan.policies.push_back(std::move(policy));
        }
        return scan;
    }

private:
    void walk(const json &resources, const std::string &pointer, const std::string &parentType,
              const std::string &parentPath)
    {
        if (!resources.is_array())
            return;
        for (std::size_t i = 0; i < resources.size(); ++i) {
            const json &resource = resources[i];
            if (!resource.is_object())
                continue;
            const std::string here = childPointer(pointer, i);
            std::string type = lowerCase(resource.value("type", std::string()));
            if (!parentType.empty() && type.find('/') == std::string::npos)
                type = parentType + "/" + type;   // nested: "queues" under a namespace
            const json name = m_expressions.resolve(resource.value("name", json("")));
            const std::string fullName = name.is_string() ? name.get<std::string>() : std::string();
            // "ns/topic/sub" (top level) or "sub" (nested): the segments after the namespace.
            std::vector<std::string> segments;
            for (std::size_t start = 0; start <= fullName.size();) {
                const std::size_t slash = std::min(fullName.find('/', start), fullName.size());
                segments.push_back(fullName.substr(start, slash - start));
                start = slash + 1;
            }
            const std::string own = isIntrinsic(name) ? fullName : segments.back();
            std::string path = own;
            const bool subscription = type == kSubscriptions;
            if (subscription) {
                const std::string topic = parentPath.empty() && segments.size() >= 2 ? segments[segments.size() - 2]
                                                                                     : parentPath;
                path = topic + "/Subscriptions/" + own;
            }
            if (std::string_view(type).substr(0, kServiceBus.size()) == kServiceBus)
                m_entities.push_back({type, own, path, here, m_expressions.resolve(resource.value("properties", json::object()))});
            walk(resource.value("resources", json::array()), childPointer(here, "resources"), type,
                 type == kServiceBus ? std::string() : own);
        }
    }

    const ScanDocument &m_document;
    const std::string &m_file;
    ArmExpressions m_expressions;
    std::vector<ArmEntity> m_entities;
};

} // namespace

std::optional<TemplateScan> readArmTemplate(const ScanDocument &document, const std::string &file)
{
    const json &root = document.root;
    if (!root.is_object() || !root.contains("resources") || !root["resources"].is_array())
        return std::nullopt;
    const std::string schema = root.value("$schema", std::string());
    if (schema.find("deploymentTemplate") == std::string::npos && !root.contains("contentVersion"))
        return std::nullopt;
    return ArmTemplateReader(document, file).read();
}

} // namespace relaydesk
