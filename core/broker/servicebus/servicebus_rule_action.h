// SPDX-License-Identifier: MIT
#pragma once

#include "broker/result.h"
#include "broker/servicebus/servicebus_message_facts.h"
#include "broker/servicebus/sql_filter_parser.h"

#include <array>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace relaydesk {

// The SQL action of a Service Bus rule (docs/behaviour.md §8.6): statements
// separated by ';', each `SET name = expression` or `REMOVE name`, run in
// order on the copy of a message the rule lets into its subscription. The
// name is an application property (`name`, `user.name` or `[name]`) or one
// of the system properties of kSettableSystemProperties (`sys.NAME`); the
// expression is any of the SQL filter's (sql_filter_parser.h) and sees the
// message as the statements before it left it. Value type; the parsed
// expressions are shared.
struct ServiceBusRuleAction {
    struct Statement {
        bool remove = false;            // REMOVE name, else SET name = value
        bool system = false;            // property is a system property's Azure name
        std::string property;
        SqlFilterExpression value;      // SET only
    };
    std::string sqlExpression;          // as given; empty for no action
    std::vector<Statement> statements;

    bool empty() const { return statements.empty(); }
};

// The system properties an action may set or remove: the message's
// properties section, by Azure name.
inline constexpr std::array<std::string_view, 8> kSettableSystemProperties = {
    "MessageId", "CorrelationId", "To", "ReplyTo", "Label", "SessionId", "ReplyToSessionId", "ContentType"};

// What an action changes: each property it set (its new value) or removed
// (nothing), application and system ones apart. Value type.
struct ServiceBusPropertyChanges {
    std::map<std::string, std::optional<FilterValue>> application;
    std::map<std::string, std::optional<FilterValue>> system;   // by Azure name
    bool operator==(const ServiceBusPropertyChanges &) const = default;
};

// Parses an action; blank text is no action. A malformed statement, or one
// that names another system property, is InvalidParameterValue naming the
// statement. Pure.
Result<ServiceBusRuleAction> parseServiceBusRuleAction(std::string_view text);

// Runs the action's statements on what a message carries. A statement
// whose value, or after which the message's properties, would pass
// kServiceBusMaxPropertiesSize (servicebus_limits.h) stops it:
// InvalidParameterValue naming the statement. Pure.
Result<ServiceBusPropertyChanges> applyServiceBusRuleAction(const ServiceBusRuleAction &action,
                                                    const ServiceBusMessageFacts &message);

} // namespace relaydesk
