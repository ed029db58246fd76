// SPDX-License-Identifier: MIT
#pragma once

#include "broker/result.h"
#include "broker/servicebus/servicebus_message_facts.h"

#include <cstddef>

namespace relaydesk {

// Azure Service Bus quotas (Standard tier) the rules of a topic keep to
// (docs/reliability.md#limits). A message's properties — its application
// properties and the system properties rules see — take at most 64 KiB
// (the service's "maximum header size"); a text value a SQL filter or rule
// action makes is held to the same bound, so a send's filters work on at
// most 64 KiB per value whatever the rules say.
inline constexpr std::size_t kServiceBusMaxPropertiesSize = 65'536;

// The bytes `facts` count toward kServiceBusMaxPropertiesSize: each
// property's name and value (text by its length, anything else 8). Pure.
std::size_t serviceBusPropertiesSize(const ServiceBusMessageFacts &facts);

// InvalidParameterValue when `facts` take more than kServiceBusMaxPropertiesSize,
// `what` naming whose properties they are. Pure.
Status checkServiceBusPropertiesSize(const ServiceBusMessageFacts &facts, const std::string &what);

} // namespace relaydesk
