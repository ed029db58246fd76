// SPDX-License-Identifier: MIT
#pragma once

#include "broker/clock_time.h"
#include "broker/queues/servicebus_session.h"
#include "broker/result.h"

#include <optional>

#include <string>
#include <string_view>

namespace relaydesk {

class Database;

// What a Service Bus receiver does with a locked message (docs/behaviour.md §8.6).
struct ServiceBusSettlement {
    enum class Kind {
        Complete,     // deleted
        Abandon,      // available again at once; dead-lettered when its deliveries reached MaxDeliveryCount
        DeadLetter,   // moved to the dead-letter sub-queue with the caller's reason and description
        RenewLock,    // locked for another LockDuration from now
        Release,      // never reached its receiver (the link went first): available again, not counted as a delivery
        Defer,        // kept, passed over by receives, until received by its sequence number
    };
    Kind kind = Kind::Complete;
    std::string deadLetterReason;        // DeadLetter: may be empty
    std::string deadLetterDescription;   // DeadLetter: may be empty
    // A message received in a session: settled only while the receiver
    // still holds the session's lock (servicebus_session.h).
    std::optional<ServiceBusSessionHold> session;
};

// Settles the message locked by `receiptHandle` in queue `queueName`. The
// lock must still hold on the broker clock: a handle that is not the
// message's current lock, or whose lock ended, is MessageNotInflight (the
// service's message-lock-lost) and changes nothing. Returns the end of the
// lock (RenewLock: the new one; otherwise `now`). Dead letters and
// MaxDeliveryCount use the queue's redrive target (its "/$DeadLetterQueue").
// A session's message first needs its session's lock (MessageNotInflight,
// the service's session-lock-lost); RenewLock of one is refused
// (InvalidParameterValue: the session's lock is renewed instead).
// Inside the caller's transaction; thread of `db`.
Result<ClockTime> settleServiceBusMessage(Database &db, std::string_view queueName, std::string_view receiptHandle,
                                          const ServiceBusSettlement &settlement, ClockTime now);

} // namespace relaydesk
