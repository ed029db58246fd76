// SPDX-License-Identifier: MIT
#pragma once
// What every fuzz target shares: a property that must hold aborts when it
// does not (libFuzzer and the replay driver both report an abort).
#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace relaydesk::fuzz {

inline void require(bool condition, const char *target, const char *what)
{
    if (!condition) {
        std::fprintf(stderr, "%s: %s\n", target, what);
        std::abort();
    }
}

inline std::string_view text(const unsigned char *data, std::size_t size)
{
    return {reinterpret_cast<const char *>(data), size};
}

} // namespace relaydesk::fuzz
