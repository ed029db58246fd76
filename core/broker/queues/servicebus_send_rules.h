// SPDX-License-Identifier: MIT
#pragma once

#include "broker/clock_time.h"
#include "broker/result.h"

#include <optional>
#include <string>
#include <string_view>

namespace relaydesk {

class Database;
struct SendRequest;
struct ServiceBusQueueProperties;

// What a Service Bus queue checks before it stores a sent message
// (docs/behaviour.md §8.6):
//  - RequiresSession: the message needs a SessionId (the request's groupId,
//    1–128 characters; InvalidParameterValue otherwise, the service's
//    amqp:not-allowed), and its session is touched (listed from then on);
//  - RequiresDuplicateDetection: a MessageId (serviceBusMessageId) already
//    sent within DuplicateDetectionHistoryTimeWindow on the broker clock is a
//    duplicate: the send succeeds and nothing is stored (false). Otherwise the
//    id is remembered for the window from now.
// True when the message is to be stored. Inside the caller's transaction;
// thread of `db`.
Result<bool> admitServiceBusMessage(Database &db, const ServiceBusQueueProperties &properties,
                                    const SendRequest &request, ClockTime now);

// The queue a message sent to Service Bus queue `queueName` is stored in:
// the queue, or the end of its ForwardTo chain (at most kMaxForwardHops
// forwards; more is InvalidParameterValue); each queue on the way admits it
// first (admitServiceBusMessage), and nothing comes back when one of them
// drops it as a duplicate. A queue on the way that does not exist is
// QueueDoesNotExist. Inside the caller's transaction; thread of `db`.
inline constexpr int kMaxForwardHops = 4;
Result<std::optional<std::string>> routeServiceBusMessage(Database &db, std::string_view queueName,
                                                          const SendRequest &request, ClockTime now);

} // namespace relaydesk
