// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace relaydesk {

// How much of a client's value an error message repeats, and how long any
// error message may be (a 1 MB receipt handle made a 1 MB
// error).
inline constexpr std::size_t kEchoedValueLimit = 64;
inline constexpr std::size_t kMaxErrorMessageBytes = 1024;

// `text` whole when at most `limit` bytes, else its first bytes (never
// splitting a UTF-8 sequence) and "...". Pure.
inline std::string cutText(std::string_view text, std::size_t limit)
{
    if (text.size() <= limit)
        return std::string(text);
    std::size_t cut = limit;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80)
        --cut;   // text[cut] continues a sequence: cut before its lead byte
    return std::string(text.substr(0, cut)) + "...";
}

// A client's value as an error message repeats it.
inline std::string echoedValue(std::string_view value) { return cutText(value, kEchoedValueLimit); }

} // namespace relaydesk
