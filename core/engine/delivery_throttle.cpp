// SPDX-License-Identifier: MIT
#include "engine/delivery_throttle.h"

#include <algorithm>
#include <cmath>

namespace relaydesk {

DeliveryThrottle::DeliveryThrottle(int rate, ClockTime now) : m_rate(std::max(1, rate)), m_tokens(m_rate), m_last(now) {}

void DeliveryThrottle::setRate(int rate, ClockTime now)
{
    refill(now);
    m_rate = std::max(1, rate);
    m_tokens = std::min(m_tokens, static_cast<double>(m_rate));
}

void DeliveryThrottle::refill(ClockTime now)
{
    if (now <= m_last)
        return;
    const double elapsedSeconds = static_cast<double>((now - m_last).count()) / 1000.0;
    m_tokens = std::min(static_cast<double>(m_rate), m_tokens + elapsedSeconds * m_rate);
    m_last = now;
}

bool DeliveryThrottle::tryTake(ClockTime now)
{
    refill(now);
    if (m_tokens + 1e-9 < 1.0)
        return false;
    m_tokens = std::max(0.0, m_tokens - 1.0);
    return true;
}

ClockTime DeliveryThrottle::nextTokenAt(ClockTime now)
{
    refill(now);
    if (m_tokens + 1e-9 >= 1.0)
        return now;
    const double missingMs = (1.0 - m_tokens) * 1000.0 / m_rate;
    return now + ClockDuration(static_cast<ClockDuration::rep>(std::ceil(missingMs)));
}

} // namespace relaydesk
