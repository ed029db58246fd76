// SPDX-License-Identifier: MIT
#pragma once

#include "broker/result.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace relaydesk {

// The parameters of one SQS/SNS action as a JSON object — the JSON
// protocol's body as it is, or the query protocol's form turned into the
// same shape (see query_form.h, which leaves every scalar a string; so
// numbers and booleans are accepted both as JSON values and as their text).
// Typed reads name the parameter in their errors:
//   missing required   → `missing` code, "The request must contain the parameter NAME."
//   wrong type / range → `invalid` code, "Value X for parameter NAME is invalid. Reason: …"
// Plain value type; the codes let SQS (InvalidParameterValue, MissingParameter)
// and SNS (InvalidParameter) share it.
class ActionInput final {
public:
    ActionInput(nlohmann::json parameters, BrokerErrorCode invalid, BrokerErrorCode missing)
        : m_parameters(std::move(parameters)), m_invalid(invalid), m_missing(missing) {}

    const nlohmann::json &parameters() const { return m_parameters; }
    bool has(std::string_view name) const;

    Result<std::string> requiredString(std::string_view name) const;
    Result<std::optional<std::string>> optionalString(std::string_view name) const;
    Result<std::optional<std::int64_t>> optionalInteger(std::string_view name, std::int64_t minimum,
                                                         std::int64_t maximum) const;
    Result<std::optional<bool>> optionalBoolean(std::string_view name) const;
    // A list of strings (absent: empty).
    Result<std::vector<std::string>> stringList(std::string_view name) const;
    // An object of string values (absent: empty).
    Result<std::map<std::string, std::string>> stringMap(std::string_view name) const;
    // A list of objects (absent: empty), each as an ActionInput of its own.
    Result<std::vector<ActionInput>> objectList(std::string_view name) const;

    BrokerError invalid(std::string_view name, std::string_view reason) const;
    BrokerError missing(std::string_view name) const;

private:
    const nlohmann::json *find(std::string_view name) const;

    nlohmann::json m_parameters;
    BrokerErrorCode m_invalid;
    BrokerErrorCode m_missing;
};

// JSON text that never throws: invalid UTF-8 in strings is replaced (U+FFFD).
std::string jsonText(const nlohmann::json &value);

} // namespace relaydesk
