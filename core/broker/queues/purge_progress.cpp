// SPDX-License-Identifier: MIT
#include "broker/queues/purge_progress.h"

#include "broker/queues/bulk_removal.h"
#include "broker/queues/queue_records.h"
#include "broker/store_calls.h"

namespace relaydesk::purge_progress {

namespace {

std::string purgeNoteKey(std::int64_t queueId) { return "purge_up_to:" + std::to_string(queueId); }

Status forgetPurge(Database &db, std::int64_t queueId)
{
    return executeStatement(db, "DELETE FROM settings WHERE key = ?", purgeNoteKey(queueId));
}

} // namespace

Status note(Database &db, std::int64_t queueId, std::int64_t upToRowId)
{
    return executeStatement(db, "INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)", purgeNoteKey(queueId),
                            std::to_string(upToRowId));
}

// A note counts only for the queue it was made for: the purge's start
// (`purge_started_ms:<id>`, message_receiver.cpp) is not older than the
// queue of that row id.
Result<std::vector<PendingPurge>> pending(Database &db)
{
    Result<CachedStatement> notes = prepareBound(
        db, "SELECT CAST(substr(n.key, 13) AS INTEGER), CAST(n.value AS INTEGER), q.name FROM settings n "
            "LEFT JOIN queues q ON q.id = CAST(substr(n.key, 13) AS INTEGER) AND EXISTS (SELECT 1 FROM settings s "
            "WHERE s.key = 'purge_started_ms:' || q.id AND CAST(s.value AS INTEGER) >= q.created_ms) "
            "WHERE n.key >= 'purge_up_to:' AND n.key < 'purge_up_to;'");
    if (!notes)
        return notes.error();
    std::vector<PendingPurge> purges;
    std::vector<std::int64_t> stale;
    const Status read = forEachRow(**notes, [&](Statement &row) {
        if (row.columnIsNull(2))
            stale.push_back(row.columnInt64(0));
        else
            purges.push_back(PendingPurge{row.columnInt64(0), row.columnText(2), row.columnInt64(1)});
    });
    if (!read)
        return read.error();
    for (const std::int64_t queueId : stale)
        if (Status forgotten = forgetPurge(db, queueId); !forgotten)
            return forgotten.error();
    return purges;
}

Result<bool> removeChunk(Database &db, const PendingPurge &purge)
{
    Result<std::optional<QueueRecord>> queue = queue_records::find(db, purge.queueName);
    if (!queue)
        return queue.error();
    if (!*queue || (*queue)->id != purge.queueId) { // deleted meanwhile
        if (Status forgotten = forgetPurge(db, purge.queueId); !forgotten)
            return forgotten.error();
        return false;
    }
    Result<std::int64_t> removed = bulk_removal::removeQueueMessages(db, purge.queueId, purge.upToRowId);
    if (!removed)
        return removed.error();
    if (*removed >= bulk_removal::kBulkChunkRows)
        return true;
    if (Status forgotten = forgetPurge(db, purge.queueId); !forgotten)
        return forgotten.error();
    return false;
}

} // namespace relaydesk::purge_progress
