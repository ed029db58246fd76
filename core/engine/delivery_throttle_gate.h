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

namespace relaydesk {

// The per-subscription throttle of the delivery worker (docs/behaviour.md §4.3): a job of
// a subscription whose effective policy sets maxReceivesPerSecond waits in
// that subscription's queue, in order, until its DeliveryThrottle has a
// token; one ClockScheduler entry per waiting subscription wakes it (clock
// time, so the virtual clock drives it). A backlog waits, never drops. Jobs
// without a throttle pass at once. `wait` is told once of each job that has
// to wait (the attempt log's "throttled-wait" row, docs/behaviour.md §4.4), before it waits.
//
// Ownership: borrows the scheduler (clear() before it goes). Thread: the
// broker thread only; `send` and `wait` are called there.
class DeliveryThrottleGate final {
public:
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
    struct Waiting {
        DeliveryThrottle bucket;
        std::deque<DeliveryJob> jobs;
        ClockTimerId timer = 0;
    };
    void drain(std::int64_t subscription, ClockTime now);

    ClockScheduler &m_scheduler;
    Send m_send;
    Wait m_wait;
    std::map<std::int64_t, Waiting> m_subscriptions;
};

} // namespace relaydesk
