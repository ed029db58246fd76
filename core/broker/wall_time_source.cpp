// SPDX-License-Identifier: MIT
#include "wall_time_source.h"

namespace relaydesk {

std::chrono::system_clock::time_point SystemWallTimeSource::systemNow() const
{
    return std::chrono::system_clock::now();
}

std::chrono::steady_clock::time_point SystemWallTimeSource::steadyNow() const
{
    return std::chrono::steady_clock::now();
}

ManualWallTimeSource::ManualWallTimeSource(std::chrono::system_clock::time_point start) : m_system(start) {}

std::chrono::system_clock::time_point ManualWallTimeSource::systemNow() const
{
    std::lock_guard lock(m_mutex);
    return m_system;
}

std::chrono::steady_clock::time_point ManualWallTimeSource::steadyNow() const
{
    std::lock_guard lock(m_mutex);
    return m_steady;
}

void ManualWallTimeSource::advance(std::chrono::nanoseconds elapsed)
{
    if (elapsed <= std::chrono::nanoseconds::zero())
        return;
    std::lock_guard lock(m_mutex);
    m_system += std::chrono::duration_cast<std::chrono::system_clock::duration>(elapsed);
    m_steady += std::chrono::duration_cast<std::chrono::steady_clock::duration>(elapsed);
}

void ManualWallTimeSource::setSystemTime(std::chrono::system_clock::time_point time)
{
    std::lock_guard lock(m_mutex);
    m_system = time;
}

} // namespace relaydesk
