// SPDX-License-Identifier: MIT
#pragma once

#include "broker/queues/servicebus_queue.h"
#include "broker/servicebus/servicebus_topic.h"
#include "broker/result.h"

#include <functional>
#include <string>
#include <string_view>
#include <vector>

class QObject;

namespace relaydesk {

class BrokerEngine;
class BrokerService;
struct BrokerIdentity;

// The official Service Bus emulator's Config.json (docs/behaviour.md §8.6,
// `serve --servicebus-config FILE`): {"UserConfig": {"Namespaces": [{"Name":
// …, "Queues": [{"Name": …, "Properties": {…}}], "Topics": [...]}],
// "Logging": {…}}}. Every namespace's queues and topics (with their
// subscriptions and rules) are read (one broker, one namespace: the
// namespace name is not kept). A problem is InvalidParameterValue naming
// the file's place. Pure, apart from reading the file.
struct ServiceBusConfig {
    std::vector<ServiceBusQueueProperties> queues;
    std::vector<ServiceBusTopic> topics;
};
Result<ServiceBusConfig> readServiceBusConfigText(std::string_view text);
Result<ServiceBusConfig> readServiceBusConfigFile(const std::string &path);

// Whether `text` has the emulator's Config.json shape: a JSON object with a
// "UserConfig" object (the broker's own configuration has none). Pure.
bool looksLikeServiceBusConfig(std::string_view text);

// Creates the queues and topics in one unit through `service` (all or
// nothing; an entity that exists with the same properties is kept) and
// replies to `context`'s thread with how many queues and topics were new.
// Reports Created for each new broker queue. Any thread.
struct ServiceBusConfigApplied {
    int created = 0;   // queues and topics that did not exist
    int kept = 0;      // those that existed as given
};
void applyServiceBusConfig(BrokerService &service, ServiceBusConfig config, QObject *context,
                           std::function<void(Result<ServiceBusConfigApplied>)> reply);

// Creates the queues and topics in one unit and waits (not on the broker
// thread): all or nothing; an entity that exists with the same properties
// is kept.
Status applyServiceBusConfigAndWait(BrokerEngine &engine, const BrokerIdentity &identity,
                                    const ServiceBusConfig &config);

} // namespace relaydesk
