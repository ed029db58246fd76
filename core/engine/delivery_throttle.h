// SPDX-License-Identifier: MIT
#pragma once

#include "broker/clock_time.h"

#include <optional>

namespace relaydesk {

// The throttle of one subscription (docs/behaviour.md §4.3): a token bucket in clock time
// holding at most `rate` tokens (one second's burst), refilled at `rate`
// tokens per second. A delivery takes one token; without one it waits
// (never dropped) until nextTokenAt(). Plain value type; not thread-safe.
class DeliveryThrottle final {
public:
    // Precondition: rate >= 1. Starts full at `now`.
    DeliveryThrottle(int rate, ClockTime now);

    int rate() const { return m_rate; }
    // A new rate (the policy changed): keeps the tokens, capped at the new burst.
    void setRate(int rate, ClockTime now);
    // Takes a token if one is there at `now`.
    bool tryTake(ClockTime now);
    // When the next whole token is there (now when one already is).
    ClockTime nextTokenAt(ClockTime now);

private:
    void refill(ClockTime now);

    int m_rate = 1;
    double m_tokens = 0;
    ClockTime m_last{};
};

} // namespace relaydesk
