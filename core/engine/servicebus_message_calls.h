// SPDX-License-Identifier: MIT
#pragma once

#include "broker/queues/message_sender.h"
#include "broker/queues/servicebus_session.h"
#include "engine/broker_service.h"

#include <cstdint>
#include <functional>
#include <optional>
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

// A session the window holds, as the SDKs' acceptNextSession/acceptSession
// give one (docs/window.md "Service Bus"): `hold` goes with each receive
// (ReceiveRequest::session) and settlement (ServiceBusSettlement::session)
// until releaseSession.
struct SessionLock {
    servicebus_sessions::Acceptance acceptance; // Locked, HeldByAnother or NoneAvailable
    ServiceBusSessionHold hold;                 // the session and a new lock token; when Locked
};

// Locks session `sessionId` of `queue` (a queue's or subscription's broker
// queue) for a new token, or without one the next available session
// (servicebus_sessions::accept). InvalidParameterValue when the entity does
// not require sessions (a dead-letter sub-queue never does), and for a
// SessionId longer than 128 characters; QueueDoesNotExist for an unknown one.
void acceptSession(BrokerService &service, std::string queue, std::optional<std::string> sessionId,
                   QObject *context, std::function<void(Result<SessionLock>)> reply);

// Lets the session go: its messages in flight are available again at once
// (reports CountsChanged, wakes the queue's receives). A lock that no longer
// holds changes nothing. `context` may be null (a page closing: nobody waits).
void releaseSession(BrokerService &service, std::string queue, ServiceBusSessionHold hold, QObject *context,
                    std::function<void(Status)> reply);

} // namespace servicebus_message_calls

} // namespace relaydesk
