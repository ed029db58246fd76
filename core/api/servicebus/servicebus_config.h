// SPDX-License-Identifier: MIT
#pragma once

#include "broker/queues/servicebus_queue.h"
#include "broker/result.h"

#include <string>
#include <string_view>
#include <vector>

namespace relaydesk {

class BrokerEngine;
struct BrokerIdentity;

// The official Service Bus emulator's Config.json (docs/behaviour.md §8.6,
// `serve --servicebus-config FILE`): {"UserConfig": {"Namespaces": [{"Name":
// …, "Queues": [{"Name": …, "Properties": {…}}], "Topics": [...]}],
// "Logging": {…}}}. Every namespace's queues are read (one broker, one
// namespace: the namespace name is not kept). Topics are refused while
// Relaydesk has none (InvalidParameterValue, as any other problem, naming
// the file's place). Pure, apart from reading the file.
Result<std::vector<ServiceBusQueueProperties>> readServiceBusConfigText(std::string_view text);
Result<std::vector<ServiceBusQueueProperties>> readServiceBusConfigFile(const std::string &path);

// Creates the queues in one unit and waits (not on the broker thread): all
// or nothing; a queue that exists with the same properties is kept.
Status applyServiceBusConfigAndWait(BrokerEngine &engine, const BrokerIdentity &identity,
                                    const std::vector<ServiceBusQueueProperties> &queues);

} // namespace relaydesk
