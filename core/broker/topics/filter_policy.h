// SPDX-License-Identifier: MIT
#pragma once

#include "broker/queues/message_attributes.h"
#include "broker/result.h"

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace relaydesk {

// One condition of a filter policy key (docs/behaviour.md §4.6, the SNS message-attribute
// scope). A key's conditions are OR-ed; the keys are AND-ed.
namespace filter {

struct ExactString { std::string value; bool operator==(const ExactString &) const = default; };        // "rugby"
struct ExactNumber { double value = 0; bool operator==(const ExactNumber &) const = default; };         // 100
struct ExactBoolean { bool value = false; bool operator==(const ExactBoolean &) const = default; };     // true (String.Array elements)
struct ExactNull { bool operator==(const ExactNull &) const = default; };                              // null (String.Array elements)
struct Prefix { std::string value; bool operator==(const Prefix &) const = default; };                 // {"prefix": "bas"}
struct Suffix { std::string value; bool operator==(const Suffix &) const = default; };                 // {"suffix": "ball"}
struct EqualsIgnoreCase { std::string value; bool operator==(const EqualsIgnoreCase &) const = default; };
// {"anything-but": …}: a string, a number, a list of them, or {"prefix"|"suffix": "…"}.
struct AnythingBut {
    std::vector<std::string> strings;
    std::vector<double> numbers;
    std::optional<std::string> prefix;
    std::optional<std::string> suffix;
    bool operator==(const AnythingBut &) const = default;
};
// {"numeric": ["=", 5]} or one or two bounds {"numeric": [">", 0, "<=", 150]}.
struct Numeric {
    std::optional<double> equals;
    std::optional<double> lower;
    bool lowerInclusive = false;
    std::optional<double> upper;
    bool upperInclusive = false;
    bool operator==(const Numeric &) const = default;
};
struct Exists { bool value = true; bool operator==(const Exists &) const = default; };                 // {"exists": false}

} // namespace filter

using FilterCondition = std::variant<filter::ExactString, filter::ExactNumber, filter::ExactBoolean, filter::ExactNull,
                                     filter::Prefix, filter::Suffix, filter::EqualsIgnoreCase, filter::AnythingBut,
                                     filter::Numeric, filter::Exists>;

// A subscription's FilterPolicy (docs/behaviour.md §4.6) in the MessageAttributes scope.
// Plain value type; matches() is pure and thread-safe.
struct FilterPolicy {
    static constexpr std::size_t kMaxKeys = 5;
    static constexpr std::size_t kMaxCombinations = 150;
    static constexpr std::size_t kMaxLength = 256 * 1024;

    // Attribute name -> its conditions, in the document's key order.
    std::vector<std::pair<std::string, std::vector<FilterCondition>>> keys;

    // Whether a message with these attributes passes. Every key must match,
    // and a key matches when any of its conditions does:
    //  - exact strings, prefix, suffix, equals-ignore-case compare String
    //    values and the string elements of a String.Array;
    //  - exact numbers and numeric ranges compare Number values and the
    //    numeric elements of a String.Array; booleans and null only match
    //    String.Array elements;
    //  - anything-but needs the attribute and matches when none of its values
    //    is listed (for a String.Array: none of the elements);
    //  - exists true/false: the attribute is present / absent.
    // Binary attributes only count for exists. A message without any
    // attribute matches no policy with keys; the empty policy matches all.
    bool matches(const MessageAttributes &attributes) const;

    bool operator==(const FilterPolicy &) const = default;
};

// Reads and checks a FilterPolicy document (AWS's rules and limits: at most 5
// keys, at most 150 combinations — the product of the keys' condition counts
// —, 256 KiB, no nesting in this scope, known operators with values of the
// right type). Errors are SnsInvalidParameter with the service's reason,
// e.g. "Invalid parameter: FilterPolicy: Filter policy is too complex".
// `$or` is not supported (refused with a reason). Pure.
Result<FilterPolicy> parseFilterPolicy(std::string_view text);

} // namespace relaydesk
