// SPDX-License-Identifier: MIT
#include "broker/servicebus/servicebus_runtime.h"

#include "broker/queues/queue_records.h"
#include "broker/queues/servicebus_queue.h"
#include "broker/store_calls.h"

#include <string>

namespace relaydesk::servicebus_runtime {

namespace {

constexpr std::string_view kStoredBytes =
    "SELECT coalesce(sum(length(CAST(body AS BLOB)) + length(CAST(attributes AS BLOB))), 0)"
    " FROM messages WHERE queue_id = ?";

Result<std::int64_t> storedBytes(Database &db, std::int64_t queueId)
{
    auto row = selectRow(db, kStoredBytes, queueId);
    if (!row)
        return row.error();
    return *row ? (***row).columnInt64(0) : std::int64_t(0);
}

} // namespace

Result<ServiceBusRuntime> read(Database &db, std::string_view queueName, ClockTime now)
{
    auto queue = queue_records::require(db, queueName);
    if (!queue)
        return queue.error();
    auto depths = queue_depths::read(db, queue->id, now);
    if (!depths)
        return depths.error();
    auto bytes = storedBytes(db, queue->id);
    if (!bytes)
        return bytes.error();
    ServiceBusRuntime runtime;
    runtime.counts = depths->counts;
    runtime.sizeInBytes = *bytes;
    runtime.created = queue->created;
    runtime.updated = queue->lastModified;
    runtime.accessed = queue->lastUsed;
    auto deadLetterQueue = queue_records::find(db, std::string(queueName) + std::string(kServiceBusDeadLetterSuffix));
    if (!deadLetterQueue)
        return deadLetterQueue.error();
    if (*deadLetterQueue) {
        auto dead = queue_depths::read(db, (*deadLetterQueue)->id, now);
        if (!dead)
            return dead.error();
        const QueueCounts &counts = dead->counts;
        runtime.deadLetters = counts.available + counts.inFlight + counts.delayed + counts.scheduled;
        auto deadBytes = storedBytes(db, (*deadLetterQueue)->id);
        if (!deadBytes)
            return deadBytes.error();
        runtime.sizeInBytes += *deadBytes;
    }
    return runtime;
}

} // namespace relaydesk::servicebus_runtime
