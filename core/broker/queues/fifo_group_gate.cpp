// SPDX-License-Identifier: MIT
#include "broker/queues/fifo_group_gate.h"

#include "broker/store_calls.h"

#include <limits>
#include <unordered_set>

namespace relaydesk {

namespace {

constexpr std::int64_t kPage = 1024;

// Appends `group`'s run: its messages in sequence order up to the first one
// not visible at `nowMs`, at most `wanted` (more than the receive still
// needs is fine: it skips what it moves to the dead-letter queue).
Status takeRun(Database &db, std::int64_t queueId, const std::string &group, std::size_t wanted, std::int64_t nowMs,
               std::vector<std::int64_t> &rows)
{
    Result<CachedStatement> run =
        prepareBound(db, "SELECT id, visible_at_ms FROM messages WHERE queue_id = ?1 AND group_id = ?2 "
                         "AND (expires_at_ms IS NULL OR expires_at_ms > ?3) ORDER BY sequence_number LIMIT ?4",
                     queueId, group, nowMs, static_cast<std::int64_t>(wanted));
    if (!run)
        return run.error();
    // Expired messages whose removal is still to come (a bulk expiry goes in
    // chunks) are not part of the run.
    return forEachRow(**run, [&](Statement &row) {
        if (row.columnInt64(1) > nowMs)
            return false;
        rows.push_back(row.columnInt64(0));
        return true;
    });
}

} // namespace

Result<std::vector<std::int64_t>> FifoGroupGate::receivable(std::int64_t queueId, std::size_t wanted, ClockTime now)
{
    // Groups already decided: in flight, or their run is taken. (The set
    // drops repeats; DISTINCT would make SQLite open a temporary B-tree on
    // every receive.)
    const std::int64_t nowMs = toEpochMilliseconds(now);
    std::unordered_set<std::string> seen;
    {
        Result<CachedStatement> blocked =
            prepareBound(*m_db, "SELECT group_id FROM messages WHERE queue_id = ? AND "
                                "state = 'inflight' AND visible_at_ms > ? AND group_id IS NOT NULL",
                         queueId, nowMs);
        if (!blocked)
            return blocked.error();
        if (Status read = forEachRow(**blocked, [&](Statement &row) { seen.insert(row.columnText(0)); }); !read)
            return read.error();
    }
    std::vector<std::int64_t> rows;
    std::int64_t after = std::numeric_limits<std::int64_t>::min();
    // The walk steps the index row by row and stops as soon as enough is
    // taken: a receive usually needs the first free group, just past the
    // groups in flight. (A page is a LIMIT for the planner, not a read.)
    for (bool more = true; more && rows.size() < wanted;) {
        Result<CachedStatement> page = prepareBound(
            *m_db,
            "SELECT group_id, sequence_number FROM messages WHERE queue_id = ? AND sequence_number > ? "
            "AND group_id IS NOT NULL ORDER BY sequence_number LIMIT ?",
            queueId, after, kPage);
        if (!page)
            return page.error();
        std::int64_t count = 0;
        Status taken;
        const Status read = forEachRow(**page, [&](Statement &row) {
            ++count;
            after = row.columnInt64(1);
            std::string group = row.columnText(0);
            if (!seen.insert(group).second)
                return true;
            taken = takeRun(*m_db, queueId, group, wanted, nowMs, rows);
            return taken.ok() && rows.size() < wanted;
        });
        if (!read)
            return read.error();
        if (!taken)
            return taken.error();
        more = count == kPage;
    }
    return rows;
}

} // namespace relaydesk
