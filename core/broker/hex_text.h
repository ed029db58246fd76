// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace relaydesk {

// Lower-case hex of `bytes`, two digits a byte (digests, seals, keys, binary
// attribute values in JSON). Pure.
std::string hexOfBytes(std::string_view bytes);

// Writes the `digits` lowest hex digits of `value` at `out`, lower case, most
// significant first (ids and tokens built in place). Pure.
void putHexDigits(char *out, std::uint64_t value, int digits);

} // namespace relaydesk
