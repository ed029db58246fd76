// SPDX-License-Identifier: MIT
#include "api/servicebus/management/atom_descriptions.h"

#include "api/servicebus/management/atom_fixed_properties.h"

#include <nlohmann/json.hpp>

#include <array>

namespace relaydesk {

namespace {

using Code = BrokerErrorCode;

BrokerError bad(const std::string &what) { return BrokerError(Code::InvalidParameterValue, what); }

// What the service writes back and a client may echo in an update: ignored.
constexpr std::array<QStringView, 9> kRuntimeFields = {u"CreatedAt",    u"UpdatedAt",         u"AccessedAt",
                                                       u"SizeInBytes",  u"MessageCount",      u"CountDetails",
                                                       u"SubscriptionCount", u"IsExpress",    u"ModifiedAt"};
constexpr std::array<QStringView, 8> kBooleans = {
    u"DeadLetteringOnMessageExpiration", u"RequiresSession",  u"RequiresDuplicateDetection",
    u"EnablePartitioning",               u"EnableBatchedOperations", u"DeadLetteringOnFilterEvaluationExceptions",
    u"SupportOrdering",                  u"EnableExpress"};

template <std::size_t N>
bool among(const std::array<QStringView, N> &names, const QString &name)
{
    for (QStringView each : names)
        if (each == name)
            return true;
    return false;
}

// The description inside <entry><content>, or the root itself when a client sends it bare.
Result<const AtomElement *> description(const AtomElement &entry, QStringView wanted)
{
    const AtomElement *found = &entry;
    if (entry.name == QLatin1String("entry")) {
        const AtomElement *content = entry.child(u"content");
        found = content && !content->children.empty() ? &content->children.front() : nullptr;
    }
    if (!found || found->name != wanted)
        return bad("The request body must be an ATOM entry whose content is a " + wanted.toString().toStdString() + ".");
    return found;
}

// "sb://host/orders" or "orders" → "orders" (the broker is one namespace).
std::string entityName(const QString &text)
{
    QString name = text.trimmed();
    if (const qsizetype scheme = name.indexOf(QLatin1String("://")); scheme >= 0) {
        const qsizetype path = name.indexOf(QLatin1Char('/'), scheme + 3);
        name = path < 0 ? QString() : name.mid(path + 1);
    }
    return name.toStdString();
}

// A property's text as the Config.json reader wants it.
Result<nlohmann::json> jsonValue(const AtomElement &element)
{
    const QString text = element.text.trimmed();
    if (among(kBooleans, element.name)) {
        if (text != QLatin1String("true") && text != QLatin1String("false"))
            return bad(element.name.toStdString() + " must be true or false, not '" + text.toStdString() + "'.");
        return nlohmann::json(text == QLatin1String("true"));
    }
    if (element.name == QLatin1String("MaxDeliveryCount")) {
        bool ok = false;
        const int count = text.toInt(&ok);
        if (!ok)
            return bad("MaxDeliveryCount must be a whole number, not '" + text.toStdString() + "'.");
        return nlohmann::json(count);
    }
    if (element.name == QLatin1String("ForwardTo") || element.name == QLatin1String("ForwardDeadLetteredMessagesTo"))
        return nlohmann::json(entityName(text));
    return nlohmann::json(text.toStdString());
}

// The description's properties as Config.json's "Properties"; `skip` are read by the caller.
Result<nlohmann::json> properties(const AtomElement &description, QStringView kind, QStringView skip = {})
{
    nlohmann::json json = nlohmann::json::object();
    for (const AtomElement &property : description.children) {
        if (among(kRuntimeFields, property.name) || (!skip.isEmpty() && property.name == skip))
            continue;
        if (const auto fixed = fixedProperty(kind, property.name)) {
            if (Status kept = checkFixedProperty(*fixed, property); !kept)
                return kept.error();
            continue;
        }
        auto value = jsonValue(property);
        if (!value)
            return value.error();
        if (value->is_string() && value->get<std::string>().empty()
            && (property.name == QLatin1String("ForwardTo") || property.name == QLatin1String("ForwardDeadLetteredMessagesTo")))
            continue;
        json[property.name.toStdString()] = std::move(*value);
    }
    return json;
}

// A typed value of a rule's Properties or Parameters (<Value i:type="d6p1:string">).
Result<nlohmann::json> typedValue(const AtomElement &value, const std::string &key)
{
    const QString text = value.text;
    bool ok = true;
    nlohmann::json json;
    if (value.type == QLatin1String("string") || value.type.isEmpty())
        json = text.toStdString();
    else if (value.type == QLatin1String("boolean"))
        json = text.trimmed() == QLatin1String("true");
    else if (value.type == QLatin1String("int") || value.type == QLatin1String("long"))
        json = text.trimmed().toLongLong(&ok);
    else if (value.type == QLatin1String("double")) {
        const double number = text.trimmed().toDouble(&ok);
        json = number;
        if (ok && number == double(static_cast<long long>(number)) && std::abs(number) < 9e15)
            json = static_cast<long long>(number);   // the SDKs send every number as a double
    } else
        return bad("The property '" + key + "' has the type '" + value.type.toStdString()
                   + "'; Relaydesk's filters take string, boolean, int, long and double.");
    if (!ok)
        return bad("The property '" + key + "' is not a " + value.type.toStdString() + ".");
    return json;
}

Result<nlohmann::json> keyValues(const AtomElement &list)
{
    nlohmann::json json = nlohmann::json::object();
    for (const AtomElement &pair : list.children) {
        const AtomElement *key = pair.child(u"Key");
        const AtomElement *value = pair.child(u"Value");
        if (!key || !value)
            return bad("Each KeyValueOfstringanyType needs a Key and a Value.");
        auto typed = typedValue(*value, key->text.toStdString());
        if (!typed)
            return typed.error();
        json[key->text.toStdString()] = std::move(*typed);
    }
    return json;
}

// A RuleDescription (or a subscription's DefaultRuleDescription) as Config.json's rule.
Result<nlohmann::json> ruleJson(const AtomElement &rule, const std::string &name)
{
    nlohmann::json properties = nlohmann::json::object();
    const AtomElement *filter = rule.child(u"Filter");
    const QString type = filter ? filter->type : QStringLiteral("TrueFilter");
    if (filter && filter->child(u"Parameters") && !filter->child(u"Parameters")->children.empty())
        return bad("Filter.Parameters: SQL filter parameters (@name) are not implemented by Relaydesk (docs/behaviour.md §8.6).");
    if (type == QLatin1String("TrueFilter") || type == QLatin1String("FalseFilter")) {
        properties["FilterType"] = "Sql";
        properties["SqlFilter"] = {{"SqlExpression", type == QLatin1String("TrueFilter") ? "1=1" : "1=0"}};
    } else if (type == QLatin1String("SqlFilter")) {
        const AtomElement *expression = filter->child(u"SqlExpression");
        properties["FilterType"] = "Sql";
        properties["SqlFilter"] = {{"SqlExpression", expression ? expression->text.toStdString() : std::string()}};
    } else if (type == QLatin1String("CorrelationFilter")) {
        nlohmann::json correlation = nlohmann::json::object();
        for (const AtomElement &field : filter->children) {
            if (field.name == QLatin1String("Properties")) {
                auto values = keyValues(field);
                if (!values)
                    return values.error();
                if (!values->empty())
                    correlation["Properties"] = std::move(*values);
            } else if (!field.text.isEmpty()) {
                correlation[field.name.toStdString()] = field.text.toStdString();
            }
        }
        properties["FilterType"] = "Correlation";
        properties["CorrelationFilter"] = std::move(correlation);
    } else {
        return bad("Filter: the type '" + type.toStdString()
                   + "' is not one of SqlFilter, CorrelationFilter, TrueFilter, FalseFilter.");
    }
    if (const AtomElement *action = rule.child(u"Action"); action && action->type == QLatin1String("SqlRuleAction")) {
        if (action->child(u"Parameters") && !action->child(u"Parameters")->children.empty())
            return bad("Action.Parameters: SQL action parameters (@name) are not implemented by Relaydesk (docs/behaviour.md §8.6).");
        const AtomElement *expression = action->child(u"SqlExpression");
        properties["Action"] = {{"SqlExpression", expression ? expression->text.toStdString() : std::string()}};
    } else if (action && !action->type.isEmpty() && action->type != QLatin1String("EmptyRuleAction")) {
        return bad("Action: the type '" + action->type.toStdString() + "' is not one of SqlRuleAction, EmptyRuleAction.");
    }
    return nlohmann::json{{"Name", name}, {"Properties", std::move(properties)}};
}

} // namespace

Result<ServiceBusQueueProperties> readQueueDescription(const AtomElement &entry, const std::string &name)
{
    auto found = description(entry, u"QueueDescription");
    if (!found)
        return found.error();
    auto json = properties(**found, u"QueueDescription");
    if (!json)
        return json.error();
    return parseServiceBusQueue(nlohmann::json{{"Name", name}, {"Properties", std::move(*json)}});
}

Result<ServiceBusTopic> readTopicDescription(const AtomElement &entry, const std::string &name)
{
    auto found = description(entry, u"TopicDescription");
    if (!found)
        return found.error();
    auto json = properties(**found, u"TopicDescription");
    if (!json)
        return json.error();
    return parseServiceBusTopic(nlohmann::json{{"Name", name}, {"Properties", std::move(*json)}});
}

Result<ServiceBusSubscription> readSubscriptionDescription(const AtomElement &entry, const std::string &topic,
                                                           const std::string &name)
{
    auto found = description(entry, u"SubscriptionDescription");
    if (!found)
        return found.error();
    auto json = properties(**found, u"SubscriptionDescription", u"DefaultRuleDescription");
    if (!json)
        return json.error();
    nlohmann::json subscription{{"Name", name}, {"Properties", std::move(*json)}};
    if (const AtomElement *rule = (*found)->child(u"DefaultRuleDescription")) {
        const AtomElement *ruleName = rule->child(u"Name");
        auto parsed = ruleJson(*rule, ruleName && !ruleName->text.isEmpty() ? ruleName->text.toStdString()
                                                                            : std::string(ServiceBusRule::kDefaultName));
        if (!parsed)
            return parsed.error();
        subscription["Rules"] = nlohmann::json::array({std::move(*parsed)});
    }
    ServiceBusTopic owner;
    owner.name = topic;
    return parseServiceBusSubscription(owner, subscription);
}

Result<ServiceBusRule> readRuleDescription(const AtomElement &entry, const std::string &name)
{
    auto found = description(entry, u"RuleDescription");
    if (!found)
        return found.error();
    auto json = ruleJson(**found, name);
    if (!json)
        return json.error();
    return parseServiceBusRule(*json);
}

} // namespace relaydesk
