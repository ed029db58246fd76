// SPDX-License-Identifier: MIT
#pragma once

#include <chrono>
#include <mutex>

namespace relaydesk {

// The seam between the broker and the machine's time (leveldb's Env, for the
// clock only). Clock reads wall time through it and nothing else in the
// product reads the system time: SystemWallTimeSource is the one place that
// calls std::chrono::system_clock / steady_clock. Tests use
// ManualWallTimeSource. Implementations must be thread-safe.
class WallTimeSource {
public:
    virtual ~WallTimeSource() = default;

    // Calendar time, for anchoring the clock to the epoch.
    virtual std::chrono::system_clock::time_point systemNow() const = 0;
    // Monotonic time, for measuring elapsed wall time.
    virtual std::chrono::steady_clock::time_point steadyNow() const = 0;
};

// The machine's clocks. Stateless and thread-safe.
class SystemWallTimeSource final : public WallTimeSource {
public:
    std::chrono::system_clock::time_point systemNow() const override;
    std::chrono::steady_clock::time_point steadyNow() const override;
};

// Test-only: wall time that moves only when told. Both readings advance
// together. Thread-safe.
class ManualWallTimeSource final : public WallTimeSource {
public:
    explicit ManualWallTimeSource(std::chrono::system_clock::time_point start = {});

    std::chrono::system_clock::time_point systemNow() const override;
    std::chrono::steady_clock::time_point steadyNow() const override;

    // Moves both readings forward by `elapsed` (negative values are ignored:
    // the steady reading never goes back).
    void advance(std::chrono::nanoseconds elapsed);
    // Sets the calendar reading only, as an NTP step or a user changing the
    // system time would; the steady reading does not move.
    void setSystemTime(std::chrono::system_clock::time_point time);

private:
    mutable std::mutex m_mutex;
    std::chrono::system_clock::time_point m_system{};
    std::chrono::steady_clock::time_point m_steady{};
};

} // namespace relaydesk
