// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace relaydesk {

class RetrySchedule;

// Retry numbers -> x positions of the policy chart. Retries deep inside long
// constant phases (of every schedule drawn) are hidden; each hidden run
// becomes a break of fixed width. Phase boundaries and each schedule's last
// retry always stay shown, so a hidden run lies inside one constant phase of
// every schedule that reaches it. Pure: no Qt, no drawing. Value type; keeps
// no reference to the schedules it was built from.
class RetryAxis final {
public:
    struct Break {
        int64_t first = 0; // first hidden retry
        int64_t last = 0;  // last hidden retry
        double x0 = 0;     // x of first - 1
        double x1 = 0;     // x of last + 1
        int64_t count() const { return last - first + 1; }
    };

    RetryAxis() = default;
    // The axis shared by `schedules` (none null; may be empty).
    explicit RetryAxis(const std::vector<const RetrySchedule *> &schedules);

    // The last retry of the longest schedule (0 if none has a retry).
    int64_t lastRetry() const { return m_last; }
    // The x range to show: every retry, with a little room either side.
    double low() const;
    double high() const;
    // The hidden runs, in order.
    const std::vector<Break> &breaks() const { return m_breaks; }

    // Precondition: `retry` is shown.
    double x(int64_t retry) const;

    // The runs of consecutive shown retries within [from, to].
    std::vector<std::pair<int64_t, int64_t>> shownRuns(int64_t from, int64_t to) const;

private:
    std::vector<Break> m_breaks;
    int64_t m_last = 0;
    double m_breakWidth = 4;
};

} // namespace relaydesk
