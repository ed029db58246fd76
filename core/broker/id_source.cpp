// SPDX-License-Identifier: MIT
#include "broker/id_source.h"

#include <openssl/rand.h>

#include <cstdio>
#include <stdexcept>

namespace relaydesk {

namespace {

std::string formatUuid(std::uint64_t high, std::uint64_t low)
{
    high = (high & 0xffffffffffff0fffULL) | 0x0000000000004000ULL;   // version 4
    low = (low & 0x3fffffffffffffffULL) | 0x8000000000000000ULL;     // variant 1
    char text[37];
    std::snprintf(text, sizeof text, "%08llx-%04llx-%04llx-%04llx-%012llx",
                  static_cast<unsigned long long>(high >> 32), static_cast<unsigned long long>((high >> 16) & 0xffff),
                  static_cast<unsigned long long>(high & 0xffff), static_cast<unsigned long long>(low >> 48),
                  static_cast<unsigned long long>(low & 0xffffffffffffULL));
    return text;
}

} // namespace

std::uint64_t RandomIdSource::next()
{
    if (m_seeded)
        return (*m_seeded)();
    std::uint64_t value = 0;
    if (RAND_bytes(reinterpret_cast<unsigned char *>(&value), sizeof value) != 1)
        throw std::runtime_error("no random bytes from the system"); // the unit fails, nothing is stored
    return value;
}

std::string RandomIdSource::newMessageId()
{
    const std::uint64_t high = next();
    return formatUuid(high, next());
}

std::string RandomIdSource::newReceiptHandle()
{
    char text[33];
    const std::uint64_t high = next();
    const std::uint64_t low = next();
    std::snprintf(text, sizeof text, "%016llx%016llx", static_cast<unsigned long long>(high),
                  static_cast<unsigned long long>(low));
    return text;
}

std::string SequentialIdSource::newMessageId()
{
    return formatUuid(0, m_next++);
}

std::string SequentialIdSource::newReceiptHandle()
{
    return "handle-" + std::to_string(m_next++);
}

} // namespace relaydesk
