// SPDX-License-Identifier: MIT
#pragma once

#include "broker/clock_time.h"
#include "engine/clock_scheduler.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

namespace relaydesk {

using WaiterId = std::uint64_t; // 0 is never a valid id

// How a wait ended.
enum class WaitOutcome {
    Satisfied,       // a retry returned true
    DeadlineReached, // the deadline (clock time) came first
    Cancelled,       // cancel() (client gone) or the engine stopped
};

// Waiting requests for long polling, generic over what they wait for: a
// waiter sits under a string key (e.g. "queue:orders"); notify(key) — after a
// send to that queue committed — retries every waiter of the key in arrival
// order, and a retry that returns true ends its wait. A waiter may also ask
// to be retried at a wake time (a delayed message becoming visible), and it
// ends at its deadline. Times are clock times, so virtual time works.
//
// The caller makes its first attempt before waiting; wait() does not retry
// at once. A retry is synchronous (wait()) or asynchronous (waitAsync(): it
// starts store work, e.g. a receive unit, and calls `finished(bool)` from the
// unit's reply on the broker thread). While an attempt is in flight, notifies
// are remembered and cause one more attempt after it; a deadline that comes
// meanwhile ends the wait only after the attempt finished (its success is
// still reported as Satisfied: a receive that took messages must answer them).
//
// Ownership: does not own the scheduler (must outlive it). Thread: the broker
// thread only; retry and done run there. Exactly one `done` per waiter.
class WaiterRegistry final {
public:
    using Retry = std::function<bool()>;
    using Finished = std::function<void(bool satisfied)>; // call once, on the broker thread
    using AsyncRetry = std::function<void(Finished finished)>;
    using Done = std::function<void(WaitOutcome)>;

    explicit WaiterRegistry(ClockScheduler &scheduler);
    ~WaiterRegistry();
    WaiterRegistry(const WaiterRegistry &) = delete;
    WaiterRegistry &operator=(const WaiterRegistry &) = delete;

    WaiterId wait(std::string key, ClockTime deadline, Retry retry, Done done,
                  std::optional<ClockTime> wakeAt = std::nullopt);
    WaiterId waitAsync(std::string key, ClockTime deadline, AsyncRetry retry, Done done,
                       std::optional<ClockTime> wakeAt = std::nullopt);
    // Retries every waiter of `key` (one with an attempt in flight retries
    // once more after it); returns how many attempts were started.
    std::size_t notify(const std::string &key);
    // Ends a waiter with Cancelled; false when it already ended.
    bool cancel(WaiterId id);
    // Ends every waiter with Cancelled (engine shutdown).
    void cancelAll();
    // Ends every waiter as if its deadline had come (a long poll answers
    // with what it has: nothing): `relaydesk serve` stopping answers the
    // receives it owes before it exits.
    void endAll();

    std::size_t waitingCount() const { return m_waiters.size(); }
    // The waiters under `key` (one with an attempt in flight included).
    std::size_t waitingCount(const std::string &key) const;

private:
    struct Waiter {
        std::string key;
        AsyncRetry retry;
        Done done;
        ClockTimerId deadlineTimer = 0;
        ClockTimerId wakeTimer = 0;
        bool attemptInFlight = false;
        bool retryAgain = false;     // notified while an attempt was in flight
        bool deadlinePassed = false; // the deadline came while an attempt was in flight
    };

    bool retryWaiter(WaiterId id); // true when an attempt started
    void attemptFinished(WaiterId id, bool satisfied);
    void finish(WaiterId id, WaitOutcome outcome);

    ClockScheduler &m_scheduler;
    std::map<WaiterId, Waiter> m_waiters; // ordered by id = arrival order
    WaiterId m_nextId = 1;
    std::shared_ptr<bool> m_alive = std::make_shared<bool>(true); // late `finished` calls check it
};

} // namespace relaydesk
