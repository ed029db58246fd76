// SPDX-License-Identifier: MIT
#include "broker/servicebus/sql_filter_evaluator.h"

#include "broker/servicebus/servicebus_limits.h"
#include "broker/servicebus/sql_like_pattern.h"

#include <cmath>
#include <limits>
#include <optional>

namespace relaydesk {

namespace {

using NodeKind = SqlFilterNode::Kind;

bool isUnknown(const FilterValue &value) { return std::holds_alternative<std::monostate>(value); }
bool isNumber(const FilterValue &value)
{
    return std::holds_alternative<std::int64_t>(value) || std::holds_alternative<double>(value);
}
double asDouble(const FilterValue &value)
{
    return std::holds_alternative<std::int64_t>(value) ? static_cast<double>(std::get<std::int64_t>(value))
                                                       : std::get<double>(value);
}

// -1, 0, 1; nothing when the two cannot be compared (unknown).
std::optional<int> compare(const FilterValue &left, const FilterValue &right)
{
    if (isNumber(left) && isNumber(right)) {
        if (std::holds_alternative<std::int64_t>(left) && std::holds_alternative<std::int64_t>(right)) {
            const auto a = std::get<std::int64_t>(left), b = std::get<std::int64_t>(right);
            return a < b ? -1 : (a > b ? 1 : 0);
        }
        const double a = asDouble(left), b = asDouble(right);
        if (std::isnan(a) || std::isnan(b))
            return std::nullopt;
        return a < b ? -1 : (a > b ? 1 : 0);
    }
    if (std::holds_alternative<std::string>(left) && std::holds_alternative<std::string>(right)) {
        const int order = std::get<std::string>(left).compare(std::get<std::string>(right));
        return order < 0 ? -1 : (order > 0 ? 1 : 0);
    }
    if (std::holds_alternative<bool>(left) && std::holds_alternative<bool>(right))
        return static_cast<int>(std::get<bool>(left)) - static_cast<int>(std::get<bool>(right));
    return std::nullopt;
}

// One evaluation: the message, and the first value that went past the
// bound on text a filter or action makes (then every value is unknown).
struct Evaluation {
    const ServiceBusMessageFacts &message;
    std::optional<BrokerError> tooLong;
};

FilterValue property(const SqlFilterNode &node, const ServiceBusMessageFacts &message)
{
    const auto &properties = node.system ? message.system : message.application;
    const auto found = properties.find(node.name);
    return found == properties.end() ? FilterValue() : found->second;
}

// Text + text past kServiceBusMaxPropertiesSize is refused (in `evaluation`)
// before it is made.
FilterValue arithmetic(const std::string &op, const FilterValue &left, const FilterValue &right, Evaluation &evaluation)
{
    if (!isNumber(left) || !isNumber(right)) {
        const auto *a = std::get_if<std::string>(&left);
        const auto *b = std::get_if<std::string>(&right);
        if (op != "+" || !a || !b)
            return {};
        if (a->size() + b->size() > kServiceBusMaxPropertiesSize) {
            evaluation.tooLong = BrokerError(
                BrokerErrorCode::InvalidParameterValue,
                "A SQL expression made a text of " + std::to_string(a->size() + b->size())
                    + " bytes; a value may take at most " + std::to_string(kServiceBusMaxPropertiesSize) + " bytes.");
            return {};
        }
        return *a + *b;
    }
    if (std::holds_alternative<std::int64_t>(left) && std::holds_alternative<std::int64_t>(right)) {
        // Whole numbers: a result past 64 bits, and the smallest one's / or %
        // by -1, are unknown, as a division by zero is.
        const std::int64_t a = std::get<std::int64_t>(left), b = std::get<std::int64_t>(right);
        std::int64_t result = 0;
        bool overflow = false;
        if (op == "+")
            overflow = __builtin_add_overflow(a, b, &result);
        else if (op == "-")
            overflow = __builtin_sub_overflow(a, b, &result);
        else if (op == "*")
            overflow = __builtin_mul_overflow(a, b, &result);
        else if (b == 0 || (a == std::numeric_limits<std::int64_t>::min() && b == -1))
            overflow = true;
        else
            result = op == "/" ? a / b : a % b;
        return overflow ? FilterValue() : FilterValue(result);
    }
    const double a = asDouble(left), b = asDouble(right);
    if (op == "+")
        return a + b;
    if (op == "-")
        return a - b;
    if (op == "*")
        return a * b;
    if (b == 0)
        return {};
    return op == "/" ? a / b : std::fmod(a, b);
}

FilterValue truth(std::optional<bool> value) { return value ? FilterValue(*value) : FilterValue(); }
std::optional<bool> asTruth(const FilterValue &value)
{
    if (const bool *known = std::get_if<bool>(&value))
        return *known;
    return std::nullopt;
}

FilterValue evaluate(const SqlFilterNode &node, Evaluation &evaluation)
{
    if (evaluation.tooLong)
        return {};
    const ServiceBusMessageFacts &message = evaluation.message;
    switch (node.kind) {
    case NodeKind::Constant:
        return node.value;
    case NodeKind::Property:
        return property(node, message);
    case NodeKind::Negate: {
        const FilterValue operand = evaluate(*node.children[0], evaluation);
        if (const auto *whole = std::get_if<std::int64_t>(&operand))
            return *whole == std::numeric_limits<std::int64_t>::min() ? FilterValue() : FilterValue(-*whole);
        if (const auto *decimal = std::get_if<double>(&operand))
            return -*decimal;
        return {};
    }
    case NodeKind::Arithmetic:
        return arithmetic(node.op, evaluate(*node.children[0], evaluation), evaluate(*node.children[1], evaluation),
                          evaluation);
    case NodeKind::Compare: {
        const std::optional<int> order =
            compare(evaluate(*node.children[0], evaluation), evaluate(*node.children[1], evaluation));
        if (!order)
            return {};
        const int o = *order;
        const std::string &op = node.op;
        return op == "=" ? o == 0 : op == "<>" ? o != 0 : op == "<" ? o < 0 : op == ">" ? o > 0 : op == "<=" ? o <= 0 : o >= 0;
    }
    case NodeKind::And: {
        const std::optional<bool> left = asTruth(evaluate(*node.children[0], evaluation));
        if (left == false)
            return false;
        const std::optional<bool> right = asTruth(evaluate(*node.children[1], evaluation));
        if (right == false)
            return false;
        return truth(left && right ? std::optional<bool>(true) : std::nullopt);
    }
    case NodeKind::Or: {
        const std::optional<bool> left = asTruth(evaluate(*node.children[0], evaluation));
        if (left == true)
            return true;
        const std::optional<bool> right = asTruth(evaluate(*node.children[1], evaluation));
        if (right == true)
            return true;
        return truth(left && right ? std::optional<bool>(false) : std::nullopt);
    }
    case NodeKind::Not: {
        const std::optional<bool> operand = asTruth(evaluate(*node.children[0], evaluation));
        return truth(operand ? std::optional<bool>(!*operand) : std::nullopt);
    }
    case NodeKind::In: {
        const FilterValue operand = evaluate(*node.children[0], evaluation);
        if (isUnknown(operand))
            return {};
        bool unknown = false;
        for (std::size_t i = 1; i < node.children.size(); ++i) {
            const std::optional<int> order = compare(operand, evaluate(*node.children[i], evaluation));
            if (order == 0)
                return !node.negated;
            unknown = unknown || !order;
        }
        return truth(unknown ? std::nullopt : std::optional<bool>(node.negated));
    }
    case NodeKind::Like: {
        const FilterValue operand = evaluate(*node.children[0], evaluation);
        const auto *text = std::get_if<std::string>(&operand);
        if (!text)
            return {};
        return sqlLikeMatches(*text, node.text, node.escape) != node.negated;
    }
    case NodeKind::IsNull:
        return isUnknown(property(*node.children[0], message)) != node.negated;
    case NodeKind::Exists: {
        const SqlFilterNode &named = *node.children[0];
        const auto &properties = named.system ? message.system : message.application;
        return properties.count(named.name) > 0;
    }
    }
    return {};
}

} // namespace

Result<bool> sqlFilterMatches(const SqlFilterNode &expression, const ServiceBusMessageFacts &message)
{
    Evaluation evaluation{message, std::nullopt};
    const FilterValue value = evaluate(expression, evaluation);
    if (evaluation.tooLong)
        return *evaluation.tooLong;
    return asTruth(value) == true;
}

Result<FilterValue> sqlFilterValue(const SqlFilterNode &expression, const ServiceBusMessageFacts &message)
{
    Evaluation evaluation{message, std::nullopt};
    FilterValue value = evaluate(expression, evaluation);
    if (evaluation.tooLong)
        return *evaluation.tooLong;
    return value;
}

} // namespace relaydesk
