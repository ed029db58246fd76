// SPDX-License-Identifier: MIT
// The Service Bus emulator's Config.json (docs/behaviour.md §8.6): each
// namespace's queues and topic subscriptions, checked by the broker's own
// rules (policy_checks.cpp) one property at a time.
#include "template_readers.h"

#include <set>

namespace relaydesk {

using nlohmann::json;

std::optional<TemplateScan> readServiceBusConfigJson(const ScanDocument &document, const std::string &file)
{
    const json &root = document.root;
    if (!root.is_object() || !root.value("UserConfig", json()).is_object())
        return std::nullopt;
    const json namespaces = root["UserConfig"].value("Namespaces", json::array());
    std::set<std::string> names;
    for (const json &space : namespaces) {
        for (const char *list : {"Queues", "Topics"}) {
            for (const json &entity : space.value(list, json::array())) {
                if (entity.value("Name", json()).is_string())
                    names.insert(entity["Name"].get<std::string>());
            }
        }
    }
    TemplateScan scan{"Service Bus Config.json", {}};
    const auto add = [&](const json &entity, const std::string &pointer, const std::string &name, const char *form) {
        FoundPolicy policy = scan_reading::foundAt(document, file, childPointer(pointer, "Properties"), name,
                                                   "Service Bus", form, FoundPolicyKind::Lifetime);
        policy.place = document.placeOf(pointer);
        policy.document = entity.value("Properties", json::object());
        policy.document.erase("DeadLetteringOnFilterEvaluationExceptions");   // a subscription's, not a queue's
        const json target = policy.document.value("ForwardDeadLetteredMessagesTo", json());
        if (target.is_string()) {
            policy.deadLetterTarget = target.get<std::string>();
            policy.deadLetterTargetInTemplate = names.count(policy.deadLetterTarget) > 0;
        }
        scan.policies.push_back(std::move(policy));
    };
    for (std::size_t n = 0; n < namespaces.size(); ++n) {
        const std::string space = childPointer("/UserConfig/Namespaces", n);
        const json queues = namespaces[n].value("Queues", json::array());
        for (std::size_t q = 0; q < queues.size(); ++q)
            add(queues[q], childPointer(childPointer(space, "Queues"), q), queues[q].value("Name", std::string()),
                "Service Bus queue");
        const json topics = namespaces[n].value("Topics", json::array());
        for (std::size_t t = 0; t < topics.size(); ++t) {
            const std::string topic = childPointer(childPointer(space, "Topics"), t);
            const json subscriptions = topics[t].value("Subscriptions", json::array());
            for (std::size_t s = 0; s < subscriptions.size(); ++s)
                add(subscriptions[s], childPointer(childPointer(topic, "Subscriptions"), s),
                    topics[t].value("Name", std::string()) + "/Subscriptions/" + subscriptions[s].value("Name", std::string()),
                    "Service Bus subscription");
        }
    }
    return scan;
}

} // namespace relaydesk
