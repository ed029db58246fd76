// SPDX-License-Identifier: MIT
#include "api/servicebus/servicebus_config.h"

#include "engine/broker_engine.h"
#include "json/bounded_json.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <set>
#include <sstream>

namespace relaydesk {

namespace {

BrokerError configError(const std::string &where, const std::string &problem)
{
    return BrokerError(BrokerErrorCode::InvalidParameterValue, where + ": " + problem);
}

} // namespace

Result<std::vector<ServiceBusQueueProperties>> readServiceBusConfigText(std::string_view text)
{
    const nlohmann::json document = parseBoundedJson(text);
    if (document.is_discarded() || !document.is_object())
        return configError("Config.json", "not valid JSON");
    const auto user = document.find("UserConfig");
    if (user == document.end() || !user->is_object())
        return configError("Config.json", "needs a \"UserConfig\" object");
    const auto namespaces = user->find("Namespaces");
    if (namespaces == user->end() || !namespaces->is_array())
        return configError("UserConfig", "needs a \"Namespaces\" array");
    std::vector<ServiceBusQueueProperties> queues;
    std::set<std::string> names;
    for (const nlohmann::json &space : *namespaces) {
        if (!space.is_object())
            return configError("Namespaces", "each namespace is an object");
        if (const auto topics = space.find("Topics"); topics != space.end() && !(topics->is_array() && topics->empty()))
            return configError("Namespaces", "Topics are not supported by Relaydesk yet (docs/behaviour.md §8.6)");
        const auto list = space.find("Queues");
        if (list == space.end())
            continue;
        if (!list->is_array())
            return configError("Namespaces", "\"Queues\" is an array");
        for (const nlohmann::json &queue : *list) {
            Result<ServiceBusQueueProperties> properties = parseServiceBusQueue(queue);
            if (!properties)
                return configError("Queues", properties.error().message);
            if (!names.insert(properties->name).second)
                return configError("Queues", "the queue \"" + properties->name + "\" is declared twice");
            queues.push_back(std::move(*properties));
        }
    }
    return queues;
}

Result<std::vector<ServiceBusQueueProperties>> readServiceBusConfigFile(const std::string &path)
{
    std::ifstream file(path, std::ios::binary);
    if (!file)
        return configError(path, "cannot be read");
    std::ostringstream text;
    text << file.rdbuf();
    auto queues = readServiceBusConfigText(text.str());
    if (!queues)
        return configError(path, queues.error().message);
    return queues;
}

Status applyServiceBusConfigAndWait(BrokerEngine &engine, const BrokerIdentity &identity,
                                    const std::vector<ServiceBusQueueProperties> &queues)
{
    auto applied = engine.executeAndWait([&identity, &queues](Database &db, ClockTime now) -> Result<bool> {
        for (const ServiceBusQueueProperties &queue : queues) {
            if (auto created = servicebus_queues::create(db, queue, identity, now); !created)
                return created.error();
        }
        return true;
    });
    if (!applied)
        return applied.error();
    return {};
}

} // namespace relaydesk
