// SPDX-License-Identifier: MIT
#include "api/wire/action_input.h"

#include "broker/echoed_value.h"

#include "broker/attribute_text.h"

namespace relaydesk {

namespace {

std::string shown(const nlohmann::json &value)
{
    return echoedValue(value.is_string() ? value.get<std::string>() : jsonText(value));
}

} // namespace

std::string jsonText(const nlohmann::json &value)
{
    return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

const nlohmann::json *ActionInput::find(std::string_view name) const
{
    if (!m_parameters.is_object())
        return nullptr;
    const auto it = m_parameters.find(name);
    if (it == m_parameters.end() || it->is_null())
        return nullptr;
    return &*it;
}

bool ActionInput::has(std::string_view name) const { return find(name) != nullptr; }

BrokerError ActionInput::invalid(std::string_view name, std::string_view reason) const
{
    const nlohmann::json *value = find(name);
    std::string text = "Value " + (value ? shown(*value) : std::string("(empty)")) + " for parameter " +
                       std::string(name) + " is invalid.";
    if (!reason.empty())
        text += " Reason: " + std::string(reason);
    return BrokerError(m_invalid, text);
}

BrokerError ActionInput::missing(std::string_view name) const
{
    return BrokerError(m_missing, "The request must contain the parameter " + std::string(name) + ".");
}

Result<std::string> ActionInput::requiredString(std::string_view name) const
{
    const nlohmann::json *value = find(name);
    if (!value)
        return missing(name);
    if (!value->is_string())
        return invalid(name, "Must be a string.");
    return value->get<std::string>();
}

Result<std::optional<std::string>> ActionInput::optionalString(std::string_view name) const
{
    const nlohmann::json *value = find(name);
    if (!value)
        return std::optional<std::string>();
    if (!value->is_string())
        return invalid(name, "Must be a string.");
    return std::optional<std::string>(value->get<std::string>());
}

Result<std::optional<std::int64_t>> ActionInput::optionalInteger(std::string_view name, std::int64_t minimum,
                                                                  std::int64_t maximum) const
{
    const nlohmann::json *value = find(name);
    if (!value)
        return std::optional<std::int64_t>();
    std::optional<std::int64_t> number;
    if (value->is_number_integer())
        number = value->get<std::int64_t>();
    else if (value->is_string())
        number = parseAttributeInteger(value->get<std::string>());
    if (!number)
        return invalid(name, "Must be a whole number.");
    if (*number < minimum || *number > maximum)
        return invalid(name, "Must be between " + std::to_string(minimum) + " and " + std::to_string(maximum) + ".");
    return number;
}

Result<std::optional<bool>> ActionInput::optionalBoolean(std::string_view name) const
{
    const nlohmann::json *value = find(name);
    if (!value)
        return std::optional<bool>();
    if (value->is_boolean())
        return std::optional<bool>(value->get<bool>());
    if (value->is_string()) {
        if (auto parsed = parseAttributeBoolean(value->get<std::string>()))
            return std::optional<bool>(*parsed);
    }
    return invalid(name, "Must be true or false.");
}

Result<std::vector<std::string>> ActionInput::stringList(std::string_view name) const
{
    const nlohmann::json *value = find(name);
    std::vector<std::string> list;
    if (!value)
        return list;
    if (!value->is_array())
        return invalid(name, "Must be a list of strings.");
    for (const nlohmann::json &item : *value) {
        if (!item.is_string())
            return invalid(name, "Must be a list of strings.");
        list.push_back(item.get<std::string>());
    }
    return list;
}

Result<std::map<std::string, std::string>> ActionInput::stringMap(std::string_view name) const
{
    const nlohmann::json *value = find(name);
    std::map<std::string, std::string> map;
    if (!value)
        return map;
    if (!value->is_object())
        return invalid(name, "Must be a map of strings.");
    for (const auto &[key, item] : value->items()) {
        if (!item.is_string())
            return invalid(name, "The value of " + key + " must be a string.");
        map.emplace(key, item.get<std::string>());
    }
    return map;
}

Result<std::vector<ActionInput>> ActionInput::objectList(std::string_view name) const
{
    const nlohmann::json *value = find(name);
    std::vector<ActionInput> list;
    if (!value)
        return list;
    if (!value->is_array())
        return invalid(name, "Must be a list.");
    for (const nlohmann::json &item : *value) {
        if (!item.is_object())
            return invalid(name, "Every entry must be a structure.");
        list.emplace_back(item, m_invalid, m_missing);
    }
    return list;
}

} // namespace relaydesk
