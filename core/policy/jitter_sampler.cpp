// SPDX-License-Identifier: MIT
#include "jitter_sampler.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace relaydesk {

JitterSampler::JitterSampler(double fraction, std::optional<uint64_t> seed)
    : m_fraction(std::clamp(fraction, 0.0, kMaxFraction))
    , m_engine(seed ? *seed : (uint64_t(std::random_device{}()) << 32) ^ std::random_device{}())
{
    assert(fraction >= 0.0 && fraction <= kMaxFraction);
}

std::pair<std::chrono::milliseconds, std::chrono::milliseconds> JitterSampler::band(int plannedDelaySeconds,
                                                                                    double fraction)
{
    const double ms = plannedDelaySeconds * 1000.0;
    return {std::chrono::milliseconds(int64_t(std::ceil(ms * (1.0 - fraction)))),
            std::chrono::milliseconds(int64_t(std::floor(ms * (1.0 + fraction))))};
}

std::chrono::milliseconds JitterSampler::sample(int plannedDelaySeconds)
{
    if (plannedDelaySeconds <= 0 || m_fraction == 0.0)
        return std::chrono::milliseconds(int64_t(std::max(plannedDelaySeconds, 0)) * 1000);
    const auto [low, high] = band(plannedDelaySeconds, m_fraction);
    // Integer distribution: portable and exactly inside the band.
    std::uniform_int_distribution<int64_t> draw(low.count(), high.count());
    return std::chrono::milliseconds(draw(m_engine));
}

} // namespace relaydesk
