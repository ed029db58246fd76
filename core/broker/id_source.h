// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <random>
#include <string>

namespace relaydesk {

// Where the queue operations get their identifiers: MessageIds (UUIDs, as
// SQS) and receipt handles (opaque; the broker only needs them unique).
// Injected so that tests are deterministic. Implementations are not
// synchronised: use one per broker thread.
class IdSource {
public:
    virtual ~IdSource() = default;
    virtual std::string newMessageId() = 0;       // 8-4-4-4-12 lowercase hexadecimal
    virtual std::string newReceiptHandle() = 0;   // unique among all handles this source gives
};

// MessageIds are time-ordered UUIDs (version 7: the milliseconds since the
// epoch, never decreasing within a source, then 74 random bits), so that
// consecutive sends extend the messages' (queue, MessageId) index at its end
// instead of touching a random page of it each (docs/figures.md "The broker
// in-process"); clients read them as opaque UUIDs, as SQS's. Receipt handles
// are 32 random hex digits. The random bits come by default from a
// cryptographic source (OpenSSL RAND_bytes, drawn 4 KiB at a time), so that
// no number of one's own handles predicts another consumer's. With a seed: a
// std::mt19937_64, for reproducible benchmarks only (predictable: never in
// the product).
class RandomIdSource final : public IdSource {
public:
    RandomIdSource() = default;
    explicit RandomIdSource(std::uint64_t seed) : m_seeded(std::in_place, seed) {}
    std::string newMessageId() override;
    std::string newReceiptHandle() override;

private:
    std::uint64_t next();

    std::optional<std::mt19937_64> m_seeded;
    std::array<std::uint64_t, 512> m_random{};   // drawn, not yet handed out: the last m_unused
    std::size_t m_unused = 0;
    std::uint64_t m_lastMilliseconds = 0;
};

// Test-only: counting ids ("00000000-0000-4000-8000-000000000001", …; handles
// "handle-1", …) so that tests can name them. Continue from a later
// counter after a restart with `start`.
class SequentialIdSource final : public IdSource {
public:
    explicit SequentialIdSource(std::uint64_t start = 1) : m_next(start) {}
    std::string newMessageId() override;
    std::string newReceiptHandle() override;

private:
    std::uint64_t m_next = 1;
};

} // namespace relaydesk
