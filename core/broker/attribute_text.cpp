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

namespace {

std::size_t characterCount(std::string_view text)
{
    std::size_t count = 0;
    for (const char c : text)
        count += (static_cast<unsigned char>(c) & 0xC0) != 0x80 ? 1 : 0;
    return count;
}

bool tagCharactersAllowed(std::string_view text)
{
    static constexpr std::string_view kPunctuation = " _.:/=+-@";
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        const bool allowed = byte >= 0x80 || (byte >= '0' && byte <= '9') || (byte >= 'a' && byte <= 'z')
                             || (byte >= 'A' && byte <= 'Z') || kPunctuation.find(c) != std::string_view::npos;
        if (!allowed)
            return false;
    }
    return true;
}

} // namespace

std::optional<std::string> tagProblem(std::string_view key, std::string_view value)
{
    const std::size_t keyLength = characterCount(key);
    if (keyLength < 1 || keyLength > 128)
        return "Tag keys must be between 1 and 128 characters in length.";
    if (characterCount(value) > 256)
        return "Tag values may only be up to 256 characters in length.";
    if (key.size() >= 4) {
        std::string prefix(key.substr(0, 4));
        for (char &c : prefix)
            c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
        if (prefix == "aws:")
            return "Tag keys must not start with the reserved prefix aws:.";
    }
    if (!tagCharactersAllowed(key) || !tagCharactersAllowed(value))
        return "Tag keys and values may contain only letters, digits, spaces and _ . : / = + - @.";
    return std::nullopt;
}

} // namespace relaydesk
