// SPDX-License-Identifier: MIT
#pragma once

#include "broker/queues/message_sender.h"
#include "engine/broker_service.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

class QObject;

namespace relaydesk {

// The window's per-message Service Bus actions that the service has no one
// operation for (docs/window.md "Service Bus"), each one unit through
// BrokerService::runUnit, replied to `context`'s thread after the commit.
// Any thread.
namespace servicebus_message_calls {

// A message to resubmit: the broker's id of the stored message and the send of
// its copy (the stored AMQP sections as body, its SessionId as groupId, its
// MessageId as serviceBusMessageId).
struct Resubmission {
    std::string storedMessageId;
    SendRequest copy;
};

struct Resubmitted {
    std::int64_t sent = 0;         // copies stored (or accepted as duplicates by duplicate detection)
    std::int64_t gone = 0;         // dead letters no longer there: nothing was sent for them
};

// Resubmit: sends a copy of each message to `entityQueue` by the rules of a
// Service Bus send (routeServiceBusMessage: sessions, duplicate detection,
// ForwardTo) and, when `fromQueue` is a dead-letter sub-queue, removes the
// dead letter in the same unit (a receive and complete of it). A dead letter
// that is gone already (received and completed elsewhere) is not resent.
// All or nothing: a refused copy rolls everything back. Reports
// CountsChanged for `fromQueue` and the queues that took copies, and wakes
// their receives. QueueDoesNotExist for an unknown entity queue.
void resubmit(BrokerService &service, std::string fromQueue, std::string entityQueue,
              std::vector<Resubmission> messages, QObject *context,
              std::function<void(Result<Resubmitted>)> reply);

} // namespace servicebus_message_calls

} // namespace relaydesk
