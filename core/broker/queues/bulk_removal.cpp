// SPDX-License-Identifier: MIT
#include "broker/queues/bulk_removal.h"

#include "broker/queues/queue_records.h"
#include "broker/store_calls.h"

#include <limits>

namespace relaydesk::bulk_removal {

Result<std::int64_t> removeQueueMessages(Database &db, std::int64_t queueId, std::optional<std::int64_t> upToRowId,
                                         std::int64_t limit)
{
    // The row `upToRowId` goes last: while it is there, a new message gets a
    // higher row id (SQLite's max(rowid) + 1), never one of those removed.
    // A chunk is a range of row ids (messages_by_queue is (queue_id, id)), so
    // it reads only the rows it removes: never the messages sent since the
    // purge began, nor those whose visibility time sorts before the rest.
    if (Status removed = executeStatement(
            db, "DELETE FROM messages WHERE id IN (SELECT id FROM messages INDEXED BY messages_by_queue "
                "WHERE queue_id = ? AND id < ? ORDER BY id LIMIT ?)",
            queueId, upToRowId.value_or(std::numeric_limits<std::int64_t>::max()), limit);
        !removed)
        return removed.error();
    const auto count = static_cast<std::int64_t>(db.changes());
    if (!upToRowId || count == limit)
        return count;
    if (Status removed = executeStatement(db, "DELETE FROM messages WHERE id = ? AND queue_id = ?", *upToRowId, queueId);
        !removed)
        return removed.error();
    return count + static_cast<std::int64_t>(db.changes());
}

Result<bool> removeMessagesOfQueues(Database &db, const std::vector<std::string> &queueNames, std::int64_t limit)
{
    std::int64_t budget = limit;
    for (const std::string &name : queueNames) {
        Result<std::optional<QueueRecord>> queue = queue_records::find(db, name);
        if (!queue)
            return queue.error();
        if (!*queue)
            continue;
        Result<std::int64_t> removed = removeQueueMessages(db, (*queue)->id, std::nullopt, budget);
        if (!removed)
            return removed.error();
        budget -= *removed;
        if (budget == 0)
            return true;
    }
    return false;
}

Result<bool> removePendingDeliveries(Database &db, const std::vector<std::int64_t> &subscriptionIds,
                                     std::int64_t limit)
{
    std::int64_t budget = limit;
    for (const std::int64_t id : subscriptionIds) {
        if (Status removed = executeStatement(
                db, "DELETE FROM pending_deliveries WHERE subscription_id = ?1 AND published_id IN "
                    "(SELECT published_id FROM pending_deliveries WHERE subscription_id = ?1 LIMIT ?2)",
                id, budget);
            !removed)
            return removed.error();
        budget -= static_cast<std::int64_t>(db.changes());
        if (budget == 0)
            return true;
    }
    return false;
}

Result<std::int64_t> lastMessageRowId(Database &db, std::int64_t queueId)
{
    Result<std::optional<std::int64_t>> last =
        selectOptionalInt64(db, "SELECT max(id) FROM messages WHERE queue_id = ?", queueId);
    if (!last)
        return last.error();
    return last->value_or(0);
}

} // namespace relaydesk::bulk_removal
