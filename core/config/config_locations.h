// SPDX-License-Identifier: MIT
// Where in a configuration file an error happened: the paths that prefix
// the broker's errors when a file is read or applied (docs/behaviour.md's
// "Configuration files"). Shared by broker_config_read.cpp and
// broker_config_apply.cpp.
#pragma once

#include "broker/broker_error.h"

#include <cstddef>
#include <string>

namespace relaydesk {

// The broker's error, its message prefixed with where it happened: "WHERE: MESSAGE".
inline BrokerError locatedConfigError(const std::string &where, const BrokerError &error)
{
    return BrokerError(error.code, where + ": " + error.message);
}

// One entry of a list: "queues[2] (orders)", or "queues[2]" when it has no name yet.
inline std::string configEntityPath(const char *list, std::size_t index, const std::string &name)
{
    return std::string(list) + "[" + std::to_string(index) + "]" + (name.empty() ? "" : " (" + name + ")");
}

} // namespace relaydesk
