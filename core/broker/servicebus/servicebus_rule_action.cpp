// SPDX-License-Identifier: MIT
#include "broker/servicebus/servicebus_rule_action.h"

#include "broker/echoed_value.h"
#include "broker/servicebus/servicebus_limits.h"
#include "broker/servicebus/sql_filter_evaluator.h"

#include <algorithm>
#include <cctype>

namespace relaydesk {

namespace {

std::string_view trimmed(std::string_view text)
{
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
        text.remove_prefix(1);
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
        text.remove_suffix(1);
    return text;
}

// The positions of `wanted` outside 'text', [names] and "names".
std::vector<std::size_t> positionsOutsideQuotes(std::string_view text, char wanted)
{
    std::vector<std::size_t> found;
    char closing = 0;
    for (std::size_t at = 0; at < text.size(); ++at) {
        const char c = text[at];
        if (closing != 0) {
            if (c == closing)
                closing = 0;
        } else if (c == '\'') {
            closing = '\'';
        } else if (c == '[') {
            closing = ']';
        } else if (c == '"') {
            closing = '"';
        } else if (c == wanted) {
            found.push_back(at);
        }
    }
    return found;
}

BrokerError badStatement(std::string_view statement, const std::string &problem)
{
    return BrokerError(BrokerErrorCode::InvalidParameterValue,
                       "The SQL rule action statement \"" + echoedValue(statement) + "\" is not valid: " + problem);
}

// The property a statement names (into `parsed`).
Status targetProperty(std::string_view statement, std::string_view target, ServiceBusRuleAction::Statement &parsed)
{
    auto expression = parseSqlFilter(trimmed(target));
    if (!expression)
        return badStatement(statement, expression.error().message);
    const SqlFilterNode &node = **expression;
    if (node.kind != SqlFilterNode::Kind::Property)
        return badStatement(statement, "it names no property");
    if (node.system
        && std::find(kSettableSystemProperties.begin(), kSettableSystemProperties.end(), node.name)
               == kSettableSystemProperties.end())
        return badStatement(statement, "sys." + node.name + " cannot be changed by a rule action");
    parsed.property = node.name;
    parsed.system = node.system;
    return {};
}

// The statement's first word in capitals, and what follows it.
std::pair<std::string, std::string_view> keyword(std::string_view statement)
{
    std::size_t end = 0;
    while (end < statement.size() && std::isalpha(static_cast<unsigned char>(statement[end])))
        ++end;
    std::string word(statement.substr(0, end));
    std::transform(word.begin(), word.end(), word.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    return {word, statement.substr(end)};
}

Result<ServiceBusRuleAction::Statement> parseStatement(std::string_view statement)
{
    const auto [word, rest] = keyword(statement);
    const bool separated = !rest.empty() && (std::isspace(static_cast<unsigned char>(rest.front())) || rest.front() == '[');
    ServiceBusRuleAction::Statement parsed;
    if (word == "REMOVE" && separated) {
        if (Status named = targetProperty(statement, rest, parsed); !named)
            return named.error();
        parsed.remove = true;
        return parsed;
    }
    if (word != "SET" || !separated)
        return badStatement(statement, "a statement is SET name = expression or REMOVE name");
    const std::vector<std::size_t> equals = positionsOutsideQuotes(rest, '=');
    if (equals.empty())
        return badStatement(statement, "SET needs name = expression");
    if (Status named = targetProperty(statement, rest.substr(0, equals.front()), parsed); !named)
        return named.error();
    auto value = parseSqlFilter(trimmed(rest.substr(equals.front() + 1)));
    if (!value)
        return badStatement(statement, value.error().message);
    parsed.value = *value;
    return parsed;
}

BrokerError tooLong(const ServiceBusRuleAction::Statement &statement, const std::string &problem)
{
    return BrokerError(BrokerErrorCode::InvalidParameterValue,
                       "The SQL rule action's SET " + std::string(statement.system ? "sys." : "")
                           + echoedValue(statement.property) + " stopped: " + problem);
}

} // namespace

Result<ServiceBusRuleAction> parseServiceBusRuleAction(std::string_view text)
{
    ServiceBusRuleAction action;
    action.sqlExpression = std::string(trimmed(text));
    if (action.sqlExpression.size() > 1024)
        return BrokerError(BrokerErrorCode::InvalidParameterValue, "A SQL rule action is at most 1024 characters.");
    std::size_t start = 0;
    std::vector<std::size_t> ends = positionsOutsideQuotes(text, ';');
    ends.push_back(text.size());
    for (const std::size_t end : ends) {
        const std::string_view statement = trimmed(text.substr(start, end - start));
        start = end + 1;
        if (statement.empty())
            continue;
        auto parsed = parseStatement(statement);
        if (!parsed)
            return parsed.error();
        action.statements.push_back(std::move(*parsed));
    }
    if (action.statements.empty())
        action.sqlExpression.clear();
    return action;
}

Result<ServiceBusPropertyChanges> applyServiceBusRuleAction(const ServiceBusRuleAction &action,
                                                            const ServiceBusMessageFacts &message)
{
    ServiceBusMessageFacts current = message;
    ServiceBusPropertyChanges changes;
    for (const ServiceBusRuleAction::Statement &statement : action.statements) {
        auto &properties = statement.system ? current.system : current.application;
        auto &changed = statement.system ? changes.system : changes.application;
        if (statement.remove) {
            properties.erase(statement.property);
            changed[statement.property] = std::nullopt;
            continue;
        }
        const Result<FilterValue> value = sqlFilterValue(*statement.value, current);
        if (!value)
            return tooLong(statement, value.error().message);
        properties[statement.property] = *value;
        changed[statement.property] = *value;
        if (Status fits = checkServiceBusPropertiesSize(current, "The message's properties"); !fits)
            return tooLong(statement, fits.error().message);
    }
    return changes;
}

} // namespace relaydesk
