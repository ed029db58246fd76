// SPDX-License-Identifier: MIT
#pragma once

#include "broker/result.h"
#include "broker/servicebus/servicebus_message_facts.h"
#include "broker/servicebus/servicebus_rule_action.h"
#include "broker/servicebus/sql_filter_parser.h"

#include <nlohmann/json_fwd.hpp>

#include <map>
#include <string>

namespace relaydesk {

// One rule of a Service Bus subscription (docs/behaviour.md §8.6): a correlation filter (every
// property it names equals the message's) or a SQL filter. A subscription
// takes a message once when any of its rules without an action matches,
// and once more for each matching rule with an action (that copy changed
// by the action). Value type; the parsed SQL is shared.
struct ServiceBusRule {
    static constexpr std::string_view kDefaultName = "$Default";

    enum class Filter { Correlation, Sql };
    std::string name;
    Filter filter = Filter::Sql;
    std::map<std::string, FilterValue> correlation;            // system properties by Azure name
    std::map<std::string, FilterValue> correlationProperties;  // application properties
    std::string sqlExpression;
    SqlFilterExpression parsed;                                // of sqlExpression
    ServiceBusRuleAction action;                               // empty: none

    // Errors: a SQL filter's (sqlFilterMatches).
    Result<bool> matches(const ServiceBusMessageFacts &message) const;
};

// The rule every subscription starts with when given none: "$Default",
// the SQL filter 1=1 (the service's TrueFilter).
ServiceBusRule defaultServiceBusRule();

// One rule as the emulator's Config.json writes it: {"Name": …,
// "Properties": {"FilterType": "Correlation", "CorrelationFilter":
// {"CorrelationId", "MessageId", "To", "ReplyTo", "Label", "SessionId",
// "ReplyToSessionId", "ContentType", "Properties": {…}}}} or
// {"FilterType": "Sql", "SqlFilter": {"SqlExpression": …}}, either with an
// optional "Action": {"SqlExpression": …} (servicebus_rule_action.h).
// Errors are InvalidParameterValue naming the rule. Pure.
Result<ServiceBusRule> parseServiceBusRule(const nlohmann::json &rule);
nlohmann::json serviceBusRuleJson(const ServiceBusRule &rule);

// 1–50 letters, digits, '.', '-', '_' or '$'. Pure.
Status validateServiceBusRuleName(std::string_view name);

} // namespace relaydesk
