// SPDX-License-Identifier: MIT
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace relaydesk {

// The four curves of the backoff phase (docs/behaviour.md §3.2), in the order in which
// their delays are guaranteed to be ordered: linear >= arithmetic >=
// geometric >= exponential at every retry index.
enum class BackoffFunction { Linear, Arithmetic, Geometric, Exponential };

// "linear", "arithmetic", "geometric", "exponential".
std::string_view backoffFunctionName(BackoffFunction function);

// Parses a backoff name exactly as written (case-sensitive, as the service
// does); std::nullopt for anything else.
std::optional<BackoffFunction> parseBackoffFunction(std::string_view name);

// "linear, arithmetic, geometric, exponential" — for error messages.
std::string backoffFunctionNameList();

} // namespace relaydesk
