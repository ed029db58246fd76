// SPDX-License-Identifier: MIT
#include "clock.h"

#include "wall_time_source.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace relaydesk {

std::string_view clockModeName(ClockMode mode)
{
    switch (mode) {
    case ClockMode::Real: return "real";
    case ClockMode::Scaled: return "scaled";
    case ClockMode::Virtual: return "virtual";
    }
    return "";
}

std::optional<ClockMode> parseClockMode(std::string_view name)
{
    for (ClockMode mode : {ClockMode::Real, ClockMode::Scaled, ClockMode::Virtual}) {
        if (clockModeName(mode) == name)
            return mode;
    }
    return std::nullopt;
}

namespace {

bool scaleValid(double scale)
{
    return std::isfinite(scale) && scale >= Clock::kMinScale && scale <= Clock::kMaxScale;
}

double rateOf(ClockMode mode, double scale)
{
    switch (mode) {
    case ClockMode::Real: return 1.0;
    case ClockMode::Scaled: return scale;
    case ClockMode::Virtual: return 0.0;
    }
    return 1.0;
}

} // namespace

Clock::Clock(WallTimeSource &wall, ClockMode mode, double scale, std::optional<ClockTime> start)
    : m_wall(wall), m_mode(mode), m_scale(std::isfinite(scale) ? std::clamp(scale, kMinScale, kMaxScale) : 1.0)
{
    m_anchor = start ? *start : std::chrono::floor<ClockDuration>(m_wall.systemNow());
    m_anchorSteady = m_wall.steadyNow();
}

ClockTime Clock::nowLocked() const
{
    const double rate = rateOf(m_mode, m_scale);
    if (rate == 0.0)
        return m_anchor;
    const auto elapsed = m_wall.steadyNow() - m_anchorSteady;
    if (elapsed <= std::chrono::steady_clock::duration::zero())
        return m_anchor;
    if (rate == 1.0)
        return m_anchor + std::chrono::floor<ClockDuration>(elapsed);
    const double elapsedMs = std::chrono::duration<double, std::milli>(elapsed).count();
    return m_anchor + ClockDuration(static_cast<int64_t>(std::floor(elapsedMs * rate)));
}

void Clock::reanchorLocked(ClockTime at)
{
    m_anchor = at;
    m_anchorSteady = m_wall.steadyNow();
    ++m_generation;
}

ClockTime Clock::now() const
{
    std::lock_guard lock(m_mutex);
    return nowLocked();
}

ClockMode Clock::mode() const
{
    std::lock_guard lock(m_mutex);
    return m_mode;
}

double Clock::rate() const
{
    std::lock_guard lock(m_mutex);
    return rateOf(m_mode, m_scale);
}

double Clock::scale() const
{
    std::lock_guard lock(m_mutex);
    return m_scale;
}

Status Clock::setMode(ClockMode mode, double scale)
{
    if (mode == ClockMode::Scaled && !scaleValid(scale))
        return BrokerError(BrokerErrorCode::InvalidParameterValue,
                           "The time scale must be a number from 0.001 to 1000000.");
    std::lock_guard lock(m_mutex);
    const ClockTime at = nowLocked();
    m_mode = mode;
    if (mode == ClockMode::Scaled)
        m_scale = scale;
    reanchorLocked(at);
    return {};
}

Status Clock::advanceTo(ClockTime time)
{
    std::lock_guard lock(m_mutex);
    if (m_mode != ClockMode::Virtual)
        return BrokerError(BrokerErrorCode::ClockNotVirtual);
    if (time < m_anchor)
        return BrokerError(BrokerErrorCode::InvalidParameterValue,
                           "The clock cannot go back: " + formatIso8601(time) + " is before the current time " +
                               formatIso8601(m_anchor) + ".");
    if (time > m_anchor)
        reanchorLocked(time);
    return {};
}

Status Clock::advanceBy(ClockDuration duration)
{
    if (duration < ClockDuration::zero())
        return BrokerError(BrokerErrorCode::InvalidParameterValue, "The clock cannot go back: the advance must not be negative.");
    std::lock_guard lock(m_mutex);
    if (m_mode != ClockMode::Virtual)
        return BrokerError(BrokerErrorCode::ClockNotVirtual);
    if (duration > ClockDuration::zero())
        reanchorLocked(m_anchor + duration);
    return {};
}

bool Clock::catchUpWithWallTime()
{
    std::lock_guard lock(m_mutex);
    if (m_mode == ClockMode::Virtual)
        return false;
    const ClockTime wall = std::chrono::floor<ClockDuration>(m_wall.systemNow());
    if (wall <= nowLocked())
        return false;
    reanchorLocked(wall);
    return true;
}

std::optional<std::chrono::milliseconds> Clock::wallDelayUntil(ClockTime time) const
{
    std::lock_guard lock(m_mutex);
    const double rate = rateOf(m_mode, m_scale);
    if (rate == 0.0)
        return std::nullopt;
    const ClockTime current = nowLocked();
    if (time <= current)
        return std::chrono::milliseconds::zero();
    const double remaining = double((time - current).count());
    return std::chrono::milliseconds(static_cast<int64_t>(std::ceil(remaining / rate)));
}

ClockTime Clock::wallTime() const
{
    return std::chrono::floor<ClockDuration>(m_wall.systemNow());
}

uint64_t Clock::generation() const
{
    std::lock_guard lock(m_mutex);
    return m_generation;
}

} // namespace relaydesk
