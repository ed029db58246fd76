// SPDX-License-Identifier: MIT
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <random>

namespace relaydesk {

// Draws the executed delay of a planned one (docs/behaviour.md §3.5): a non-zero delay d
// becomes uniform in [d(1-J), d(1+J)], at millisecond resolution; zero stays
// zero. Seeded for reproducible runs: two samplers with the same fraction and
// seed return the same sequence. Not thread-safe (one per worker).
class JitterSampler final {
public:
    static constexpr double kDefaultFraction = 0.1;
    static constexpr double kMaxFraction = 0.5;

    // Precondition: 0 <= fraction <= kMaxFraction. Without a seed, one is
    // taken from std::random_device.
    explicit JitterSampler(double fraction = kDefaultFraction, std::optional<uint64_t> seed = std::nullopt);

    double fraction() const { return m_fraction; }
    std::chrono::milliseconds sample(int plannedDelaySeconds);

    // The band [low, high] in milliseconds that sample() stays inside.
    static std::pair<std::chrono::milliseconds, std::chrono::milliseconds> band(int plannedDelaySeconds, double fraction);

private:
    double m_fraction = kDefaultFraction;
    std::mt19937_64 m_engine;
};

} // namespace relaydesk
