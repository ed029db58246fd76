// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace relaydesk {

// Entity attributes as the SQS/SNS APIs carry them: name -> text value
// ({"VisibilityTimeout": "45"}). Ordered, so written maps compare and print
// deterministically.
using AttributeMap = std::map<std::string, std::string>;

// The value syntax shared by the attribute parsers. Pure, thread-safe.

// A decimal integer: optional '-', 1–18 digits, nothing else (no blanks, no
// '+', no fraction). Leading zeros are allowed ("045" = 45).
std::optional<int64_t> parseAttributeInteger(std::string_view text);

// "true" or "false", any letter case.
std::optional<bool> parseAttributeBoolean(std::string_view text);
inline std::string formatAttributeBoolean(bool value) { return value ? "true" : "false"; }

// The Relaydesk lifetime attributes (DefaultMessageTimeToLive,
// AutoDeleteOnIdle, docs/behaviour.md §6) are whole seconds, empty for "none".
inline constexpr int64_t kMaxLifetimeSeconds = 100LL * 365 * 86'400;   // 100 years
inline constexpr int64_t kMinAutoDeleteOnIdleSeconds = 300;            // docs/behaviour.md §6: 5 minutes

// Reads such a value into `field` (empty resets it). Returns the reason when
// the value is not a whole number from `minimum` to kMaxLifetimeSeconds;
// `field` is then unchanged.
std::optional<std::string> readLifetimeSeconds(std::optional<int64_t> &field, std::string_view value, int64_t minimum);

// Why a tag (key, value) is refused, or nothing when it is allowed — the AWS
// tagging rules SQS and SNS share: a key of 1–128 characters, a value of up
// to 256, both only letters (any script), digits, spaces and `_ . : / = + - @`
// (no control characters), and no key starting with the reserved `aws:`.
// Lengths count characters of UTF-8 text.
std::optional<std::string> tagProblem(std::string_view key, std::string_view value);

} // namespace relaydesk
