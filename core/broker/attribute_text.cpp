// SPDX-License-Identifier: MIT
#include "attribute_text.h"

#include <cctype>

namespace relaydesk {

std::optional<int64_t> parseAttributeInteger(std::string_view text)
{
    const bool negative = !text.empty() && text.front() == '-';
    const std::string_view digits = negative ? text.substr(1) : text;
    if (digits.empty() || digits.size() > 18)
        return std::nullopt;
    int64_t value = 0;
    for (char c : digits) {
        if (c < '0' || c > '9')
            return std::nullopt;
        value = value * 10 + (c - '0');
    }
    return negative ? -value : value;
}

std::optional<bool> parseAttributeBoolean(std::string_view text)
{
    std::string lower;
    for (char c : text)
        lower += char(std::tolower(static_cast<unsigned char>(c)));
    if (lower == "true")
        return true;
    if (lower == "false")
        return false;
    return std::nullopt;
}

std::optional<std::string> readLifetimeSeconds(std::optional<int64_t> &field, std::string_view value, int64_t minimum)
{
    if (value.empty()) {
        field.reset();
        return std::nullopt;
    }
    const auto seconds = parseAttributeInteger(value);
    if (!seconds || *seconds < minimum || *seconds > kMaxLifetimeSeconds)
        return "must be a whole number of seconds from " + std::to_string(minimum) + " to " +
               std::to_string(kMaxLifetimeSeconds) + ", or empty for none";
    field = *seconds;
    return std::nullopt;
}

} // namespace relaydesk
