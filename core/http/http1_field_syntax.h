// SPDX-License-Identifier: MIT
#pragma once
// The small pieces of HTTP/1.1 field syntax (RFC 9110/9112) the response
// parser and the request writer share. Pure functions, any thread.

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>

namespace relaydesk::http1 {

inline char lower(char c) { return (c >= 'A' && c <= 'Z') ? char(c - 'A' + 'a') : c; }

// ASCII case-insensitive equality (field names, tokens).
inline bool equalsNoCase(std::string_view a, std::string_view b)
{
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) { return lower(x) == lower(y); });
}

// Without leading and trailing spaces and tabs.
std::string_view trimmed(std::string_view text);

// Calls `each` with every comma-separated, trimmed, non-empty element of a list field.
template<typename Each>
void forEachElement(std::string_view list, Each each)
{
    while (!list.empty()) {
        const std::size_t comma = std::min(list.find(','), list.size());
        if (const std::string_view element = trimmed(list.substr(0, comma)); !element.empty())
            each(element);
        list.remove_prefix(std::min(comma + 1, list.size()));
    }
}

// Digits only (Content-Length, status code); false when empty, not digits or too long.
bool parseDecimal(std::string_view text, std::uint64_t &value);
// Hex digits only (chunk size); false when empty, not hex or too long.
bool parseHex(std::string_view text, std::uint64_t &value);

// A short, printable, quoted excerpt of received text for error messages.
std::string excerpt(std::string_view text);

} // namespace relaydesk::http1
