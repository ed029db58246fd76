// SPDX-License-Identifier: MIT
#pragma once

#include "broker/result.h"

#include <optional>
#include <string>
#include <vector>

namespace relaydesk {

// One entry of an SQS *Batch request: the caller's Id and the request.
template <typename Request>
struct BatchEntry {
    std::string id;
    Request request;
};

// The outcome of one batch entry: its Id and either a value (Successful) or
// the error of that entry alone (Failed; SenderFault from error->info()).
template <typename Value>
struct BatchEntryResult {
    std::string id;
    std::optional<Value> value;
    std::optional<BrokerError> error;
    bool ok() const { return value.has_value(); }
};

inline constexpr std::size_t kMaxBatchEntries = 10;
inline constexpr std::size_t kMaxBatchEntryIdLength = 80;

// The whole-batch rules (docs/behaviour.md §10), checked before anything is done:
// EmptyBatchRequest, TooManyEntriesInBatchRequest (over 10),
// InvalidBatchEntryId (not 1–80 of [A-Za-z0-9_-]), BatchEntryIdsNotDistinct.
// Pure.
Status checkBatchEntryIds(const std::vector<std::string> &ids);

template <typename Request>
Status checkBatchEntries(const std::vector<BatchEntry<Request>> &entries)
{
    std::vector<std::string> ids;
    ids.reserve(entries.size());
    for (const auto &entry : entries)
        ids.push_back(entry.id);
    return checkBatchEntryIds(ids);
}

} // namespace relaydesk
