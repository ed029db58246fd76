// SPDX-License-Identifier: MIT
#include "broker/queues/message_removal.h"

#include "broker/queues/queue_records.h"
#include "broker/store_calls.h"

namespace relaydesk {

Result<std::int64_t> deleteMessagesById(Database &db, std::string_view queueName,
                                        const std::vector<std::string> &messageIds)
{
    Result<QueueRecord> queue = queue_records::require(db, queueName);
    if (!queue)
        return queue.error();
    std::int64_t removed = 0;
    for (const std::string &messageId : messageIds) {
        if (Status deleted = executeStatement(db, "DELETE FROM messages WHERE queue_id = ? AND message_id = ?",
                                              queue->id, messageId);
            !deleted)
            return deleted.error();
        removed += db.changes();
    }
    return removed;
}

} // namespace relaydesk
