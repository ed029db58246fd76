// SPDX-License-Identifier: MIT
#pragma once

#include "broker/result.h"
#include "broker/servicebus/servicebus_message_facts.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace relaydesk {

// One node of a parsed SQL filter expression (docs/behaviour.md §8.6, the
// Service Bus SQL filter subset). Immutable once parsed; shared freely.
struct SqlFilterNode {
    enum class Kind {
        Constant,     // value
        Property,     // name; system when `system` (sys.NAME, Azure's name), else an application property
        Compare,      // op: = <> < > <= >= over children[0], children[1]
        Arithmetic,   // op: + - * / % over children[0], children[1]
        Negate,       // -children[0]
        And,
        Or,
        Not,
        In,           // children[0] [NOT] IN (children[1..]); negated
        Like,         // children[0] [NOT] LIKE text [ESCAPE escape]; negated
        IsNull,       // children[0] IS [NOT] NULL; negated
        Exists,       // EXISTS(children[0]) — a property
    };
    Kind kind = Kind::Constant;
    FilterValue value;
    std::string name;
    bool system = false;
    std::string op;
    bool negated = false;
    std::string text;        // Like: the pattern
    char escape = 0;         // Like: the escape character, 0 for none
    std::vector<std::shared_ptr<const SqlFilterNode>> children;
};
using SqlFilterExpression = std::shared_ptr<const SqlFilterNode>;

// Parses a SQL filter expression: comparisons (= <> != < > <= >=), AND, OR,
// NOT, [NOT] IN (…), [NOT] LIKE 'pattern' [ESCAPE 'c'], IS [NOT] NULL,
// EXISTS(property), + - * / %, parentheses; constants are 'text' (''
// for a quote), whole and decimal numbers, TRUE, FALSE and NULL;
// properties are sys.NAME (a system property by its Azure name, any case),
// user.NAME or a bare NAME (an application property), [NAME] for a name
// with other characters. Keywords are case-insensitive. Parentheses, NOT
// and signs nest at most 64 deep. A malformed
// expression is InvalidParameterValue naming the 1-based position where it
// goes wrong ("… at position 12: …"). Pure.
Result<SqlFilterExpression> parseSqlFilter(std::string_view text);

// The system properties a filter may name, by their Azure names.
bool isServiceBusSystemProperty(std::string_view name);

} // namespace relaydesk
