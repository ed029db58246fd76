// SPDX-License-Identifier: MIT
#include "broker/queues/queue_batch.h"

#include <algorithm>
#include <set>

namespace relaydesk {

namespace {

bool isBatchIdCharacter(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

} // namespace

Status checkBatchEntryIds(const std::vector<std::string> &ids)
{
    using Code = BrokerErrorCode;
    if (ids.empty())
        return BrokerError(Code::EmptyBatchRequest, "There should be at least one entry in the request.");
    if (ids.size() > kMaxBatchEntries)
        return BrokerError(Code::TooManyEntriesInBatchRequest,
                           "Maximum number of entries per request are 10. You have sent "
                               + std::to_string(ids.size()) + ".");
    for (const std::string &id : ids)
        if (id.empty() || id.size() > kMaxBatchEntryIdLength || !std::all_of(id.begin(), id.end(), isBatchIdCharacter))
            return BrokerError(Code::InvalidBatchEntryId,
                               "A batch entry id can only contain alphanumeric characters, hyphens and underscores. "
                               "It can be at most 80 letters long.");
    if (std::set<std::string>(ids.begin(), ids.end()).size() != ids.size())
        return BrokerError(Code::BatchEntryIdsNotDistinct, "Two or more batch entries in the request have the same Id.");
    return {};
}

} // namespace relaydesk
