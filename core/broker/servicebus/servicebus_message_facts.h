// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <variant>

namespace relaydesk {

// One value a subscription rule looks at: nothing (absent or null), a
// boolean, a whole number, a decimal number or text. Plain value type.
using FilterValue = std::variant<std::monostate, bool, std::int64_t, double, std::string>;

// What the rules of a Service Bus subscription see of a message
// (docs/behaviour.md §8.6): its system properties by their Azure names
// ("MessageId", "CorrelationId", "To", "ReplyTo", "Label", "SessionId",
// "ReplyToSessionId", "ContentType", …) and its application properties by
// name. The protocol layer fills it from the message it was sent; the
// broker never reads the message body. Plain value type.
struct ServiceBusMessageFacts {
    std::map<std::string, FilterValue> system;
    std::map<std::string, FilterValue> application;
};

} // namespace relaydesk
