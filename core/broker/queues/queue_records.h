// SPDX-License-Identifier: MIT
#pragma once

#include "broker/clock_time.h"
#include "broker/queues/message_attributes.h"
#include "broker/queues/queue_attributes.h"
#include "broker/result.h"
#include "broker/store_calls.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace relaydesk {

class Database;
class StoreStatus;

// One row of the `queues` table as the queue operations use it. The
// attributes are stored twice: as columns (what SQL filters on: delay,
// visibility, redrive target, lifetime) and as the GetQueueAttributes map in
// the `attributes` JSON (the whole truth, read back through
// parseQueueAttributes). Plain value type.
struct QueueRecord {
    std::int64_t id = 0;
    std::string name;
    QueueAttributes attributes;
    ClockTime created{};
    ClockTime lastModified{};
    ClockTime lastUsed{};   // idle clock of auto-delete (docs/behaviour.md §6)
    std::int64_t depthMarkMs = 0;   // the clock time its depth counters hold at (queue_depths.h)

    bool isFifo() const { return attributes.fifoQueue; }
    // The redrive target's name (last part of its ARN); empty without a policy.
    std::string deadLetterQueueName() const;
};

// The row mapping of queues and messages shared by the queue operations.
// Free functions over a Database& the caller holds inside its transaction;
// same thread as the Database. Store failures come back as InternalError.
namespace queue_records {

// The queue named `name`, or nothing; InternalError on a store failure.
Result<std::optional<QueueRecord>> find(Database &db, std::string_view name);
Result<std::optional<QueueRecord>> findById(Database &db, std::int64_t id);
// The queue named `name`, or QueueDoesNotExist.
Result<QueueRecord> require(Database &db, std::string_view name);

// Inserts a new queue (created = lastModified = lastUsed = now); returns its id.
Result<std::int64_t> insert(Database &db, std::string_view name, const QueueAttributes &attributes, ClockTime now);
// Rewrites the attribute columns and JSON of queue `id`; lastModified = lastUsed = now.
Status update(Database &db, std::int64_t id, const QueueAttributes &attributes, ClockTime now);
// The next FIFO SequenceNumber of queue `id` (strictly increasing, never reused).
Result<std::int64_t> takeSequenceNumber(Database &db, std::int64_t id);
// Sets last_used_ms = max(last_used_ms, now) (a send, receive or attribute
// change, docs/behaviour.md §6). The record's form writes nothing when the
// record, read in this unit, already holds `now` or later (operations within
// one millisecond): an UPDATE of an unchanged row still rewrites it.
Status touch(Database &db, std::int64_t id, ClockTime now);
Status touch(Database &db, const QueueRecord &queue, ClockTime now);
// The names of the queues a config file declares (docs/configuration.md), by
// name: not Service Bus entities nor dead-letter sub-queues (the emulator's
// Config.json declares those).
Result<std::vector<std::string>> configQueueNames(Database &db);

// Message attributes as stored in messages.attributes: a JSON object
// {"name": {"DataType": …, "StringValue": …} | {"DataType": …, "BinaryValue": HEX}}.
std::string writeMessageAttributes(const MessageAttributes &attributes);
MessageAttributes readMessageAttributes(std::string_view json);

} // namespace queue_records

} // namespace relaydesk
