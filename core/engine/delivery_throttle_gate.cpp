// SPDX-License-Identifier: MIT
#include "engine/delivery_throttle_gate.h"

namespace relaydesk {

void DeliveryThrottleGate::admit(DeliveryJob job, ClockTime now)
{
    const std::optional<int> rate = job.effective.policy.maxReceivesPerSecond;
    if (!rate) {
        m_send(std::move(job));
        return;
    }
    const std::int64_t subscription = job.key.subscriptionId;
    auto found = m_subscriptions.find(subscription);
    if (found == m_subscriptions.end())
        found = m_subscriptions.emplace(subscription, Waiting{DeliveryThrottle(*rate, now), {}, 0}).first;
    Waiting &state = found->second;
    if (state.bucket.rate() != *rate)
        state.bucket.setRate(*rate, now);
    if (state.jobs.empty() && state.bucket.tryTake(now)) {
        m_send(std::move(job));
        return;
    }
    m_wait(job, now);
    state.jobs.push_back(std::move(job));
    drain(subscription, now);
}

void DeliveryThrottleGate::clear()
{
    for (auto &[subscription, state] : m_subscriptions) {
        if (state.timer)
            m_scheduler.cancel(state.timer);
    }
    m_subscriptions.clear();
}

void DeliveryThrottleGate::drain(std::int64_t subscription, ClockTime now)
{
    auto found = m_subscriptions.find(subscription);
    if (found == m_subscriptions.end())
        return;
    Waiting &state = found->second;
    while (!state.jobs.empty() && state.bucket.tryTake(now)) {
        DeliveryJob job = std::move(state.jobs.front());
        state.jobs.pop_front();
        m_send(std::move(job));
    }
    if (state.jobs.empty() || state.timer)
        return;
    state.timer = m_scheduler.schedule(state.bucket.nextTokenAt(now), [this, subscription](ClockTime at) {
        auto again = m_subscriptions.find(subscription);
        if (again == m_subscriptions.end())
            return;
        again->second.timer = 0;
        drain(subscription, at);
    });
}

} // namespace relaydesk
