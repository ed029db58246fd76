// SPDX-License-Identifier: MIT
#include "broker/servicebus/servicebus_rule.h"

#include "broker/echoed_value.h"
#include "broker/servicebus/sql_filter_evaluator.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cctype>

namespace relaydesk {

namespace {

using Code = BrokerErrorCode;

constexpr std::array<std::string_view, 8> kCorrelationFields = {
    "CorrelationId", "MessageId", "To", "ReplyTo", "Label", "SessionId", "ReplyToSessionId", "ContentType"};

BrokerError badRule(const std::string &rule, const std::string &problem)
{
    return BrokerError(Code::InvalidParameterValue, "Service Bus rule \"" + echoedValue(rule) + "\": " + problem);
}

Result<FilterValue> filterValue(const nlohmann::json &value)
{
    if (value.is_string())
        return FilterValue(value.get<std::string>());
    if (value.is_boolean())
        return FilterValue(value.get<bool>());
    if (value.is_number_integer())
        return FilterValue(value.get<std::int64_t>());
    if (value.is_number())
        return FilterValue(value.get<double>());
    return BrokerError(Code::InvalidParameterValue, "a value is text, a number or true/false");
}

nlohmann::json jsonOf(const FilterValue &value)
{
    return std::visit(
        [](const auto &held) -> nlohmann::json {
            if constexpr (std::is_same_v<std::decay_t<decltype(held)>, std::monostate>)
                return nullptr;
            else
                return held;
        },
        value);
}

bool sameValue(const FilterValue &wanted, const FilterValue &found)
{
    const bool wantedNumber = std::holds_alternative<std::int64_t>(wanted) || std::holds_alternative<double>(wanted);
    const bool foundNumber = std::holds_alternative<std::int64_t>(found) || std::holds_alternative<double>(found);
    if (wantedNumber && foundNumber) {
        auto number = [](const FilterValue &v) {
            return std::holds_alternative<std::int64_t>(v) ? static_cast<double>(std::get<std::int64_t>(v))
                                                           : std::get<double>(v);
        };
        return number(wanted) == number(found);
    }
    return wanted == found;
}

Status readCorrelation(ServiceBusRule &rule, const nlohmann::json &filter)
{
    if (!filter.is_object())
        return badRule(rule.name, "CorrelationFilter must be an object");
    for (const auto &[key, value] : filter.items()) {
        if (key == "Properties") {
            if (!value.is_object())
                return badRule(rule.name, "CorrelationFilter.Properties must be an object");
            for (const auto &[property, wanted] : value.items()) {
                auto parsed = filterValue(wanted);
                if (!parsed)
                    return badRule(rule.name, "CorrelationFilter.Properties." + property + ": " + parsed.error().message);
                rule.correlationProperties[property] = *parsed;
            }
            continue;
        }
        const std::string field = key == "Subject" ? "Label" : key;
        if (std::find(kCorrelationFields.begin(), kCorrelationFields.end(), field) == kCorrelationFields.end())
            return badRule(rule.name, "\"" + echoedValue(key) + "\" is not a field of a CorrelationFilter");
        if (value.is_null())
            continue;
        if (!value.is_string())
            return badRule(rule.name, "CorrelationFilter." + key + " must be text");
        rule.correlation[field] = value.get<std::string>();
    }
    if (rule.correlation.empty() && rule.correlationProperties.empty())
        return badRule(rule.name, "a CorrelationFilter needs at least one property");
    return {};
}

// "Action": null, {} or {"SqlExpression": null or text}.
Status readAction(ServiceBusRule &rule, const nlohmann::json &action)
{
    if (action.is_null())
        return {};
    const bool text = action.is_object() && action.contains("SqlExpression") && action["SqlExpression"].is_string();
    if (!action.is_object() || (action.contains("SqlExpression") && !action["SqlExpression"].is_null() && !text))
        return badRule(rule.name, "Action is {\"SqlExpression\": text}");
    auto parsed = parseServiceBusRuleAction(text ? action["SqlExpression"].get<std::string>() : std::string());
    if (!parsed)
        return badRule(rule.name, parsed.error().message);
    rule.action = std::move(*parsed);
    return {};
}

} // namespace

Result<bool> ServiceBusRule::matches(const ServiceBusMessageFacts &message) const
{
    if (filter == Filter::Sql)
        return parsed ? sqlFilterMatches(*parsed, message) : Result<bool>(false);
    for (const auto &[field, wanted] : correlation) {
        const auto found = message.system.find(field);
        if (found == message.system.end() || !sameValue(wanted, found->second))
            return false;
    }
    for (const auto &[property, wanted] : correlationProperties) {
        const auto found = message.application.find(property);
        if (found == message.application.end() || !sameValue(wanted, found->second))
            return false;
    }
    return true;
}

ServiceBusRule defaultServiceBusRule()
{
    ServiceBusRule rule;
    rule.name = std::string(ServiceBusRule::kDefaultName);
    rule.sqlExpression = "1=1";
    rule.parsed = *parseSqlFilter(rule.sqlExpression);
    return rule;
}

Status validateServiceBusRuleName(std::string_view name)
{
    bool valid = !name.empty() && name.size() <= 50;
    for (const char c : name)
        valid = valid && (std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_' || c == '$');
    if (!valid)
        return BrokerError(Code::InvalidParameterValue, "Service Bus rule name \"" + echoedValue(name)
                                                            + "\" must be 1 to 50 letters, digits, '.', '-', '_' or '$'.");
    return {};
}

Result<ServiceBusRule> parseServiceBusRule(const nlohmann::json &json)
{
    if (!json.is_object() || !json.contains("Name") || !json["Name"].is_string())
        return BrokerError(Code::InvalidParameterValue, "A Service Bus rule needs a \"Name\" (text).");
    ServiceBusRule rule;
    rule.name = json["Name"].get<std::string>();
    if (Status name = validateServiceBusRuleName(rule.name); !name)
        return name.error();
    for (const auto &[key, value] : json.items()) {
        if (key != "Name" && key != "Properties")
            return badRule(rule.name, "\"" + echoedValue(key) + "\" is not a field of a rule (Name, Properties)");
    }
    const auto properties = json.find("Properties");
    if (properties == json.end() || !properties->is_object())
        return badRule(rule.name, "needs \"Properties\" with a FilterType");
    std::string type;
    for (const auto &[key, value] : properties->items()) {
        if (key == "FilterType") {
            type = value.is_string() ? value.get<std::string>() : std::string();
        } else if (key == "Action") {
            if (Status read = readAction(rule, value); !read)
                return read.error();
        } else if (key != "CorrelationFilter" && key != "SqlFilter") {
            return badRule(rule.name, "\"" + echoedValue(key)
                                          + "\" is not a rule property (FilterType, CorrelationFilter, SqlFilter, Action)");
        }
    }
    if (type == "Correlation") {
        rule.filter = ServiceBusRule::Filter::Correlation;
        const auto filter = properties->find("CorrelationFilter");
        if (filter == properties->end())
            return badRule(rule.name, "FilterType Correlation needs a CorrelationFilter");
        if (Status read = readCorrelation(rule, *filter); !read)
            return read.error();
        return rule;
    }
    if (type != "Sql")
        return badRule(rule.name, "FilterType must be \"Correlation\" or \"Sql\"");
    const auto filter = properties->find("SqlFilter");
    if (filter == properties->end() || !filter->is_object() || !filter->contains("SqlExpression")
        || !(*filter)["SqlExpression"].is_string())
        return badRule(rule.name, "FilterType Sql needs a SqlFilter with a SqlExpression (text)");
    rule.sqlExpression = (*filter)["SqlExpression"].get<std::string>();
    auto parsed = parseSqlFilter(rule.sqlExpression);
    if (!parsed)
        return badRule(rule.name, parsed.error().message);
    rule.parsed = *parsed;
    return rule;
}

nlohmann::json serviceBusRuleJson(const ServiceBusRule &rule)
{
    nlohmann::json properties = nlohmann::json::object();
    if (rule.filter == ServiceBusRule::Filter::Sql) {
        properties["FilterType"] = "Sql";
        properties["SqlFilter"] = {{"SqlExpression", rule.sqlExpression}};
    } else {
        properties["FilterType"] = "Correlation";
        nlohmann::json filter = nlohmann::json::object();
        for (const auto &[field, value] : rule.correlation)
            filter[field] = jsonOf(value);
        if (!rule.correlationProperties.empty()) {
            nlohmann::json values = nlohmann::json::object();
            for (const auto &[property, value] : rule.correlationProperties)
                values[property] = jsonOf(value);
            filter["Properties"] = values;
        }
        properties["CorrelationFilter"] = filter;
    }
    if (!rule.action.empty())
        properties["Action"] = {{"SqlExpression", rule.action.sqlExpression}};
    return nlohmann::json{{"Name", rule.name}, {"Properties", properties}};
}

} // namespace relaydesk
