// SPDX-License-Identifier: MIT
#include "http/http1_field_syntax.h"

namespace relaydesk::http1 {

std::string_view trimmed(std::string_view text)
{
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
        text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t'))
        text.remove_suffix(1);
    return text;
}

bool parseDecimal(std::string_view text, std::uint64_t &value)
{
    if (text.empty() || text.size() > 18)
        return false;
    value = 0;
    for (const char c : text) {
        if (c < '0' || c > '9')
            return false;
        value = value * 10 + std::uint64_t(c - '0');
    }
    return true;
}

bool parseHex(std::string_view text, std::uint64_t &value)
{
    if (text.empty() || text.size() > 15)
        return false;
    value = 0;
    for (const char c : text) {
        const char l = lower(c);
        const int digit = (l >= '0' && l <= '9') ? l - '0' : (l >= 'a' && l <= 'f') ? l - 'a' + 10 : -1;
        if (digit < 0)
            return false;
        value = value * 16 + std::uint64_t(digit);
    }
    return true;
}

std::string excerpt(std::string_view text)
{
    std::string out;
    for (const char c : text.substr(0, 60))
        out += (c >= 0x20 && c < 0x7f) ? c : '?';
    if (text.size() > 60)
        out += "...";
    return "'" + out + "'";
}

} // namespace relaydesk::http1
