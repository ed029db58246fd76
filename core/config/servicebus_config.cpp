// SPDX-License-Identifier: MIT
#include "config/servicebus_config.h"

#include "engine/broker_engine.h"
#include "engine/broker_service.h"
#include "engine/unit_context.h"
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

Result<ServiceBusConfig> readServiceBusConfigText(std::string_view text)
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
    ServiceBusConfig config;
    std::vector<ServiceBusQueueProperties> &queues = config.queues;
    std::set<std::string> names;
    for (const nlohmann::json &space : *namespaces) {
        if (!space.is_object())
            return configError("Namespaces", "each namespace is an object");
        if (const auto topics = space.find("Topics"); topics != space.end()) {
            if (!topics->is_array())
                return configError("Namespaces", "\"Topics\" is an array");
            for (const nlohmann::json &given : *topics) {
                Result<ServiceBusTopic> topic = parseServiceBusTopic(given);
                if (!topic)
                    return configError("Topics", topic.error().message);
                if (!names.insert(topic->name).second)
                    return configError("Topics", "the name \"" + topic->name + "\" is declared twice");
                config.topics.push_back(std::move(*topic));
            }
        }
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
    return config;
}

Result<ServiceBusConfig> readServiceBusConfigFile(const std::string &path)
{
    std::ifstream file(path, std::ios::binary);
    if (!file)
        return configError(path, "cannot be read");
    std::ostringstream text;
    text << file.rdbuf();
    auto config = readServiceBusConfigText(text.str());
    if (!config)
        return configError(path, config.error().message);
    return config;
}

bool looksLikeServiceBusConfig(std::string_view text)
{
    const nlohmann::json document = parseBoundedJson(text);
    return !document.is_discarded() && document.is_object() && document.contains("UserConfig")
        && document["UserConfig"].is_object();
}

void applyServiceBusConfig(BrokerService &service, ServiceBusConfig config, QObject *context,
                           std::function<void(Result<ServiceBusConfigApplied>)> reply)
{
    service.runUnit(
        [config = std::move(config)](UnitContext &unit, const BrokerIdentity &identity, IdSource &,
                                     std::vector<std::string> &) -> Result<std::any> {
            ServiceBusConfigApplied applied;
            const auto count = [&](bool created, const std::string &name) {
                ++(created ? applied.created : applied.kept);
                if (created)
                    unit.reportChange({EntityChange::Kind::Created, EntityChange::Entity::Queue,
                                       QString::fromStdString(name)});
            };
            for (const ServiceBusQueueProperties &queue : config.queues) {
                auto created = servicebus_queues::create(unit.database(), queue, identity, unit.now());
                if (!created)
                    return created.error();
                count(*created, queue.name);
            }
            for (const ServiceBusTopic &topic : config.topics) {
                auto created = servicebus_topics::create(unit.database(), topic, identity, unit.now());
                if (!created)
                    return created.error();
                count(*created, topic.name);
            }
            return std::any(applied);
        },
        false, context, [reply = std::move(reply)](Result<std::any> done) {
            if (!done)
                return reply(done.error());
            reply(std::any_cast<ServiceBusConfigApplied>(*done));
        });
}

Status applyServiceBusConfigAndWait(BrokerEngine &engine, const BrokerIdentity &identity,
                                    const ServiceBusConfig &config)
{
    auto applied = engine.executeAndWait([&identity, &config](Database &db, ClockTime now) -> Result<bool> {
        for (const ServiceBusQueueProperties &queue : config.queues) {
            if (auto created = servicebus_queues::create(db, queue, identity, now); !created)
                return created.error();
        }
        for (const ServiceBusTopic &topic : config.topics) {
            if (auto created = servicebus_topics::create(db, topic, identity, now); !created)
                return created.error();
        }
        return true;
    });
    if (!applied)
        return applied.error();
    return {};
}

} // namespace relaydesk
