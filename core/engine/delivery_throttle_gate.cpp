// SPDX-License-Identifier: MIT
#include "engine/delivery_throttle_gate.h"

namespace relaydesk {

void DeliveryThrottleGate::admit(DeliveryJob job, ClockTime now)
{
    const std::optional<int> throttle = job.effective.policy.maxReceivesPerSecond;
    const bool paced = !throttle && job.attempt > 0;
    if (!throttle && !paced) {
        m_send(std::move(job));
        return;
    }
    const int rate = throttle ? *throttle : kRetryPace;
    const Lane lane{job.key.subscriptionId, paced};
    auto found = m_lanes.find(lane);
    if (found == m_lanes.end())
        found = m_lanes.emplace(lane, Waiting{DeliveryThrottle(rate, now), {}, 0}).first;
    Waiting &state = found->second;
    if (state.bucket.rate() != rate)
        state.bucket.setRate(rate, now);
    if (state.jobs.empty() && state.bucket.tryTake(now)) {
        m_send(std::move(job));
        return;
    }
    if (!paced)
        m_wait(job, now);
    state.jobs.push_back(std::move(job));
    drain(lane, now);
}

void DeliveryThrottleGate::clear()
{
    for (auto &[lane, state] : m_lanes) {
        if (state.timer)
            m_scheduler.cancel(state.timer);
    }
    m_lanes.clear();
}

void DeliveryThrottleGate::drain(Lane lane, ClockTime now)
{
    auto found = m_lanes.find(lane);
    if (found == m_lanes.end())
        return;
    Waiting &state = found->second;
    while (!state.jobs.empty() && state.bucket.tryTake(now)) {
        DeliveryJob job = std::move(state.jobs.front());
        state.jobs.pop_front();
        m_send(std::move(job));
    }
    if (state.jobs.empty() || state.timer)
        return;
    state.timer = m_scheduler.schedule(state.bucket.nextTokenAt(now), [this, lane](ClockTime at) {
        auto again = m_lanes.find(lane);
        if (again == m_lanes.end())
            return;
        again->second.timer = 0;
        drain(lane, at);
    });
}

} // namespace relaydesk
