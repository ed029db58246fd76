// SPDX-License-Identifier: MIT
#include "entity_names.h"

#include <algorithm>

namespace relaydesk {

namespace {

bool isNameCharacter(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

// Base (before an optional ".fifo") of 1+ name characters, whole name within maxLength.
bool nameValid(std::string_view name, std::size_t maxLength)
{
    if (name.empty() || name.size() > maxLength)
        return false;
    const std::string_view base = hasFifoSuffix(name) ? name.substr(0, name.size() - kFifoSuffix.size()) : name;
    return !base.empty() && std::all_of(base.begin(), base.end(), isNameCharacter);
}

} // namespace

bool hasFifoSuffix(std::string_view name)
{
    return name.size() >= kFifoSuffix.size() && name.substr(name.size() - kFifoSuffix.size()) == kFifoSuffix;
}

Status validateQueueName(std::string_view name)
{
    if (nameValid(name, kMaxQueueNameLength))
        return {};
    if (hasFifoSuffix(name))
        return BrokerError(BrokerErrorCode::InvalidParameterValue,
                           "The name of a FIFO queue can only include alphanumeric characters, hyphens, or underscores, "
                           "must end with .fifo suffix and be 1 to 80 in length.");
    return BrokerError(BrokerErrorCode::InvalidParameterValue,
                       "Can only include alphanumeric characters, hyphens, or underscores. 1 to 80 in length");
}

Status validateTopicName(std::string_view name)
{
    if (nameValid(name, kMaxTopicNameLength))
        return {};
    return BrokerError(BrokerErrorCode::SnsInvalidParameter, "Invalid parameter: Topic Name");
}

} // namespace relaydesk
