// SPDX-License-Identifier: MIT
#include "broker/fifo_group_gate.h"

#include "broker/queue_records.h"
#include "store/database.h"

#include <limits>
#include <set>

namespace relaydesk {

using queue_records::storeFailure;

Result<std::vector<std::int64_t>> FifoGroupGate::receivable(std::int64_t queueId, std::size_t wanted, ClockTime now)
{
    // Groups already decided: in flight, or their run is taken.
    const std::int64_t nowMs = toEpochMilliseconds(now);
    std::set<std::string> seen;
    {
        auto blocked = m_db->prepareCached("SELECT DISTINCT group_id FROM messages WHERE queue_id = ? AND "
                                           "state = 'inflight' AND visible_at_ms > ? AND group_id IS NOT NULL");
        if (!blocked.ok())
            return storeFailure(blocked.status());
        StoreStatus status = (*blocked)->bind(1, queueId);
        if (status.ok())
            status = (*blocked)->bind(2, nowMs);
        if (!status.ok())
            return storeFailure(status);
        for (;;) {
            const StoreResult<Step> step = (*blocked)->step();
            if (!step.ok())
                return storeFailure(step.status());
            if (*step == Step::Done)
                break;
            seen.insert((*blocked)->columnText(0));
        }
    }
    std::vector<std::int64_t> rows;
    std::int64_t after = std::numeric_limits<std::int64_t>::min();
    for (bool more = true; more && rows.size() < wanted;) {
        std::vector<std::string> heads;
        {
            auto page = m_db->prepareCached(
                "SELECT group_id, sequence_number FROM messages WHERE queue_id = ? AND sequence_number > ? "
                "AND group_id IS NOT NULL ORDER BY sequence_number LIMIT 256");
            if (!page.ok())
                return storeFailure(page.status());
            StoreStatus status = (*page)->bind(1, queueId);
            if (status.ok())
                status = (*page)->bind(2, after);
            if (!status.ok())
                return storeFailure(status);
            int count = 0;
            for (;;) {
                const StoreResult<Step> step = (*page)->step();
                if (!step.ok())
                    return storeFailure(step.status());
                if (*step == Step::Done)
                    break;
                ++count;
                after = (*page)->columnInt64(1);
                std::string group = (*page)->columnText(0);
                if (seen.insert(group).second)
                    heads.push_back(std::move(group));
            }
            more = count == 256;
        }
        for (const std::string &group : heads) {
            if (rows.size() >= wanted)
                break;
            auto run = m_db->prepareCached("SELECT id, visible_at_ms FROM messages WHERE queue_id = ? AND group_id = ? "
                                           "ORDER BY sequence_number LIMIT ?");
            if (!run.ok())
                return storeFailure(run.status());
            StoreStatus status = (*run)->bind(1, queueId);
            if (status.ok())
                status = (*run)->bind(2, group);
            if (status.ok())
                status = (*run)->bind(3, static_cast<std::int64_t>(wanted));
            if (!status.ok())
                return storeFailure(status);
            for (;;) {
                const StoreResult<Step> step = (*run)->step();
                if (!step.ok())
                    return storeFailure(step.status());
                if (*step == Step::Done || (*run)->columnInt64(1) > nowMs)
                    break;
                rows.push_back((*run)->columnInt64(0));
            }
        }
    }
    return rows;
}

} // namespace relaydesk
