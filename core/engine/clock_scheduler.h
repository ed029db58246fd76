// SPDX-License-Identifier: MIT
#pragma once

#include "broker/clock_time.h"

#include <QObject>

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <unordered_map>
#include <utility>

class QTimer;

namespace relaydesk {

class Clock;

using ClockTimerId = std::uint64_t; // 0 is never a valid id

// The timer service of the broker thread (docs/behaviour.md §7): callbacks run at a clock
// time, in due order (ties in scheduling order).
//
//  - Real and scaled mode: ONE QTimer is armed for the earliest due time,
//    with the wall delay Clock::wallDelayUntil() gives; it is re-armed when
//    the earliest entry changes and when rearm() is called after the clock's
//    mode or rate changed. No polling loop: a timer that fires early finds
//    nothing due and re-arms.
//  - Virtual mode: entries due at or before now() fire on the next
//    event-loop turn; later ones only when someone moves the clock and calls
//    fireDue() (the engine's advance does that step by step).
//
// Ownership: does not own the Clock (must outlive it). Thread: lives on the
// broker thread; every method is called there only. Callbacks run there.
class ClockScheduler final : public QObject { // no Q_OBJECT: no signals or slots of its own
public:
    using Callback = std::function<void(ClockTime now)>;

    explicit ClockScheduler(Clock &clock, QObject *parent = nullptr);
    ~ClockScheduler() override;
    ClockScheduler(const ClockScheduler &) = delete;
    ClockScheduler &operator=(const ClockScheduler &) = delete;

    // Runs `callback` once `due` has come. A callback may schedule and cancel.
    ClockTimerId schedule(ClockTime due, Callback callback);
    // Removes a pending entry; false when it already ran or was cancelled.
    bool cancel(ClockTimerId id);

    std::optional<ClockTime> earliestDue() const;
    std::size_t pendingCount() const { return m_entries.size(); }

    // Runs every entry due at or before clock.now(), in order, including the
    // ones callbacks add that are due by then; then re-arms. Returns how many ran.
    std::size_t fireDue();

    // Re-computes the timer for the earliest entry (call after the clock's
    // mode, rate or time changed).
    void rearm();
    // The wall delay the timer is armed with; nothing when it is not armed
    // (no entries, or virtual mode with nothing due). For tests of the arming.
    std::optional<std::chrono::milliseconds> armedDelay() const;

    // Stops the timer and drops every entry without running it.
    void clear();

private:
    using Key = std::pair<ClockTime, ClockTimerId>;

    Clock &m_clock;
    QTimer *m_timer = nullptr; // child
    std::map<Key, Callback> m_entries;
    std::unordered_map<ClockTimerId, ClockTime> m_dueOf;
    ClockTimerId m_nextId = 1;
    bool m_firing = false;
    std::optional<std::chrono::milliseconds> m_armedDelay;
};

} // namespace relaydesk
