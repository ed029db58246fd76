// SPDX-License-Identifier: MIT
#include "broker/queues/receipt_handle.h"

#include <charconv>
#include <cstdio>

namespace relaydesk {

namespace {

constexpr char kSealMark = '~';
constexpr std::size_t kSealDigits = 16;

// FNV-1a (64 bit) of `text` as 16 lowercase hexadecimal digits: a check of
// the handle's other characters, so that an altered handle is told from a
// stale one.
std::string sealOf(std::string_view text)
{
    std::uint64_t hash = 0xcbf29ce484222325ULL;
    for (const char c : text) {
        hash ^= static_cast<unsigned char>(c);
        hash *= 0x100000001b3ULL;
    }
    char digits[kSealDigits + 1];
    std::snprintf(digits, sizeof digits, "%016llx", static_cast<unsigned long long>(hash));
    return std::string(digits, kSealDigits);
}

} // namespace

std::string makeReceiptHandle(std::int64_t queueId, std::int64_t messageRowId, std::string_view token)
{
    std::string handle = "q" + std::to_string(queueId) + "m" + std::to_string(messageRowId) + "-" + std::string(token);
    handle += kSealMark;
    handle += sealOf(std::string_view(handle).substr(0, handle.size() - 1));
    return handle;
}

bool isSealedReceiptHandle(std::string_view handle)
{
    return handle.size() > kSealDigits && handle[handle.size() - kSealDigits - 1] == kSealMark;
}

// "q<queue row id>m<message row id>-<token>[~<seal>]" -> the message row id,
// when the handle is of this shape, its seal (if any) checks, and it names
// `queueId`.
std::optional<std::int64_t> receiptHandleMessageRow(std::string_view handle, std::int64_t queueId)
{
    if (isSealedReceiptHandle(handle)) {
        const std::string_view body = handle.substr(0, handle.size() - kSealDigits - 1);
        if (handle.substr(handle.size() - kSealDigits) != sealOf(body))
            return std::nullopt;
        handle = body;
    }
    const auto number = [&](std::size_t &at, char lead) -> std::optional<std::int64_t> {
        if (at >= handle.size() || handle[at] != lead)
            return std::nullopt;
        std::int64_t value = 0;
        const auto [end, error] = std::from_chars(handle.data() + at + 1, handle.data() + handle.size(), value);
        if (error != std::errc() || end == handle.data() + at + 1)
            return std::nullopt;
        at = static_cast<std::size_t>(end - handle.data());
        return value;
    };
    std::size_t at = 0;
    const std::optional<std::int64_t> queue = number(at, 'q');
    const std::optional<std::int64_t> row = queue ? number(at, 'm') : std::nullopt;
    if (!row || at + 1 >= handle.size() || handle[at] != '-' || *queue != queueId)
        return std::nullopt;
    return row;
}

} // namespace relaydesk
