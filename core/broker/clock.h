// SPDX-License-Identifier: MIT
#pragma once

#include "clock_time.h"
#include "result.h"

#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string_view>

namespace relaydesk {

class WallTimeSource;

// docs/behaviour.md §7: real (wall rate), scaled (wall rate × factor, the window's time
// warp) and virtual (stands still until advanced).
enum class ClockMode { Real, Scaled, Virtual };
std::string_view clockModeName(ClockMode mode);                  // "real", "scaled", "virtual"
std::optional<ClockMode> parseClockMode(std::string_view name);

// The one clock of a broker (docs/behaviour.md §7). Everything that needs the time asks it;
// it reads wall time only through its WallTimeSource.
//
// Clock time = anchor + (wall time elapsed since the anchor, from the steady
// reading) × rate, where rate is 1 (real), the factor (scaled) or 0 (virtual).
// Every mode change re-anchors at the current clock time, so time is
// continuous across switches, and no operation moves it backwards: now() never
// returns less than it returned before. Real mode starts at the calendar time
// (unless a start is given) and then follows the wall clock's rate, not later
// steps of the system time; catchUpWithWallTime() jumps forward to it.
//
// Ownership: does not own the WallTimeSource, which must outlive it.
// Thread-safety: every method may be called from any thread (one mutex).
class Clock final {
public:
    static constexpr double kMinScale = 0.001;
    static constexpr double kMaxScale = 1'000'000.0;

    // `scale` is used in scaled mode only (precondition: kMinScale..kMaxScale;
    // out-of-range values are clamped, a non-finite one becomes 1). `start` defaults to the calendar
    // time of `wall`; give it to resume after a restart (e.g. the latest
    // stored time) or to pin a virtual clock.
    explicit Clock(WallTimeSource &wall, ClockMode mode = ClockMode::Real, double scale = 1.0,
                   std::optional<ClockTime> start = std::nullopt);
    Clock(const Clock &) = delete;
    Clock &operator=(const Clock &) = delete;

    ClockTime now() const;
    ClockMode mode() const;
    // Clock milliseconds per wall millisecond: 1 (real), the factor (scaled), 0 (virtual).
    double rate() const;
    // The scaled-mode factor last set (kept while in other modes).
    double scale() const;

    // Switches mode at the current clock time. In scaled mode `scale` must be
    // finite and within kMinScale..kMaxScale (InvalidParameterValue
    // otherwise, nothing changes); other modes ignore it.
    Status setMode(ClockMode mode, double scale = 1.0);

    // Virtual mode only (ClockNotVirtual otherwise). advanceTo a time before
    // now() is an InvalidParameterValue; advancing to now() is a no-op.
    // advanceBy a negative duration is an InvalidParameterValue.
    Status advanceTo(ClockTime time);
    Status advanceBy(ClockDuration duration);

    // Jumps forward to the calendar time of the wall source if the clock is
    // behind it (real and scaled mode only); returns whether it moved.
    bool catchUpWithWallTime();

    // How long a timer should sleep in wall time until `time` is due:
    // zero when it already is, nothing in virtual mode (time only moves
    // by advance; the caller fires what is due after advancing). Rounded up
    // to whole milliseconds, so waking after the delay finds `time` due.
    std::optional<std::chrono::milliseconds> wallDelayUntil(ClockTime time) const;

    // The wall source's calendar time, to the millisecond (what a clock mark
    // records beside now()).
    ClockTime wallTime() const;

    // Increases whenever the mapping from wall time to clock time changes
    // (mode switch, advance, catch-up): a timer armed under an older
    // generation should re-arm. Starts at 0.
    uint64_t generation() const;

private:
    // Callers hold m_mutex.
    ClockTime nowLocked() const;
    void reanchorLocked(ClockTime at);

    WallTimeSource &m_wall;
    mutable std::mutex m_mutex;
    ClockMode m_mode = ClockMode::Real;
    double m_scale = 1.0;
    ClockTime m_anchor{};
    std::chrono::steady_clock::time_point m_anchorSteady{};
    uint64_t m_generation = 0;
};

} // namespace relaydesk
