// SPDX-License-Identifier: MIT
#include "engine/clock_scheduler.h"

#include "broker/clock.h"

#include <QTimer>

#include <algorithm>

namespace relaydesk {

namespace {
// QTimer takes an int of milliseconds; a longer wait wakes early and re-arms.
constexpr std::chrono::milliseconds kLongestArm{std::chrono::hours(24)};
} // namespace

ClockScheduler::ClockScheduler(Clock &clock, QObject *parent) : QObject(parent), m_clock(clock), m_timer(new QTimer(this))
{
    m_timer->setSingleShot(true);
    m_timer->setTimerType(Qt::PreciseTimer);
    connect(m_timer, &QTimer::timeout, this, [this] { fireDue(); });
}

ClockScheduler::~ClockScheduler() = default;

ClockTimerId ClockScheduler::schedule(ClockTime due, Callback callback)
{
    const ClockTimerId id = m_nextId++;
    const bool earliest = m_entries.empty() || Key{due, id} < m_entries.begin()->first;
    m_entries.emplace(Key{due, id}, std::move(callback));
    m_dueOf.emplace(id, due);
    if (earliest && !m_firing)
        rearm();
    return id;
}

bool ClockScheduler::cancel(ClockTimerId id)
{
    auto found = m_dueOf.find(id);
    if (found == m_dueOf.end())
        return false;
    const Key key{found->second, id};
    const bool wasEarliest = m_entries.begin()->first == key;
    m_entries.erase(key);
    m_dueOf.erase(found);
    if (wasEarliest && !m_firing)
        rearm();
    return true;
}

std::optional<ClockTime> ClockScheduler::earliestDue() const
{
    if (m_entries.empty())
        return std::nullopt;
    return m_entries.begin()->first.first;
}

std::size_t ClockScheduler::fireDue()
{
    const bool outer = !m_firing;
    m_firing = true;
    std::size_t ran = 0;
    while (!m_entries.empty()) {
        const ClockTime now = m_clock.now();
        auto first = m_entries.begin();
        if (first->first.first > now)
            break;
        Callback callback = std::move(first->second);
        m_dueOf.erase(first->first.second);
        m_entries.erase(first);
        ++ran;
        try {
            if (callback)
                callback(now);
        } catch (...) {
            // A callback's failure must not stop the others (nor escape the thread).
        }
    }
    if (outer) {
        m_firing = false;
        rearm();
    }
    return ran;
}

void ClockScheduler::rearm()
{
    m_armedDelay.reset();
    if (m_entries.empty()) {
        m_timer->stop();
        return;
    }
    const ClockTime due = m_entries.begin()->first.first;
    std::optional<std::chrono::milliseconds> delay;
    if (due <= m_clock.now())
        delay = std::chrono::milliseconds::zero(); // due already, also in virtual mode
    else
        delay = m_clock.wallDelayUntil(due);    // nothing in virtual mode: waits for an advance
    if (!delay) {
        m_timer->stop();
        return;
    }
    m_armedDelay = std::min(*delay, kLongestArm);
    m_timer->start(static_cast<int>(m_armedDelay->count()));
}

std::optional<std::chrono::milliseconds> ClockScheduler::armedDelay() const { return m_armedDelay; }

void ClockScheduler::clear()
{
    m_timer->stop();
    m_armedDelay.reset();
    m_entries.clear();
    m_dueOf.clear();
}

} // namespace relaydesk
