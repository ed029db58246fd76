// SPDX-License-Identifier: MIT
#pragma once

#include <string_view>

namespace relaydesk {

// SQL LIKE over bytes (docs/behaviour.md §8.6): % any run, _ one byte,
// `escape` (0 for none) makes the next pattern byte literal. Runs the
// pattern as a set of states, one bit each, over the text once: time
// text × (pattern / 64 + 1), whatever the pattern holds — no backtracking,
// so no text and pattern of the filter's bounds (docs/reliability.md#limits)
// can hold the broker thread. Pure.
bool sqlLikeMatches(std::string_view text, std::string_view pattern, char escape);

} // namespace relaydesk
