// SPDX-License-Identifier: MIT
#include "broker/queues/fifo_group_gate.h"

#include "broker/store_calls.h"

#include <algorithm>
#include <limits>
#include <unordered_set>

namespace relaydesk {

namespace {
constexpr std::int64_t kFirstPage = 32;
constexpr std::int64_t kMaxPage = 1024;
} // namespace

Result<std::vector<std::int64_t>> FifoGroupGate::receivable(std::int64_t queueId, std::size_t wanted, ClockTime now)
{
    // Groups already decided: in flight, or their run is taken.
    const std::int64_t nowMs = toEpochMilliseconds(now);
    std::unordered_set<std::string> seen;
    {
        Result<CachedStatement> blocked =
            prepareBound(*m_db, "SELECT DISTINCT group_id FROM messages WHERE queue_id = ? AND "
                                "state = 'inflight' AND visible_at_ms > ? AND group_id IS NOT NULL",
                         queueId, nowMs);
        if (!blocked)
            return blocked.error();
        if (Status read = forEachRow(**blocked, [&](Statement &row) { seen.insert(row.columnText(0)); }); !read)
            return read.error();
    }
    std::vector<std::int64_t> rows;
    std::int64_t after = std::numeric_limits<std::int64_t>::min();
    // Pages grow from a few rows (a receive usually needs the first free
    // group, just past the groups in flight) to kMaxPage.
    std::int64_t pageSize = kFirstPage;
    for (bool more = true; more && rows.size() < wanted; pageSize = std::min(pageSize * 2, kMaxPage)) {
        std::vector<std::string> heads;
        {
            Result<CachedStatement> page = prepareBound(
                *m_db,
                "SELECT group_id, sequence_number FROM messages WHERE queue_id = ? AND sequence_number > ? "
                "AND group_id IS NOT NULL ORDER BY sequence_number LIMIT ?",
                queueId, after, pageSize);
            if (!page)
                return page.error();
            std::int64_t count = 0;
            const Status read = forEachRow(**page, [&](Statement &row) {
                ++count;
                after = row.columnInt64(1);
                std::string group = row.columnText(0);
                if (seen.insert(group).second)
                    heads.push_back(std::move(group));
            });
            if (!read)
                return read.error();
            more = count == pageSize;
        }
        for (const std::string &group : heads) {
            if (rows.size() >= wanted)
                break;
            Result<CachedStatement> run =
                prepareBound(*m_db, "SELECT id, visible_at_ms FROM messages WHERE queue_id = ? AND group_id = ? "
                                    "ORDER BY sequence_number LIMIT ?",
                             queueId, group, static_cast<std::int64_t>(wanted));
            if (!run)
                return run.error();
            // A group's run stops at its first message that is not yet visible.
            const Status read = forEachRow(**run, [&](Statement &row) {
                if (row.columnInt64(1) > nowMs)
                    return false;
                rows.push_back(row.columnInt64(0));
                return true;
            });
            if (!read)
                return read.error();
        }
    }
    return rows;
}

} // namespace relaydesk
