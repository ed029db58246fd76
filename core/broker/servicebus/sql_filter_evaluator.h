// SPDX-License-Identifier: MIT
#pragma once

#include "broker/result.h"
#include "broker/servicebus/servicebus_message_facts.h"
#include "broker/servicebus/sql_filter_parser.h"

namespace relaydesk {

// Whether a message matches a parsed SQL filter (docs/behaviour.md §8.6). SQL's three-valued
// logic: a missing property, or a comparison of values of different kinds
// (text with a number), is unknown, and unknown does not match; NOT unknown
// stays unknown. Numbers compare by value whether whole or decimal; whole
// arithmetic that leaves 64 bits, like a division by zero, is unknown. Text
// compares ordinally (case-sensitive), as do LIKE patterns
// (sql_like_pattern.h). Text + text that would pass
// kServiceBusMaxPropertiesSize (servicebus_limits.h) is not made: the
// evaluation is InvalidParameterValue saying so. Pure.
Result<bool> sqlFilterMatches(const SqlFilterNode &expression, const ServiceBusMessageFacts &message);

// The value of an expression for a message (a rule action's SET): a
// comparison or logic gives true, false or unknown (nothing); errors as
// sqlFilterMatches. Pure.
Result<FilterValue> sqlFilterValue(const SqlFilterNode &expression, const ServiceBusMessageFacts &message);

} // namespace relaydesk
