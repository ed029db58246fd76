// SPDX-License-Identifier: MIT
#pragma once

#include "broker/result.h"
#include "broker/servicebus/servicebus_message_facts.h"
#include "broker/servicebus/sql_filter_parser.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace relaydesk {

// The SQL action of a Service Bus rule (docs/behaviour.md §8.6): statements
// separated by ';', each `SET name = expression` or `REMOVE name`, run in
// order on the copy of a message the rule lets into its subscription. The
// name is an application property (`name`, `user.name` or `[name]`); the
// expression is any of the SQL filter's (sql_filter_parser.h) and sees the
// message as the statements before it left it. Value type; the parsed
// expressions are shared.
struct ServiceBusRuleAction {
    struct Statement {
        bool remove = false;            // REMOVE name, else SET name = value
        std::string property;           // an application property
        SqlFilterExpression value;      // SET only
    };
    std::string sqlExpression;          // as given; empty for no action
    std::vector<Statement> statements;

    bool empty() const { return statements.empty(); }
};

// What an action changes: each application property it set (its new
// value) or removed (nothing).
using ServiceBusPropertyChanges = std::map<std::string, std::optional<FilterValue>>;

// Parses an action; blank text is no action. A malformed statement, or one
// that sets a system property (sys.NAME), is InvalidParameterValue naming
// the statement. Pure.
Result<ServiceBusRuleAction> parseServiceBusRuleAction(std::string_view text);

// Runs the action's statements on what a message carries. Pure.
ServiceBusPropertyChanges applyServiceBusRuleAction(const ServiceBusRuleAction &action,
                                                    const ServiceBusMessageFacts &message);

} // namespace relaydesk
