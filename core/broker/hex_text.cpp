// SPDX-License-Identifier: MIT
#include "broker/hex_text.h"

namespace relaydesk {

namespace {
constexpr char kDigits[] = "0123456789abcdef";
} // namespace

std::string hexOfBytes(std::string_view bytes)
{
    std::string text;
    text.reserve(2 * bytes.size());
    for (const unsigned char byte : bytes) {
        text += kDigits[byte >> 4];
        text += kDigits[byte & 0x0f];
    }
    return text;
}

void putHexDigits(char *out, std::uint64_t value, int digits)
{
    for (int i = digits - 1; i >= 0; --i, value >>= 4)
        out[i] = kDigits[value & 0xf];
}

} // namespace relaydesk
