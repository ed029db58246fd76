// SPDX-License-Identifier: MIT
#include "broker/servicebus/servicebus_topic.h"

#include "broker/echoed_value.h"
#include "broker/queues/queue_records.h"
#include "broker/queues/servicebus_send_rules.h"
#include "broker/servicebus/servicebus_limits.h"
#include "broker/store_calls.h"

#include <nlohmann/json.hpp>

#include <cctype>
#include <map>
#include <set>

namespace relaydesk {

namespace {

using Code = BrokerErrorCode;

BrokerError badTopic(const std::string &topic, const std::string &problem)
{
    return BrokerError(Code::InvalidParameterValue, "Service Bus topic \"" + echoedValue(topic) + "\": " + problem);
}

BrokerError notFound(std::string_view address)
{
    return BrokerError(Code::QueueDoesNotExist,
                       "The messaging entity '" + echoedValue(address) + "' could not be found.");
}

Status validateSubscriptionName(std::string_view name)
{
    bool valid = !name.empty() && name.size() <= 50;
    for (const char c : name)
        valid = valid && (std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_');
    if (!valid)
        return BrokerError(Code::InvalidParameterValue, "Service Bus subscription name \"" + echoedValue(name)
                                                            + "\" must be 1 to 50 letters, digits, '.', '-' or '_'.");
    return {};
}

// The topic's own properties; subscriptions and rules apart.
Status applyTopicProperty(ServiceBusTopic &topic, const std::string &key, const nlohmann::json &value)
{
    const bool off = value.is_null() || (value.is_boolean() && !value.get<bool>());
    if (key == "DefaultMessageTimeToLive") {
        const std::optional<std::int64_t> seconds =
            value.is_string() ? parseServiceBusDuration(value.get<std::string>()) : std::nullopt;
        if (!seconds || *seconds < 1)
            return badTopic(topic.name, "DefaultMessageTimeToLive must be an ISO 8601 duration of at least PT1S");
        topic.defaultMessageTimeToLive = *seconds >= kServiceBusNever ? std::nullopt : seconds;
    } else if (key == "DuplicateDetectionHistoryTimeWindow") {
        if (!value.is_string() || !parseServiceBusDuration(value.get<std::string>()))
            return badTopic(topic.name, "DuplicateDetectionHistoryTimeWindow must be an ISO 8601 duration");
    } else if (key == "RequiresDuplicateDetection" || key == "EnablePartitioning") {
        if (!off)
            return badTopic(topic.name, key + " is not supported by Relaydesk yet (docs/behaviour.md §8.6)");
    } else if (key == "EnableBatchedOperations" || key == "SupportOrdering") {
        if (!value.is_boolean())
            return badTopic(topic.name, key + " must be true or false");
    } else {
        return badTopic(topic.name, "\"" + echoedValue(key) + "\" is not a Service Bus topic property");
    }
    return {};
}

Result<std::vector<ServiceBusRule>> parseRules(const std::string &where, const nlohmann::json &rules)
{
    if (!rules.is_array())
        return BrokerError(Code::InvalidParameterValue, where + ": \"Rules\" is an array");
    std::vector<ServiceBusRule> parsed;
    std::set<std::string> names;
    for (const nlohmann::json &rule : rules) {
        auto one = parseServiceBusRule(rule);
        if (!one)
            return BrokerError(Code::InvalidParameterValue, where + ": " + one.error().message);
        if (!names.insert(one->name).second)
            return BrokerError(Code::InvalidParameterValue,
                               where + ": the rule \"" + echoedValue(one->name) + "\" is declared twice");
        parsed.push_back(std::move(*one));
    }
    return parsed;
}

nlohmann::json rulesJson(const std::vector<ServiceBusRule> &rules)
{
    nlohmann::json list = nlohmann::json::array();
    for (const ServiceBusRule &rule : rules)
        list.push_back(serviceBusRuleJson(rule));
    return list;
}

bool sameSubscription(const ServiceBusSubscription &a, const ServiceBusSubscription &b)
{
    return a.name == b.name && a.properties == b.properties && rulesJson(a.rules) == rulesJson(b.rules);
}

Result<std::optional<ServiceBusTopic>> findTopicRow(Database &db, std::string_view name)
{
    auto row = selectRow(db, "SELECT properties FROM servicebus_topics WHERE name = ?", name);
    if (!row)
        return row.error();
    if (!*row)
        return std::optional<ServiceBusTopic>();
    nlohmann::json stored = nlohmann::json::parse((**row)->columnText(0), nullptr, false);
    auto topic = parseServiceBusTopic(nlohmann::json{{"Name", std::string(name)}, {"Properties", stored}});
    if (!topic)
        return BrokerError(Code::InternalError, "a stored Service Bus topic is damaged: " + topic.error().message);
    return std::optional<ServiceBusTopic>(std::move(*topic));
}

struct SubscriptionRow {
    std::string name;
    std::string queue;
    std::string properties;
    std::string rules;
};

Result<std::vector<SubscriptionRow>> subscriptionRows(Database &db, std::string_view topic)
{
    Result<CachedStatement> statement = prepareBound(
        db,
        "SELECT s.name, q.name, q.servicebus, s.rules FROM servicebus_subscriptions s JOIN queues q ON q.id = "
        "s.queue_id WHERE s.topic = ? ORDER BY s.name",
        topic);
    if (!statement)
        return statement.error();
    std::vector<SubscriptionRow> rows;
    Status walked = forEachRow(**statement, [&](Statement &row) {
        rows.push_back(SubscriptionRow{row.columnText(0), row.columnText(1), row.columnText(2), row.columnText(3)});
    });
    if (!walked)
        return walked.error();
    return rows;
}

Result<ServiceBusSubscription> subscriptionOf(const SubscriptionRow &row)
{
    ServiceBusSubscription subscription;
    subscription.name = row.name;
    auto properties = parseServiceBusQueue(nlohmann::json::parse(row.properties, nullptr, false));
    auto rules = parseRules(row.name, nlohmann::json::parse(row.rules, nullptr, false));
    if (!properties || !rules)
        return BrokerError(Code::InternalError, "a stored Service Bus subscription is damaged: " + row.queue);
    subscription.properties = std::move(*properties);
    subscription.rules = std::move(*rules);
    return subscription;
}

// A rule whose filter or action went past a bound refuses the whole send.
BrokerError ruleStopped(const std::string &subscription, const ServiceBusRule &rule, const BrokerError &why)
{
    return BrokerError(why.code, "The rule " + echoedValue(rule.name) + " of " + echoedValue(subscription)
                                     + " refused the message: " + why.message);
}

} // namespace

std::string serviceBusSubscriptionQueue(std::string_view topic, std::string_view subscription)
{
    return std::string(topic) + std::string(kServiceBusSubscriptionsPath) + std::string(subscription);
}

Result<ServiceBusTopic> parseServiceBusTopic(const nlohmann::json &json)
{
    if (!json.is_object() || !json.contains("Name") || !json["Name"].is_string())
        return BrokerError(Code::InvalidParameterValue, "A Service Bus topic needs a \"Name\" (text).");
    ServiceBusTopic topic;
    topic.name = json["Name"].get<std::string>();
    if (Status name = validateServiceBusQueueName(topic.name); !name)
        return badTopic(topic.name, name.error().message);
    for (const auto &[key, value] : json.items()) {
        if (key != "Name" && key != "Properties" && key != "Subscriptions")
            return badTopic(topic.name, "\"" + echoedValue(key)
                                            + "\" is not a field of a Service Bus topic (Name, Properties, Subscriptions)");
    }
    if (const auto properties = json.find("Properties"); properties != json.end()) {
        if (!properties->is_object())
            return badTopic(topic.name, "Properties must be an object");
        for (const auto &[key, value] : properties->items()) {
            if (Status applied = applyTopicProperty(topic, key, value); !applied)
                return applied.error();
        }
    }
    const auto subscriptions = json.find("Subscriptions");
    if (subscriptions == json.end())
        return topic;
    if (!subscriptions->is_array())
        return badTopic(topic.name, "\"Subscriptions\" is an array");
    std::set<std::string> names;
    for (const nlohmann::json &given : *subscriptions) {
        auto subscription = parseServiceBusSubscription(topic, given);
        if (!subscription)
            return subscription.error();
        if (!names.insert(subscription->name).second)
            return badTopic(topic.name, "the subscription \"" + echoedValue(subscription->name) + "\" is declared twice");
        topic.subscriptions.push_back(std::move(*subscription));
    }
    return topic;
}

Result<ServiceBusSubscription> parseServiceBusSubscription(const ServiceBusTopic &topic, const nlohmann::json &json)
{
    if (!json.is_object() || !json.contains("Name") || !json["Name"].is_string())
        return badTopic(topic.name, "a subscription needs a \"Name\" (text)");
    ServiceBusSubscription subscription;
    subscription.name = json["Name"].get<std::string>();
    if (Status name = validateSubscriptionName(subscription.name); !name)
        return badTopic(topic.name, name.error().message);
    const std::string where = "Service Bus subscription \"" + echoedValue(topic.name) + "/" + subscription.name + "\"";
    nlohmann::json queue{{"Name", serviceBusSubscriptionQueue(topic.name, subscription.name)}};
    subscription.rules = {defaultServiceBusRule()};
    for (const auto &[key, value] : json.items()) {
        if (key == "Properties") {
            if (!value.is_object())
                return BrokerError(Code::InvalidParameterValue, where + ": Properties must be an object");
            nlohmann::json properties = value;
            if (const auto exceptions = properties.find("DeadLetteringOnFilterEvaluationExceptions");
                exceptions != properties.end()) {
                if (!exceptions->is_boolean())
                    return BrokerError(Code::InvalidParameterValue,
                                       where + ": DeadLetteringOnFilterEvaluationExceptions must be true or false");
                properties.erase(exceptions);   // filters here raise no evaluation exceptions
            }
            queue["Properties"] = properties;
        } else if (key == "Rules") {
            auto rules = parseRules(where, value);
            if (!rules)
                return rules.error();
            subscription.rules = std::move(*rules);
        } else if (key != "Name") {
            return BrokerError(Code::InvalidParameterValue,
                               where + ": \"" + echoedValue(key) + "\" is not a field of a subscription (Name, Properties, Rules)");
        }
    }
    auto properties = parseServiceBusQueue(queue);
    if (!properties)
        return BrokerError(Code::InvalidParameterValue, where + ": " + properties.error().message);
    subscription.properties = std::move(*properties);
    if (subscription.properties.requiresDuplicateDetection)
        return BrokerError(Code::InvalidParameterValue,
                           where + ": RequiresDuplicateDetection is a property of queues and topics, not of a subscription");
    // A message lives no longer than its topic lets it.
    if (topic.defaultMessageTimeToLive
        && (!subscription.properties.defaultMessageTimeToLive
            || *subscription.properties.defaultMessageTimeToLive > *topic.defaultMessageTimeToLive))
        subscription.properties.defaultMessageTimeToLive = topic.defaultMessageTimeToLive;
    return subscription;
}

nlohmann::json serviceBusTopicJson(const ServiceBusTopic &topic)
{
    nlohmann::json properties = nlohmann::json::object();
    if (topic.defaultMessageTimeToLive)
        properties["DefaultMessageTimeToLive"] = serviceBusDurationText(*topic.defaultMessageTimeToLive);
    properties["RequiresDuplicateDetection"] = false;
    return nlohmann::json{{"Name", topic.name}, {"Properties", properties}};
}

nlohmann::json serviceBusSubscriptionJson(const ServiceBusSubscription &subscription)
{
    nlohmann::json json = serviceBusQueueJson(subscription.properties);
    json["Name"] = subscription.name;
    json["Properties"].erase("RequiresDuplicateDetection");
    json["Properties"].erase("DuplicateDetectionHistoryTimeWindow");
    json["Rules"] = rulesJson(subscription.rules);
    return json;
}

namespace servicebus_topics {

Result<bool> createSubscription(Database &db, const std::string &topic, const ServiceBusSubscription &subscription,
                                const BrokerIdentity &identity, ClockTime now)
{
    auto rows = subscriptionRows(db, topic);
    if (!rows)
        return rows.error();
    for (const SubscriptionRow &row : *rows) {
        if (row.name != subscription.name)
            continue;
        auto existing = subscriptionOf(row);
        if (!existing)
            return existing.error();
        if (sameSubscription(*existing, subscription))
            return false;
        return BrokerError(Code::QueueAlreadyExists, "The Service Bus subscription \"" + echoedValue(row.queue)
                                                         + "\" exists with other properties or rules.");
    }
    auto created = servicebus_queues::create(db, subscription.properties, identity, now);
    if (!created)
        return created.error();
    if (!*created)
        return BrokerError(Code::QueueAlreadyExists,
                           "A queue named \"" + echoedValue(subscription.properties.name) + "\" exists already.");
    auto queue = queue_records::find(db, subscription.properties.name);
    if (!queue || !*queue)
        return queue ? BrokerError(Code::InternalError, "a subscription's queue went missing") : queue.error();
    if (Status stored = executeStatement(
            db, "INSERT INTO servicebus_subscriptions (queue_id, topic, name, rules) VALUES (?, ?, ?, ?)",
            (*queue)->id, topic, subscription.name, rulesJson(subscription.rules).dump());
        !stored)
        return stored.error();
    return true;
}

Result<bool> create(Database &db, const ServiceBusTopic &topic, const BrokerIdentity &identity, ClockTime now)
{
    auto existing = findTopicRow(db, topic.name);
    if (!existing)
        return existing.error();
    bool created = false;
    if (*existing) {
        if ((*existing)->defaultMessageTimeToLive != topic.defaultMessageTimeToLive)
            return BrokerError(Code::QueueAlreadyExists, "The Service Bus topic \"" + echoedValue(topic.name)
                                                             + "\" exists with other properties.");
    } else {
        if (auto queue = queue_records::find(db, topic.name); !queue || *queue)
            return queue ? BrokerError(Code::QueueAlreadyExists,
                                       "A queue named \"" + echoedValue(topic.name) + "\" exists already.")
                         : queue.error();
        if (Status stored = executeStatement(db, "INSERT INTO servicebus_topics (name, properties) VALUES (?, ?)",
                                             topic.name, serviceBusTopicJson(topic)["Properties"].dump());
            !stored)
            return stored.error();
        created = true;
    }
    for (const ServiceBusSubscription &subscription : topic.subscriptions) {
        auto added = createSubscription(db, topic.name, subscription, identity, now);
        if (!added)
            return added.error();
        created = created || *added;
    }
    return created;
}

Status setRules(Database &db, const std::string &topic, const std::string &subscription,
                const std::vector<ServiceBusRule> &rules)
{
    auto found = selectRow(db, "SELECT 1 FROM servicebus_subscriptions WHERE topic = ? AND name = ?", topic,
                           subscription);
    if (!found)
        return found.error();
    if (!*found)
        return notFound(serviceBusSubscriptionQueue(topic, subscription));
    return executeStatement(db, "UPDATE servicebus_subscriptions SET rules = ? WHERE topic = ? AND name = ?",
                            rulesJson(rules).dump(), topic, subscription);
}

Result<std::vector<ServiceBusRule>> rules(Database &db, const std::string &topic, const std::string &subscription)
{
    auto row = selectRow(db, "SELECT rules FROM servicebus_subscriptions WHERE topic = ? AND name = ?", topic,
                         subscription);
    if (!row)
        return row.error();
    if (!*row)
        return notFound(serviceBusSubscriptionQueue(topic, subscription));
    auto parsed = parseRules(subscription, nlohmann::json::parse((**row)->columnText(0), nullptr, false));
    if (!parsed)
        return BrokerError(Code::InternalError, "a stored Service Bus subscription is damaged: " + parsed.error().message);
    return parsed;
}

Status addRule(Database &db, const std::string &topic, const std::string &subscription, const ServiceBusRule &rule)
{
    auto current = rules(db, topic, subscription);
    if (!current)
        return current.error();
    for (const ServiceBusRule &existing : *current) {
        if (existing.name == rule.name)
            return BrokerError(Code::QueueAlreadyExists, "The rule '" + echoedValue(rule.name)
                                                             + "' already exists on the subscription '"
                                                             + echoedValue(serviceBusSubscriptionQueue(topic, subscription)) + "'.");
    }
    current->push_back(rule);
    return setRules(db, topic, subscription, *current);
}

Status removeRule(Database &db, const std::string &topic, const std::string &subscription, const std::string &name)
{
    auto current = rules(db, topic, subscription);
    if (!current)
        return current.error();
    const auto before = current->size();
    std::erase_if(*current, [&name](const ServiceBusRule &rule) { return rule.name == name; });
    if (current->size() == before)
        return notFound(serviceBusSubscriptionQueue(topic, subscription) + "/Rules/" + name);
    return setRules(db, topic, subscription, *current);
}

Result<ServiceBusTopic> find(Database &db, std::string_view name)
{
    auto topic = findTopicRow(db, name);
    if (!topic)
        return topic.error();
    if (!*topic)
        return notFound(name);
    auto rows = subscriptionRows(db, name);
    if (!rows)
        return rows.error();
    for (const SubscriptionRow &row : *rows) {
        auto subscription = subscriptionOf(row);
        if (!subscription)
            return subscription.error();
        (*topic)->subscriptions.push_back(std::move(*subscription));
    }
    return std::move(**topic);
}

Result<std::vector<ServiceBusTopic>> list(Database &db)
{
    auto names = selectColumn<std::string>(db, "SELECT name FROM servicebus_topics ORDER BY name");
    if (!names)
        return names.error();
    std::vector<ServiceBusTopic> topics;
    for (const std::string &name : *names) {
        auto topic = find(db, name);
        if (!topic)
            return topic.error();
        topics.push_back(std::move(*topic));
    }
    return topics;
}

Result<ServiceBusEntity> findEntity(Database &db, std::string_view address)
{
    auto topic = findTopicRow(db, address);
    if (!topic)
        return topic.error();
    if (*topic) {
        ServiceBusEntity entity;
        entity.queueName = std::string(address);
        entity.properties.name = std::string(address);
        entity.topic = true;
        return entity;
    }
    return servicebus_queues::find(db, address);
}

Result<std::vector<std::pair<std::string, std::int64_t>>> publish(Database &db, IdSource &ids, std::string_view topic,
                                                                  const std::vector<SendRequest> &messages,
                                                                  const std::vector<ServiceBusMessageFacts> &facts,
                                                                  const ServiceBusMessageRewriter &rewrite,
                                                                  ClockTime now)
{
    auto found = findTopicRow(db, topic);
    if (!found)
        return found.error();
    if (!*found)
        return notFound(topic);
    auto rows = subscriptionRows(db, topic);
    if (!rows)
        return rows.error();
    MessageSender sender(db, ids);
    std::map<std::string, std::int64_t> stored;   // by the queue that keeps them (ForwardTo)
    auto store = [&](const std::string &queue, const SendRequest &message) -> Status {
        Result<std::optional<std::string>> target = routeServiceBusMessage(db, queue, message, now);
        if (!target)
            return target.error();
        if (!*target)
            return {};   // a duplicate on the way: accepted, not stored
        if (auto sent = sender.send(**target, message, now); !sent)
            return sent.error();
        ++stored[**target];
        return {};
    };
    for (const ServiceBusMessageFacts &message : facts) {
        if (Status fits = checkServiceBusPropertiesSize(message, "The message's properties"); !fits)
            return fits.error();
    }
    for (const SubscriptionRow &row : *rows) {
        auto subscription = subscriptionOf(row);
        if (!subscription)
            return subscription.error();
        for (std::size_t i = 0; i < messages.size(); ++i) {
            const ServiceBusMessageFacts none;
            const ServiceBusMessageFacts &message = i < facts.size() ? facts[i] : none;
            bool plain = false;   // a rule without an action matched
            for (const ServiceBusRule &rule : subscription->rules) {
                const Result<bool> matched = rule.matches(message);
                if (!matched)
                    return ruleStopped(row.queue, rule, matched.error());
                if (!*matched)
                    continue;
                if (rule.action.empty()) {
                    plain = true;
                    continue;
                }
                Result<ServiceBusPropertyChanges> changed = applyServiceBusRuleAction(rule.action, message);
                if (!changed)
                    return ruleStopped(row.queue, rule, changed.error());
                ServiceBusPropertyChanges changes = std::move(*changed);
                changes.application["RuleName"] = FilterValue(rule.name);
                Result<SendRequest> copy = rewrite ? rewrite(messages[i], changes)
                                                   : Result<SendRequest>(BrokerError(Code::InternalError,
                                                                                     "no rewriter for a rule action"));
                if (!copy)
                    return copy.error();
                if (Status kept = store(row.queue, *copy); !kept)
                    return kept.error();
            }
            if (plain) {
                if (Status kept = store(row.queue, messages[i]); !kept)
                    return kept.error();
            }
        }
    }
    return std::vector<std::pair<std::string, std::int64_t>>(stored.begin(), stored.end());
}

} // namespace servicebus_topics

} // namespace relaydesk
