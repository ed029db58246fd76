// SPDX-License-Identifier: MIT
#pragma once

#include "broker/clock_time.h"
#include "broker/deliveries/pending_delivery.h"
#include "engine/clock_scheduler.h"
#include "engine/delivery_throttle.h"

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <utility>

namespace relaydesk {

// The per-subscription throttle of the delivery worker (docs/behaviour.md §4.3): a job of
// a subscription whose effective policy sets maxReceivesPerSecond waits in
// that subscription's queue, in order, until its DeliveryThrottle has a
// token; one ClockScheduler entry per waiting subscription wakes it (clock
// time, so the virtual clock drives it). A backlog waits, never drops. `wait`
// is told once of each job that has to wait (the attempt log's
// "throttled-wait" row, docs/behaviour.md §4.4), before it waits.
//
// Without a throttle, a first attempt passes at once and a retry is paced:
// at most kRetryPace retries per second per subscription (a bucket like the
// throttle's, burst kRetryPace), so that no policy's immediate retries spin
// the broker or flood an endpoint (docs/behaviour.md §4.3). A paced retry is
// not logged as a wait.
//
// Ownership: borrows the scheduler (clear() before it goes). Thread: the
// broker thread only; `send` and `wait` are called there.
class DeliveryThrottleGate final {
public:
    static constexpr int kRetryPace = 50;   // retries per second per subscription without a throttle

    using Send = std::function<void(DeliveryJob)>;
    using Wait = std::function<void(const DeliveryJob &, ClockTime now)>;

    DeliveryThrottleGate(ClockScheduler &scheduler, Send send, Wait wait)
        : m_scheduler(scheduler), m_send(std::move(send)), m_wait(std::move(wait))
    {
    }
    ~DeliveryThrottleGate() { clear(); }
    DeliveryThrottleGate(const DeliveryThrottleGate &) = delete;
    DeliveryThrottleGate &operator=(const DeliveryThrottleGate &) = delete;

    void admit(DeliveryJob job, ClockTime now);
    // Drops every waiting job and timer (the rows stay stored).
    void clear();

private:
    // A subscription's lane: its throttle, or the pace of its retries.
    using Lane = std::pair<std::int64_t, bool>;   // subscription, paced retries
    struct Waiting {
        DeliveryThrottle bucket;
        std::deque<DeliveryJob> jobs;
        ClockTimerId timer = 0;
    };
    void drain(Lane lane, ClockTime now);

    ClockScheduler &m_scheduler;
    Send m_send;
    Wait m_wait;
    std::map<Lane, Waiting> m_lanes;
};

} // namespace relaydesk
