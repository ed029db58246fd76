// SPDX-License-Identifier: MIT
#include "broker/receipt_handle.h"

#include <charconv>

namespace relaydesk {

std::string makeReceiptHandle(std::int64_t queueId, std::int64_t messageRowId, std::string_view token)
{
    return "q" + std::to_string(queueId) + "m" + std::to_string(messageRowId) + "-" + std::string(token);
}

// "q<queue row id>m<message row id>-<token>" -> the message row id, when the
// handle is of this shape and names `queueId`.
std::optional<std::int64_t> receiptHandleMessageRow(std::string_view handle, std::int64_t queueId)
{
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
