// SPDX-License-Identifier: MIT
#pragma once

#include "broker/clock_time.h"
#include "broker/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace relaydesk {

class Database;

// The sessions of a Service Bus queue with RequiresSession (docs/behaviour.md
// §8.6). A session is the queue's messages whose group_id is its SessionId,
// taken in sequence order by the one receiver that holds its lock. Unlike a
// FIFO message group (fifo_group_gate.h), which any receive may take while
// none of its messages is in flight, a session is held by one receiver for
// the queue's LockDuration (renewable) whether or not it has messages in
// flight; the messages it receives stay locked exactly as long as the session
// (their visible_at_ms is the session's lock end), so a lost session lock
// makes them available again with it. The state a receiver sets is kept with
// the session (table servicebus_sessions).
//
// A lock that does not hold (another token, or ended on the broker clock) is
// MessageNotInflight: the service's session-lock-lost.
// Free functions over a Database& inside the caller's transaction; thread of `db`.

// A session lock as its holder names it: the session and the holder's token.
struct ServiceBusSessionHold {
    std::string sessionId;
    std::string lockToken;

    bool operator==(const ServiceBusSessionHold &) const = default;
};

namespace servicebus_sessions {

inline constexpr std::size_t kMaxSessionIdLength = 128;

struct Acceptance {
    enum class Outcome {
        Locked,          // the session is the caller's until `lockedUntil`
        HeldByAnother,   // a named session another token holds (session-cannot-be-locked)
        NoneAvailable,   // no unlocked session has a message to receive now
    };
    Outcome outcome = Outcome::NoneAvailable;
    std::string sessionId;
    ClockTime lockedUntil{};
};

// Locks session `sessionId` of queue `queueName` for `lockToken`, or, without
// one, the unlocked session whose first available message is the oldest
// (sequence order). A named session need not have messages. Locking again
// with the same token renews. QueueDoesNotExist for an unknown queue.
Result<Acceptance> accept(Database &db, std::string_view queueName, const std::optional<std::string> &sessionId,
                          std::string_view lockToken, ClockTime now);
// The end of the lock `hold` names, or MessageNotInflight.
Result<ClockTime> requireLock(Database &db, std::int64_t queueId, const ServiceBusSessionHold &hold, ClockTime now);
// Another LockDuration from now for the session and its messages in flight.
Result<ClockTime> renew(Database &db, std::string_view queueName, const ServiceBusSessionHold &hold, ClockTime now);
// The holder lets the session go (its link closed): its messages in flight
// are available again at once. A lock that no longer holds changes nothing.
Status release(Database &db, std::string_view queueName, const ServiceBusSessionHold &hold, ClockTime now);
// The state set last (bytes), nothing when none; the lock must hold.
Result<std::optional<std::string>> state(Database &db, std::string_view queueName, const ServiceBusSessionHold &hold,
                                         ClockTime now);
// Sets the state (nothing clears it); the lock must hold.
Status setState(Database &db, std::string_view queueName, const ServiceBusSessionHold &hold,
                const std::optional<std::string> &state, ClockTime now);
// The sessions with messages or a state, touched after `updatedAfter`, by
// SessionId, from `skip`, at most `top`.
Result<std::vector<std::string>> list(Database &db, std::string_view queueName, ClockTime updatedAfter,
                                      std::int64_t skip, std::int64_t top);
// The row ids of the session's messages a receive may take now, in sequence
// order, at most `wanted`.
Result<std::vector<std::int64_t>> receivable(Database &db, std::int64_t queueId, std::string_view sessionId,
                                             std::size_t wanted, ClockTime now);

} // namespace servicebus_sessions

} // namespace relaydesk
