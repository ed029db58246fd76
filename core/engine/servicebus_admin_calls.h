// SPDX-License-Identifier: MIT
#pragma once

#include "broker/queues/servicebus_queue.h"
#include "engine/broker_service.h"

#include <string>

class QObject;

namespace relaydesk {

// The window's Service Bus changes besides creation (servicebus_admin.h
// for the rules), each one unit through BrokerService::runUnit, replied as
// the service's own operations are (to `context`'s thread after the
// commit). Deletes report Deleted for every broker queue that went (and for
// a topic, Deleted Topic by its name, so the tree reads again even when it
// had no subscription); an update reports Changed (queue). Any thread.
namespace servicebus_admin_calls {

using DoneReply = std::function<void(Status)>;

void deleteQueue(BrokerService &service, std::string name, QObject *context, DoneReply reply);
void deleteTopic(BrokerService &service, std::string name, QObject *context, DoneReply reply);
void deleteSubscription(BrokerService &service, std::string topic, std::string subscription, QObject *context,
                        DoneReply reply);
void updateQueue(BrokerService &service, ServiceBusQueueProperties properties, QObject *context, DoneReply reply);

} // namespace servicebus_admin_calls

} // namespace relaydesk
