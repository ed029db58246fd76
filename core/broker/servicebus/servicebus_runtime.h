// SPDX-License-Identifier: MIT
#pragma once

#include "broker/clock_time.h"
#include "broker/queues/queue_depths.h"
#include "broker/result.h"

#include <cstdint>
#include <string_view>

namespace relaydesk {

class Database;

// What the Service Bus management API reports of a queue or subscription
// at run time (docs/behaviour.md §8.6 "Management API"): its counts by
// state (queue_depths.h, never a walk of the messages), the messages of its
// dead-letter sub-queue, the bytes its messages and their sub-queue's take
// (bodies and attributes as stored), and its times. Plain value type.
struct ServiceBusRuntime {
    QueueCounts counts;               // of the entity's own queue
    std::int64_t deadLetters = 0;     // every message of "NAME/$DeadLetterQueue"
    std::int64_t sizeInBytes = 0;
    ClockTime created{};
    ClockTime updated{};              // the last change of its properties
    ClockTime accessed{};             // the last send or receive (the idle clock)
};

// Inside the caller's transaction; thread of `db`.
namespace servicebus_runtime {

// The runtime of the broker queue `queueName` (a queue, or a subscription's
// "TOPIC/Subscriptions/NAME") at `now`; QueueDoesNotExist when there is none.
// The size is one SUM over the entity's rows (O(its messages), on request only).
Result<ServiceBusRuntime> read(Database &db, std::string_view queueName, ClockTime now);

} // namespace servicebus_runtime

} // namespace relaydesk
