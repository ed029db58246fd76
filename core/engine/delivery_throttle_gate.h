// SPDX-License-Identifier: MIT
#pragma once

#include "broker/clock_time.h"
#include "broker/pending_delivery.h"
#include "engine/clock_scheduler.h"
#include "engine/delivery_throttle.h"

#include <cstdint>
#include <deque>
#include <functional>
#include <map>

namespace relaydesk {

// The per-subscription throttle of the delivery worker (SPEC 4.3): a job of
// a subscription whose effective policy sets maxReceivesPerSecond waits in
// that subscription's queue, in order, until its DeliveryThrottle has a
// token; one ClockScheduler entry per waiting subscription wakes it (clock
// time, so the virtual clock drives it). A backlog waits, never drops. Jobs
// without a throttle pass at once.
//
// Ownership: borrows the scheduler (clear() before it goes). Thread: the
// broker thread only; `send` is called there.
class DeliveryThrottleGate final {
public:
    using Send = std::function<void(DeliveryJob)>;

    DeliveryThrottleGate(ClockScheduler &scheduler, Send send) : m_scheduler(scheduler), m_send(std::move(send)) {}
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
    std::map<std::int64_t, Waiting> m_subscriptions;
};

} // namespace relaydesk
