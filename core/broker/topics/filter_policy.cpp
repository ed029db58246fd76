// SPDX-License-Identifier: MIT
#include "filter_policy.h"

#include "json/bounded_json.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <charconv>

namespace relaydesk {

namespace {

// The values one attribute offers to the conditions.
struct AttributeValues {
    std::vector<std::string> strings;
    std::vector<double> numbers;
    std::vector<bool> booleans;
    bool hasNull = false;
    bool empty() const { return strings.empty() && numbers.empty() && booleans.empty() && !hasNull; }
};

std::optional<double> parseNumber(std::string_view text)
{
    double value = 0;
    const char *end = text.data() + text.size();
    const auto [ptr, error] = std::from_chars(text.data(), end, value);
    if (error != std::errc() || ptr != end || text.empty())
        return std::nullopt;
    return value;
}

AttributeValues valuesOf(const MessageAttributeValue &attribute)
{
    AttributeValues values;
    if (attribute.isStringArray()) {
        const nlohmann::json array = parseBoundedJson(attribute.stringValue);
        if (array.is_discarded() || !array.is_array())
            return values;
        for (const nlohmann::json &element : array) {
            if (element.is_string())
                values.strings.push_back(element.get<std::string>());
            else if (element.is_number())
                values.numbers.push_back(element.get<double>());
            else if (element.is_boolean())
                values.booleans.push_back(element.get<bool>());
            else if (element.is_null())
                values.hasNull = true;
        }
        return values;
    }
    const std::string_view base = attribute.baseType();
    if (base == "String") {
        values.strings.push_back(attribute.stringValue);
    } else if (base == "Number") {
        if (const auto number = parseNumber(attribute.stringValue))
            values.numbers.push_back(*number);
    }
    return values;
}

bool startsWith(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }

bool endsWith(std::string_view text, std::string_view suffix)
{
    return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

bool equalsIgnoringCase(std::string_view a, std::string_view b)
{
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
           });
}

template <typename T, typename Predicate>
bool anyOf(const std::vector<T> &values, Predicate predicate)
{
    return std::any_of(values.begin(), values.end(), predicate);
}

bool inRange(const filter::Numeric &range, double value)
{
    if (range.equals && value != *range.equals)
        return false;
    if (range.lower && (range.lowerInclusive ? value < *range.lower : value <= *range.lower))
        return false;
    if (range.upper && (range.upperInclusive ? value > *range.upper : value >= *range.upper))
        return false;
    return true;
}

bool listed(const filter::AnythingBut &rule, const AttributeValues &values)
{
    const auto stringListed = [&](const std::string &s) {
        return std::find(rule.strings.begin(), rule.strings.end(), s) != rule.strings.end() ||
               (rule.prefix && startsWith(s, *rule.prefix)) || (rule.suffix && endsWith(s, *rule.suffix));
    };
    const auto numberListed = [&](double n) {
        return std::find(rule.numbers.begin(), rule.numbers.end(), n) != rule.numbers.end();
    };
    return anyOf(values.strings, stringListed) || anyOf(values.numbers, numberListed);
}

struct ConditionMatcher {
    const AttributeValues *values = nullptr;   // null when the attribute is absent

    bool operator()(const filter::Exists &rule) const { return rule.value == (values != nullptr); }
    bool operator()(const filter::ExactString &rule) const
    {
        return values && anyOf(values->strings, [&](const std::string &s) { return s == rule.value; });
    }
    bool operator()(const filter::ExactNumber &rule) const
    {
        return values && anyOf(values->numbers, [&](double n) { return n == rule.value; });
    }
    bool operator()(const filter::ExactBoolean &rule) const
    {
        return values && anyOf(values->booleans, [&](bool b) { return b == rule.value; });
    }
    bool operator()(const filter::ExactNull &) const { return values && values->hasNull; }
    bool operator()(const filter::Prefix &rule) const
    {
        return values && anyOf(values->strings, [&](const std::string &s) { return startsWith(s, rule.value); });
    }
    bool operator()(const filter::Suffix &rule) const
    {
        return values && anyOf(values->strings, [&](const std::string &s) { return endsWith(s, rule.value); });
    }
    bool operator()(const filter::EqualsIgnoreCase &rule) const
    {
        return values && anyOf(values->strings, [&](const std::string &s) { return equalsIgnoringCase(s, rule.value); });
    }
    bool operator()(const filter::AnythingBut &rule) const { return values && !values->empty() && !listed(rule, *values); }
    bool operator()(const filter::Numeric &rule) const
    {
        return values && anyOf(values->numbers, [&](double n) { return inRange(rule, n); });
    }
};

} // namespace

bool FilterPolicy::matches(const MessageAttributes &attributes) const
{
    if (keys.empty())
        return true;
    if (attributes.empty())
        return false;
    for (const auto &[name, conditions] : keys) {
        const auto found = attributes.find(name);
        std::optional<AttributeValues> values;
        if (found != attributes.end())
            values = valuesOf(found->second);
        const ConditionMatcher matcher{values ? &*values : nullptr};
        const bool keyMatches = std::any_of(conditions.begin(), conditions.end(),
                                            [&](const FilterCondition &condition) { return std::visit(matcher, condition); });
        if (!keyMatches)
            return false;
    }
    return true;
}

} // namespace relaydesk
