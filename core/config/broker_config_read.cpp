// SPDX-License-Identifier: MIT
// The broker configuration file: reading and checking the document, and
// writing one (format in broker_config.h).
#include "config/broker_config.h"
#include "config/config_locations.h"

#include "config/broker_config_mocks.h"
#include "json/bounded_json.h"

#include "broker/queues/queue_attributes.h"
#include "broker/topics/subscription_attributes.h"
#include "broker/topics/topic_attributes.h"

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

namespace relaydesk {

namespace {

using Json = nlohmann::json;

// "queues[0] (orders): tags", "delete.queues".
std::string join(const std::string &where, const std::string &key)
{
    if (where.empty())
        return key;
    return where.back() == ')' ? where + ": " + key : where + "." + key;
}

BrokerError structureError(const std::string &where, const std::string &message)
{
    return BrokerError(BrokerErrorCode::InvalidParameterValue, where + ": " + message);
}

// A document over kMaxConfigEntities.
BrokerError tooManyEntities(std::size_t count)
{
    return structureError("config", "declares " + std::to_string(count) + " entities; one document holds at most " +
                                        std::to_string(kMaxConfigEntities) +
                                        " queues, topics, subscriptions and deletions together (it is applied as one "
                                        "transaction that holds up every other request): split it into several");
}

std::size_t entityCount(const BrokerConfig &config)
{
    std::size_t count = config.queues.size() + config.topics.size() + config.mocks.size() + config.deleteQueues.size() +
                        config.deleteTopics.size() + config.deleteSubscriptions.size();
    for (const TopicDeclaration &topic : config.topics)
        count += topic.subscriptions.size();
    return count;
}

Status onlyKeys(const Json &object, const std::string &where, std::initializer_list<const char *> keys)
{
    for (const auto &item : object.items()) {
        const std::string &key = item.key(); // not a structured binding: clang 14 cannot capture one
        if (std::none_of(keys.begin(), keys.end(), [&key](const char *known) { return key == known; }))
            return structureError(join(where, key), "unknown key");
    }
    return {};
}

Result<std::string> readString(const Json &object, const char *key, const std::string &where, bool required)
{
    if (!object.contains(key)) {
        if (required)
            return structureError(where, std::string("\"") + key + "\" is required");
        return std::string();
    }
    if (!object[key].is_string() || object[key].get<std::string>().empty())
        return structureError(join(where, key), "must be a non-empty string");
    return object[key].get<std::string>();
}

// Attribute values: text, or JSON stored as its compact text.
Result<AttributeMap> readAttributes(const Json &object, const std::string &where)
{
    AttributeMap attributes;
    if (!object.contains("attributes"))
        return attributes;
    const Json &given = object["attributes"];
    if (!given.is_object())
        return structureError(where + ": attributes", "must be an object");
    for (const auto &[name, value] : given.items()) {
        const std::string at = where + ": attributes." + name;
        if (value.is_string())
            attributes[name] = value.get<std::string>();
        else if (value.is_object() || value.is_array())
            attributes[name] = value.dump();
        else if (value.is_boolean())
            attributes[name] = value.get<bool>() ? "true" : "false";
        else if (value.is_number_integer())
            attributes[name] = value.dump();
        else
            return structureError(at, "must be a string, a whole number, a boolean or a JSON object");
    }
    return attributes;
}

Result<std::map<std::string, std::string>> readTags(const Json &object, const std::string &where)
{
    std::map<std::string, std::string> tags;
    if (!object.contains("tags"))
        return tags;
    if (!object["tags"].is_object())
        return structureError(where + ": tags", "must be an object of strings");
    for (const auto &[key, value] : object["tags"].items()) {
        if (!value.is_string())
            return structureError(where + ": tags." + key, "must be a string");
        tags[key] = value.get<std::string>();
    }
    return tags;
}

const Json &arrayAt(const Json &object, const char *key, const std::string &where, Status &status)
{
    static const Json empty = Json::array();
    if (!object.contains(key))
        return empty;
    if (!object[key].is_array()) {
        status = structureError(join(where, key), "must be an array");
        return empty;
    }
    return object[key];
}

// Each attribute alone (so the error names it), then all together.
template <class Parse>
Status checkAttributes(const std::string &where, const AttributeMap &attributes, const char *fifoKey, Parse parse)
{
    for (const auto &[name, value] : attributes) {
        AttributeMap one{{name, value}};
        if (const auto fifo = attributes.find(fifoKey); fifo != attributes.end())
            one.insert(*fifo);
        if (auto parsed = parse(one); !parsed)
            return locatedConfigError(where + ": attributes." + name, parsed.error());
    }
    if (auto parsed = parse(attributes); !parsed)
        return locatedConfigError(where + ": attributes", parsed.error());
    return {};
}

Result<QueueDeclaration> readQueue(const Json &given, const std::string &at)
{
    if (!given.is_object())
        return structureError(at, "must be an object");
    QueueDeclaration queue;
    auto name = readString(given, "name", at, true);
    if (!name)
        return name.error();
    queue.name = *name;
    const std::string where = at + " (" + queue.name + ")";
    if (Status keys = onlyKeys(given, where, {"name", "attributes", "tags"}); !keys)
        return keys.error();
    auto attributes = readAttributes(given, where);
    if (!attributes)
        return attributes.error();
    queue.attributes = *attributes;
    for (const auto &[attribute, value] : queue.attributes) {
        const auto &computed = queueComputedAttributeNames();
        if (attribute == "All" || !isQueueAttributeName(attribute) ||
            std::find(computed.begin(), computed.end(), attribute) != computed.end())
            return BrokerError(BrokerErrorCode::InvalidAttributeName,
                               where + ": attributes." + attribute + ": not a settable queue attribute");
    }
    if (Status checked = checkAttributes(where, queue.attributes, "FifoQueue",
                                         [&](const AttributeMap &map) { return parseQueueAttributes(queue.name, map); });
        !checked)
        return checked.error();
    auto tags = readTags(given, where);
    if (!tags)
        return tags.error();
    queue.tags = *tags;
    return queue;
}

Result<SubscriptionDeclaration> readSubscription(const Json &given, const std::string &at, const BrokerIdentity &identity)
{
    if (!given.is_object())
        return structureError(at, "must be an object");
    if (Status keys = onlyKeys(given, at, {"protocol", "endpoint", "attributes"}); !keys)
        return keys.error();
    SubscriptionDeclaration subscription;
    auto protocolText = readString(given, "protocol", at, true);
    if (!protocolText)
        return protocolText.error();
    auto endpoint = readString(given, "endpoint", at, true);
    if (!endpoint)
        return endpoint.error();
    subscription.protocol = *protocolText;
    subscription.endpoint = *endpoint;
    if (subscription.endpoint.rfind("queue:", 0) == 0)
        subscription.endpoint = identity.queueArn(subscription.endpoint.substr(6));
    const std::string where = at + " (" + subscription.protocol + " " + *endpoint + ")";
    auto protocol = parseSubscriptionProtocol(subscription.protocol);
    if (!protocol)
        return locatedConfigError(where + ": protocol", protocol.error());
    if (Status valid = validateSubscriptionEndpoint(*protocol, subscription.endpoint); !valid)
        return locatedConfigError(where + ": endpoint", valid.error());
    auto attributes = readAttributes(given, where);
    if (!attributes)
        return attributes.error();
    subscription.attributes = *attributes;
    if (Status checked = checkAttributes(where, subscription.attributes, "",
                                         [&](const AttributeMap &map) { return parseSubscriptionAttributes(*protocol, map); });
        !checked)
        return checked.error();
    return subscription;
}

Result<TopicDeclaration> readTopic(const Json &given, const std::string &at, const BrokerIdentity &identity)
{
    if (!given.is_object())
        return structureError(at, "must be an object");
    TopicDeclaration topic;
    auto name = readString(given, "name", at, true);
    if (!name)
        return name.error();
    topic.name = *name;
    const std::string where = at + " (" + topic.name + ")";
    if (Status keys = onlyKeys(given, where, {"name", "attributes", "tags", "subscriptions"}); !keys)
        return keys.error();
    auto attributes = readAttributes(given, where);
    if (!attributes)
        return attributes.error();
    topic.attributes = *attributes;
    if (Status checked = checkAttributes(where, topic.attributes, "FifoTopic",
                                         [&](const AttributeMap &map) { return parseTopicAttributes(topic.name, map); });
        !checked)
        return checked.error();
    auto tags = readTags(given, where);
    if (!tags)
        return tags.error();
    topic.tags = *tags;
    Status status;
    const Json &subscriptions = arrayAt(given, "subscriptions", where, status);
    if (!status)
        return status.error();
    std::set<std::pair<std::string, std::string>> seen;
    for (std::size_t index = 0; index < subscriptions.size(); ++index) {
        const std::string at2 = where + ": subscriptions[" + std::to_string(index) + "]";
        auto subscription = readSubscription(subscriptions[index], at2, identity);
        if (!subscription)
            return subscription.error();
        if (!seen.emplace(subscription->protocol, subscription->endpoint).second)
            return structureError(at2, "the same protocol and endpoint are declared twice");
        topic.subscriptions.push_back(std::move(subscription).value());
    }
    return topic;
}

Status readDeletions(const Json &document, BrokerConfig &config, const BrokerIdentity &identity)
{
    if (!document.contains("delete"))
        return {};
    const Json &given = document["delete"];
    if (!given.is_object())
        return structureError("delete", "must be an object");
    if (Status keys = onlyKeys(given, "delete", {"queues", "topics", "subscriptions"}); !keys)
        return keys;
    Status status;
    for (const char *kind : {"queues", "topics"}) {
        const Json &names = arrayAt(given, kind, "delete", status);
        if (!status)
            return status;
        for (std::size_t index = 0; index < names.size(); ++index) {
            if (!names[index].is_string() || names[index].get<std::string>().empty())
                return structureError(std::string("delete.") + kind + "[" + std::to_string(index) + "]",
                                      "must be a non-empty string");
            (std::string_view(kind) == "queues" ? config.deleteQueues : config.deleteTopics)
                .push_back(names[index].get<std::string>());
        }
    }
    const Json &subscriptions = arrayAt(given, "subscriptions", "delete", status);
    if (!status)
        return status;
    for (std::size_t index = 0; index < subscriptions.size(); ++index) {
        const std::string at = "delete.subscriptions[" + std::to_string(index) + "]";
        const Json &one = subscriptions[index];
        if (!one.is_object())
            return structureError(at, "must be an object");
        if (Status keys = onlyKeys(one, at, {"topic", "protocol", "endpoint"}); !keys)
            return keys;
        SubscriptionReference reference;
        for (auto [key, field] : {std::pair{"topic", &reference.topic}, std::pair{"protocol", &reference.protocol},
                                  std::pair{"endpoint", &reference.endpoint}}) {
            auto text = readString(one, key, at, true);
            if (!text)
                return text.error();
            *field = *text;
        }
        if (reference.endpoint.rfind("queue:", 0) == 0)
            reference.endpoint = identity.queueArn(reference.endpoint.substr(6));
        config.deleteSubscriptions.push_back(std::move(reference));
    }
    return {};
}

// Policies back as JSON when their text is a JSON object or array.
Json attributeJson(const AttributeMap &attributes)
{
    Json out = Json::object();
    for (const auto &[name, value] : attributes) {
        Json parsed = parseBoundedJson(value);
        out[name] = !parsed.is_discarded() && (parsed.is_object() || parsed.is_array()) ? parsed : Json(value);
    }
    return out;
}

} // namespace

Result<BrokerConfig> readBrokerConfig(const nlohmann::json &document, const BrokerIdentity &identity)
{
    if (!document.is_object())
        return structureError("config", "must be a JSON object");
    if (Status keys = onlyKeys(document, "", {"version", "region", "account", "queues", "topics", "mocks", "delete"}); !keys)
        return keys.error();
    if (Status same = checkConfigIdentity(document, identity); !same)
        return same.error();
    if (document.contains("version") && document["version"] != Json(1))
        return structureError("version", "must be 1");
    BrokerConfig config;
    Status status;
    const Json &queues = arrayAt(document, "queues", "", status);
    if (!status)
        return status.error();
    if (const Json &topics = arrayAt(document, "topics", "", status);
        status && queues.size() + topics.size() > kMaxConfigEntities)
        return tooManyEntities(queues.size() + topics.size()); // refused before reading them all
    std::map<std::string, std::string> queueNames;
    for (std::size_t index = 0; index < queues.size(); ++index) {
        auto queue = readQueue(queues[index], configEntityPath("queues", index, ""));
        if (!queue)
            return queue.error();
        const std::string where = configEntityPath("queues", index, queue->name);
        if (const auto [it, fresh] = queueNames.emplace(queue->name, where); !fresh)
            return structureError(where + ": name", "declared twice (also " + it->second + ")");
        config.queues.push_back(std::move(queue).value());
    }
    const Json &topics = arrayAt(document, "topics", "", status);
    if (!status)
        return status.error();
    std::map<std::string, std::string> topicNames;
    for (std::size_t index = 0; index < topics.size(); ++index) {
        auto topic = readTopic(topics[index], configEntityPath("topics", index, ""), identity);
        if (!topic)
            return topic.error();
        const std::string where = configEntityPath("topics", index, topic->name);
        if (const auto [it, fresh] = topicNames.emplace(topic->name, where); !fresh)
            return structureError(where + ": name", "declared twice (also " + it->second + ")");
        config.topics.push_back(std::move(topic).value());
    }
    Result<std::vector<StoredMockEndpoint>> mocks = config_mocks::read(document);
    if (!mocks)
        return mocks.error();
    config.mocks = std::move(mocks).value();
    if (Status deletions = readDeletions(document, config, identity); !deletions)
        return deletions.error();
    if (const std::size_t count = entityCount(config); count > kMaxConfigEntities)
        return tooManyEntities(count);
    return config;
}

Result<BrokerConfig> readBrokerConfigText(const std::string &text, const BrokerIdentity &identity)
{
    Json document = parseBoundedJson(text);
    if (document.is_discarded())
        return structureError("config", "not valid JSON");
    return readBrokerConfig(document, identity);
}

Result<BrokerConfig> readBrokerConfigFile(const std::string &path, const BrokerIdentity &identity)
{
    std::ifstream file(path, std::ios::binary);
    if (!file)
        return structureError(path, "cannot be read");
    std::ostringstream text;
    text << file.rdbuf();
    auto config = readBrokerConfigText(text.str(), identity);
    if (!config)
        return locatedConfigError(path, config.error());
    return config;
}

nlohmann::json writeBrokerConfig(const BrokerConfig &config, const BrokerIdentity &identity)
{
    Json document = {{"version", 1}, {"queues", Json::array()}, {"topics", Json::array()}};
    for (const QueueDeclaration &queue : config.queues) {
        Json one = {{"name", queue.name}};
        if (!queue.attributes.empty())
            one["attributes"] = attributeJson(queue.attributes);
        if (!queue.tags.empty())
            one["tags"] = queue.tags;
        document["queues"].push_back(std::move(one));
    }
    for (const TopicDeclaration &topic : config.topics) {
        Json one = {{"name", topic.name}};
        if (!topic.attributes.empty())
            one["attributes"] = attributeJson(topic.attributes);
        if (!topic.tags.empty())
            one["tags"] = topic.tags;
        if (!topic.subscriptions.empty())
            one["subscriptions"] = Json::array();
        for (const SubscriptionDeclaration &subscription : topic.subscriptions) {
            std::string endpoint = subscription.endpoint;
            if (subscription.protocol == "sqs") {
                if (auto queue = identity.queueNameFromArn(endpoint))
                    endpoint = "queue:" + *queue;
            }
            Json entry = {{"protocol", subscription.protocol}, {"endpoint", endpoint}};
            if (!subscription.attributes.empty())
                entry["attributes"] = attributeJson(subscription.attributes);
            one["subscriptions"].push_back(std::move(entry));
        }
        document["topics"].push_back(std::move(one));
    }
    config_mocks::write(config.mocks, document);
    if (!config.deleteQueues.empty() || !config.deleteTopics.empty() || !config.deleteSubscriptions.empty()) {
        Json deletions = Json::object();
        if (!config.deleteQueues.empty())
            deletions["queues"] = config.deleteQueues;
        if (!config.deleteTopics.empty())
            deletions["topics"] = config.deleteTopics;
        for (const SubscriptionReference &reference : config.deleteSubscriptions)
            deletions["subscriptions"].push_back(
                {{"topic", reference.topic}, {"protocol", reference.protocol}, {"endpoint", reference.endpoint}});
        document["delete"] = std::move(deletions);
    }
    return document;
}

} // namespace relaydesk
