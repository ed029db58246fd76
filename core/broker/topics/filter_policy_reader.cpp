// SPDX-License-Identifier: MIT
// parseFilterPolicy(): the FilterPolicy document rules. The reasons follow
// the service's wording where it is known.
#include "filter_policy.h"

#include "json/bounded_json.h"

#include <nlohmann/json.hpp>

namespace relaydesk {

namespace {

using Json = nlohmann::ordered_json;

BrokerError invalid(std::string_view reason)
{
    return BrokerError(BrokerErrorCode::SnsInvalidParameter, "Invalid parameter: FilterPolicy: " + std::string(reason));
}

std::string shown(const Json &value) { return value.is_string() ? value.get<std::string>() : value.dump(); }

Result<FilterCondition> readNumeric(const Json &terms)
{
    if (!terms.is_array() || terms.empty())
        return invalid("Invalid member in numeric match: ]");
    filter::Numeric range;
    std::size_t i = 0;
    const auto readBound = [&](bool first) -> Status {
        const Json &op = terms[i];
        if (!op.is_string())
            return invalid((first ? "Invalid member in numeric match: " : "Bad value in numeric range: ") + shown(op));
        const std::string name = op.get<std::string>();
        const bool lowerOp = name == ">" || name == ">=";
        const bool upperOp = name == "<" || name == "<=";
        if (first ? !(lowerOp || upperOp || name == "=") : !upperOp)
            return invalid((first ? "Unrecognized numeric range operator: " : "Bad numeric range operator: ") + name);
        if (i + 1 >= terms.size() || !terms[i + 1].is_number())
            return invalid("Value of " + (name == "=" ? std::string("equals") : name) + " must be numeric");
        const double value = terms[i + 1].get<double>();
        if (name == "=")
            range.equals = value;
        else if (lowerOp) {
            range.lower = value;
            range.lowerInclusive = name == ">=";
        } else {
            range.upper = value;
            range.upperInclusive = name == "<=";
        }
        i += 2;
        return {};
    };
    if (Status first = readBound(true); !first)
        return first.error();
    if (i == terms.size())
        return FilterCondition(range);
    if (!range.lower)
        return invalid("Too many elements in numeric expression");
    if (Status second = readBound(false); !second)
        return second.error();
    if (*range.upper <= *range.lower)
        return invalid("Bottom must be less than top");
    if (i != terms.size())
        return invalid("Too many terms in numeric range expression");
    return FilterCondition(range);
}

Result<FilterCondition> readAnythingBut(const Json &value)
{
    filter::AnythingBut rule;
    if (value.is_object()) {
        if (value.size() != 1)
            return invalid("Only one key allowed in match expression");
        const auto entry = value.begin();
        const std::string &key = entry.key();
        const Json &pattern = entry.value();
        if (key != "prefix" && key != "suffix")
            return invalid("Unsupported anything-but pattern: " + key);
        if (!pattern.is_string())
            return invalid("anything-but " + key + " match pattern must be a string");
        (key == "prefix" ? rule.prefix : rule.suffix) = pattern.get<std::string>();
        return FilterCondition(rule);
    }
    const auto add = [&](const Json &item) -> Status {
        if (item.is_string())
            rule.strings.push_back(item.get<std::string>());
        else if (item.is_number())
            rule.numbers.push_back(item.get<double>());
        else
            return invalid("Inside anything but list, start|null|boolean is not supported.");
        return {};
    };
    if (value.is_array()) {
        if (value.empty())
            return invalid("Empty arrays are not allowed");
        for (const Json &item : value) {
            if (Status added = add(item); !added)
                return added.error();
        }
    } else if (Status added = add(value); !added) {
        return added.error();
    }
    return FilterCondition(rule);
}

Result<FilterCondition> readCondition(const Json &element)
{
    if (element.is_string())
        return FilterCondition(filter::ExactString{element.get<std::string>()});
    if (element.is_number())
        return FilterCondition(filter::ExactNumber{element.get<double>()});
    if (element.is_boolean())
        return FilterCondition(filter::ExactBoolean{element.get<bool>()});
    if (element.is_null())
        return FilterCondition(filter::ExactNull{});
    if (!element.is_object())
        return invalid("Match value must be String, number, true, false, or null");
    if (element.size() != 1)
        return invalid("Only one key allowed in match expression");

    const auto entry = element.begin();
    const std::string &op = entry.key();
    const Json &value = entry.value();
    if (op == "prefix" || op == "suffix" || op == "equals-ignore-case") {
        if (!value.is_string())
            return invalid(op + " match pattern must be a string");
        const std::string text = value.get<std::string>();
        if (op == "prefix")
            return FilterCondition(filter::Prefix{text});
        if (op == "suffix")
            return FilterCondition(filter::Suffix{text});
        return FilterCondition(filter::EqualsIgnoreCase{text});
    }
    if (op == "exists") {
        if (!value.is_boolean())
            return invalid("exists match pattern must be either true or false.");
        return FilterCondition(filter::Exists{value.get<bool>()});
    }
    if (op == "anything-but")
        return readAnythingBut(value);
    if (op == "numeric")
        return readNumeric(value);
    return invalid("Unrecognized match type " + op);
}

} // namespace

Result<FilterPolicy> parseFilterPolicy(std::string_view text)
{
    if (text.size() > FilterPolicy::kMaxLength)
        return invalid("Filter policy is too long");
    const Json document = parseBoundedJson<Json>(text);
    if (document.is_discarded())
        return invalid("failed to parse JSON.");
    if (!document.is_object())
        return invalid("Filter policy must be a JSON object");
    if (document.size() > FilterPolicy::kMaxKeys)
        return invalid("Filter policy can not have more than 5 keys");

    std::size_t combinations = 1;
    for (const auto &[key, value] : document.items()) {
        if (key == "$or")
            return invalid("$or is not supported by Relaydesk; write one subscription per alternative");
        if (value.is_object())
            return invalid("Filter policy scope MessageAttributes does not support nested filter policy");
        if (!value.is_array())
            return invalid("\"" + key + "\" must be an object or an array");
        if (value.empty())
            return invalid("Empty arrays are not allowed");
        combinations = std::min(combinations * value.size(), FilterPolicy::kMaxCombinations + 1);
    }
    if (combinations > FilterPolicy::kMaxCombinations)
        return invalid("Filter policy is too complex");

    FilterPolicy policy;
    for (const auto &[key, value] : document.items()) {
        std::vector<FilterCondition> conditions;
        for (const Json &element : value) {
            Result<FilterCondition> condition = readCondition(element);
            if (!condition)
                return condition.error();
            conditions.push_back(std::move(condition).value());
        }
        policy.keys.emplace_back(key, std::move(conditions));
    }
    return policy;
}

} // namespace relaydesk
