// SPDX-License-Identifier: MIT
#include "broker/id_source.h"

#include "broker/hex_text.h"

#include <openssl/rand.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>

namespace relaydesk {

namespace {

// `high` carries the version nibble (bits 12–15).
std::string formatUuid(std::uint64_t high, std::uint64_t low)
{
    low = (low & 0x3fffffffffffffffULL) | 0x8000000000000000ULL;     // variant 1
    std::string text(36, '-');
    putHexDigits(&text[0], high >> 32, 8);
    putHexDigits(&text[9], high >> 16, 4);
    putHexDigits(&text[14], high, 4);
    putHexDigits(&text[19], low >> 48, 4);
    putHexDigits(&text[24], low, 12);
    return text;
}

} // namespace

std::uint64_t RandomIdSource::next()
{
    if (m_seeded)
        return (*m_seeded)();
    if (m_unused == 0) {
        if (RAND_bytes(reinterpret_cast<unsigned char *>(m_random.data()), sizeof m_random) != 1)
            throw std::runtime_error("no random bytes from the system"); // the unit fails, nothing is stored
        m_unused = m_random.size();
    }
    const std::uint64_t value = m_random[--m_unused];
    m_random[m_unused] = 0;   // each random word is handed out once
    return value;
}

std::string RandomIdSource::newMessageId()
{
    const auto now = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::system_clock::now().time_since_epoch());
    m_lastMilliseconds = std::max(m_lastMilliseconds, static_cast<std::uint64_t>(now.count()));
    // version 7: 48 bits of milliseconds, the version nibble, 12 random bits
    const std::uint64_t high = (m_lastMilliseconds << 16) | 0x7000ULL | (next() & 0x0fffULL);
    return formatUuid(high, next());
}

std::string RandomIdSource::newReceiptHandle()
{
    std::string text(32, '0');
    putHexDigits(&text[0], next(), 16);
    putHexDigits(&text[16], next(), 16);
    return text;
}

std::string SequentialIdSource::newMessageId()
{
    return formatUuid(0x4000ULL, m_next++);   // version 4 in form, counting
}

std::string SequentialIdSource::newReceiptHandle()
{
    return "handle-" + std::to_string(m_next++);
}

} // namespace relaydesk
