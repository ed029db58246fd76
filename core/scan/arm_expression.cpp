// SPDX-License-Identifier: MIT
#include "arm_expression.h"

#include "policy_checks.h"

#include <cctype>

namespace relaydesk {

namespace {

constexpr int kMaxDepth = 16;   // variables naming variables: a bound, not a cycle

// format('{0}/{1}', a, b), as Bicep writes names: "{N}" placeholders filled
// with the string or integer arguments after the format; a placeholder with a
// format specifier or without its argument is not guessed.
std::optional<nlohmann::json> formatted(const std::string &pattern, const std::vector<nlohmann::json> &arguments)
{
    std::string out;
    for (std::size_t at = 0; at < pattern.size(); ++at) {
        if (pattern[at] != '{') {
            out += pattern[at];
            continue;
        }
        const std::size_t close = pattern.find('}', at);
        const std::string index = close == std::string::npos ? std::string() : pattern.substr(at + 1, close - at - 1);
        if (index.empty() || index.size() > 2 || index.find_first_not_of("0123456789") != std::string::npos)
            return std::nullopt;
        const std::size_t n = std::stoul(index) + 1;
        if (n >= arguments.size())
            return std::nullopt;
        if (arguments[n].is_string())
            out += arguments[n].get<std::string>();
        else if (arguments[n].is_number_integer())
            out += std::to_string(arguments[n].get<std::int64_t>());
        else
            return std::nullopt;
        at = close;
    }
    return nlohmann::json(out);
}

void skipSpace(const std::string &text, std::size_t &at)
{
    while (at < text.size() && text[at] == ' ')
        ++at;
}

} // namespace

nlohmann::json ArmExpressions::resolve(const nlohmann::json &value) const
{
    if (value.is_string()) {
        const auto resolved = evaluate(value.get<std::string>());
        return resolved ? *resolved : value;
    }
    nlohmann::json copy = value;
    if (value.is_object() || value.is_array()) {
        for (auto &item : copy.items())
            item.value() = resolve(item.value());
    }
    return copy;
}

std::optional<nlohmann::json> ArmExpressions::evaluate(const std::string &expression) const
{
    if (!isIntrinsic(expression))
        return std::nullopt;
    const std::string text = expression.substr(1, expression.size() - 2);
    std::size_t at = 0;
    auto value = call(text, at, 0);
    skipSpace(text, at);
    if (!value || at != text.size())
        return std::nullopt;
    return value;
}

std::optional<nlohmann::json> ArmExpressions::call(const std::string &text, std::size_t &at, int depth) const
{
    if (depth > kMaxDepth)
        return std::nullopt;
    skipSpace(text, at);
    if (at >= text.size())
        return std::nullopt;
    if (text[at] == '\'') {   // 'literal', '' for a quote
        std::string literal;
        for (++at; at < text.size(); ++at) {
            if (text[at] == '\'' && at + 1 < text.size() && text[at + 1] == '\'') {
                literal += '\'';
                ++at;
            } else if (text[at] == '\'') {
                ++at;
                return nlohmann::json(literal);
            } else {
                literal += text[at];
            }
        }
        return std::nullopt;
    }
    if (std::isdigit(static_cast<unsigned char>(text[at]))) {
        std::size_t end = at;
        while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end])))
            ++end;
        const nlohmann::json number = std::stoll(text.substr(at, end - at));
        at = end;
        return number;
    }
    std::size_t open = text.find('(', at);
    if (open == std::string::npos)
        return std::nullopt;
    const std::string function = text.substr(at, open - at);
    at = open + 1;
    std::vector<nlohmann::json> arguments;
    for (;;) {
        skipSpace(text, at);
        if (at < text.size() && text[at] == ')') {
            ++at;
            break;
        }
        auto argument = call(text, at, depth + 1);
        if (!argument)
            return std::nullopt;
        arguments.push_back(*argument);
        skipSpace(text, at);
        if (at < text.size() && text[at] == ',')
            ++at;
        else if (at >= text.size() || text[at] != ')')
            return std::nullopt;
    }
    if ((function == "parameters" || function == "variables") && arguments.size() == 1 && arguments[0].is_string()) {
        const std::string name = arguments[0].get<std::string>();
        const nlohmann::json &table = m_template.value(function, nlohmann::json::object());
        if (!table.is_object() || !table.contains(name))
            return std::nullopt;
        const nlohmann::json &entry = table[name];
        nlohmann::json value;
        if (function == "parameters") {
            if (!entry.is_object() || !entry.contains("defaultValue"))
                return std::nullopt;
            value = entry["defaultValue"];
        } else {
            value = entry;
        }
        if (value.is_string() && isIntrinsic(value)) {
            std::size_t inner = 0;
            const std::string nested = value.get<std::string>().substr(1, value.get<std::string>().size() - 2);
            auto resolved = call(nested, inner, depth + 1);
            if (!resolved || inner != nested.size())
                return std::nullopt;
            return resolved;
        }
        return value;
    }
    if (function == "concat") {
        std::string joined;
        for (const nlohmann::json &argument : arguments) {
            if (argument.is_string())
                joined += argument.get<std::string>();
            else if (argument.is_number_integer())
                joined += std::to_string(argument.get<std::int64_t>());
            else
                return std::nullopt;
        }
        return nlohmann::json(joined);
    }
    if (function == "format" && !arguments.empty() && arguments[0].is_string())
        return formatted(arguments[0].get<std::string>(), arguments);
    return std::nullopt;
}

} // namespace relaydesk
