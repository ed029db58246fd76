// SPDX-License-Identifier: MIT
#include "broker/servicebus/sql_filter_evaluator.h"

#include <cmath>
#include <limits>
#include <optional>

namespace relaydesk {

namespace {

using Kind = SqlFilterNode::Kind;

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

// SQL LIKE over bytes: % any run, _ one character, `escape` makes the next
// one literal. One pass over the text that, on a mismatch, goes back only to
// the last % (letting it take one more byte): time grows with text × pattern,
// never exponentially with the number of %s.
bool likeMatches(std::string_view text, std::string_view pattern, char escape)
{
    const auto escaped = [&](std::size_t p) { return escape != 0 && pattern[p] == escape && p + 1 < pattern.size(); };
    std::size_t t = 0;
    std::size_t p = 0;
    std::optional<std::size_t> afterPercent;   // the pattern just past the last %
    std::size_t percentTook = 0;               // where in the text that % stopped taking
    while (t < text.size()) {
        if (p < pattern.size()) {
            if (escaped(p)) {
                if (text[t] == pattern[p + 1]) {
                    ++t;
                    p += 2;
                    continue;
                }
            } else if (pattern[p] == '%') {
                afterPercent = ++p;
                percentTook = t;
                continue;
            } else if (pattern[p] == '_' || pattern[p] == text[t]) {
                ++t;
                ++p;
                continue;
            }
        }
        if (!afterPercent)
            return false;
        p = *afterPercent;
        t = ++percentTook;
    }
    while (p < pattern.size() && !escaped(p) && pattern[p] == '%')
        ++p;
    return p == pattern.size();
}

FilterValue property(const SqlFilterNode &node, const ServiceBusMessageFacts &message)
{
    const auto &properties = node.system ? message.system : message.application;
    const auto found = properties.find(node.name);
    return found == properties.end() ? FilterValue() : found->second;
}

FilterValue arithmetic(const std::string &op, const FilterValue &left, const FilterValue &right)
{
    if (!isNumber(left) || !isNumber(right))
        return op == "+" && std::holds_alternative<std::string>(left) && std::holds_alternative<std::string>(right)
                   ? FilterValue(std::get<std::string>(left) + std::get<std::string>(right))
                   : FilterValue();
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

FilterValue evaluate(const SqlFilterNode &node, const ServiceBusMessageFacts &message)
{
    switch (node.kind) {
    case Kind::Constant:
        return node.value;
    case Kind::Property:
        return property(node, message);
    case Kind::Negate: {
        const FilterValue operand = evaluate(*node.children[0], message);
        if (const auto *whole = std::get_if<std::int64_t>(&operand))
            return *whole == std::numeric_limits<std::int64_t>::min() ? FilterValue() : FilterValue(-*whole);
        if (const auto *decimal = std::get_if<double>(&operand))
            return -*decimal;
        return {};
    }
    case Kind::Arithmetic:
        return arithmetic(node.op, evaluate(*node.children[0], message), evaluate(*node.children[1], message));
    case Kind::Compare: {
        const std::optional<int> order =
            compare(evaluate(*node.children[0], message), evaluate(*node.children[1], message));
        if (!order)
            return {};
        const int o = *order;
        const std::string &op = node.op;
        return op == "=" ? o == 0 : op == "<>" ? o != 0 : op == "<" ? o < 0 : op == ">" ? o > 0 : op == "<=" ? o <= 0 : o >= 0;
    }
    case Kind::And: {
        const std::optional<bool> left = asTruth(evaluate(*node.children[0], message));
        if (left == false)
            return false;
        const std::optional<bool> right = asTruth(evaluate(*node.children[1], message));
        if (right == false)
            return false;
        return truth(left && right ? std::optional<bool>(true) : std::nullopt);
    }
    case Kind::Or: {
        const std::optional<bool> left = asTruth(evaluate(*node.children[0], message));
        if (left == true)
            return true;
        const std::optional<bool> right = asTruth(evaluate(*node.children[1], message));
        if (right == true)
            return true;
        return truth(left && right ? std::optional<bool>(false) : std::nullopt);
    }
    case Kind::Not: {
        const std::optional<bool> operand = asTruth(evaluate(*node.children[0], message));
        return truth(operand ? std::optional<bool>(!*operand) : std::nullopt);
    }
    case Kind::In: {
        const FilterValue operand = evaluate(*node.children[0], message);
        if (isUnknown(operand))
            return {};
        bool unknown = false;
        for (std::size_t i = 1; i < node.children.size(); ++i) {
            const std::optional<int> order = compare(operand, evaluate(*node.children[i], message));
            if (order == 0)
                return !node.negated;
            unknown = unknown || !order;
        }
        return truth(unknown ? std::nullopt : std::optional<bool>(node.negated));
    }
    case Kind::Like: {
        const FilterValue operand = evaluate(*node.children[0], message);
        const auto *text = std::get_if<std::string>(&operand);
        if (!text)
            return {};
        return likeMatches(*text, node.text, node.escape) != node.negated;
    }
    case Kind::IsNull:
        return isUnknown(property(*node.children[0], message)) != node.negated;
    case Kind::Exists: {
        const SqlFilterNode &named = *node.children[0];
        const auto &properties = named.system ? message.system : message.application;
        return properties.count(named.name) > 0;
    }
    }
    return {};
}

} // namespace

bool sqlFilterMatches(const SqlFilterNode &expression, const ServiceBusMessageFacts &message)
{
    return asTruth(evaluate(expression, message)) == true;
}

FilterValue sqlFilterValue(const SqlFilterNode &expression, const ServiceBusMessageFacts &message)
{
    return evaluate(expression, message);
}

} // namespace relaydesk
