// SPDX-License-Identifier: MIT
#include "broker/servicebus/servicebus_limits.h"

#include <string>

namespace relaydesk {

namespace {

std::size_t sizeOf(const std::map<std::string, FilterValue> &properties)
{
    std::size_t size = 0;
    for (const auto &[name, value] : properties) {
        const auto *text = std::get_if<std::string>(&value);
        size += name.size() + (text ? text->size() : 8);
    }
    return size;
}

} // namespace

std::size_t serviceBusPropertiesSize(const ServiceBusMessageFacts &facts)
{
    return sizeOf(facts.system) + sizeOf(facts.application);
}

Status checkServiceBusPropertiesSize(const ServiceBusMessageFacts &facts, const std::string &what)
{
    const std::size_t size = serviceBusPropertiesSize(facts);
    if (size <= kServiceBusMaxPropertiesSize)
        return {};
    return BrokerError(BrokerErrorCode::InvalidParameterValue,
                       what + " take " + std::to_string(size) + " bytes; a message's properties may take at most "
                           + std::to_string(kServiceBusMaxPropertiesSize) + " bytes.");
}

} // namespace relaydesk
