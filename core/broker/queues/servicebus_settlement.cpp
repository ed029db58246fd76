// SPDX-License-Identifier: MIT
#include "broker/queues/servicebus_settlement.h"

#include "broker/queues/dead_letter_queue.h"
#include "broker/queues/queue_records.h"
#include "broker/queues/servicebus_queue.h"
#include "broker/store_calls.h"

namespace relaydesk {

namespace {

using Code = BrokerErrorCode;
using Kind = ServiceBusSettlement::Kind;

BrokerError lockLost()
{
    return BrokerError(Code::MessageNotInflight,
                       "The lock supplied is invalid. Either the lock expired, or the message has already been "
                       "removed from the queue.");
}

Status deadLetter(Database &db, const QueueRecord &queue, std::int64_t rowId, std::string_view reason,
                  std::string_view description, ClockTime now)
{
    Result<bool> moved = moveToDeadLetterQueue(db, queue, rowId, reason, now);
    if (!moved)
        return moved.error();
    if (!*moved)
        return BrokerError(Code::InternalError, "the dead-letter sub-queue of \"" + queue.name + "\" is missing");
    if (description.empty())
        return {};
    return executeStatement(db, "UPDATE messages SET dead_letter_description = ? WHERE id = ?", description, rowId);
}

// Available again at once; `counted` false takes back the delivery its lock counted.
Status makeAvailable(Database &db, std::int64_t rowId, std::int64_t nowMs, bool counted)
{
    return executeStatement(db,
                            std::string("UPDATE messages SET state = 'queued', receipt_handle = NULL, "
                                        "receive_attempt_id = NULL, visible_at_ms = ?")
                                + (counted ? "" : ", receive_count = max(receive_count - 1, 0)") + " WHERE id = ?",
                            nowMs, rowId);
}

} // namespace

Result<ClockTime> settleServiceBusMessage(Database &db, std::string_view queueName, std::string_view receiptHandle,
                                          const ServiceBusSettlement &settlement, ClockTime now)
{
    Result<QueueRecord> queue = queue_records::require(db, queueName);
    if (!queue)
        return queue.error();
    const std::int64_t nowMs = toEpochMilliseconds(now);
    if (settlement.session) {
        if (Result<ClockTime> held = servicebus_sessions::requireLock(db, queue->id, *settlement.session, now); !held)
            return held.error();
        if (settlement.kind == Kind::RenewLock)
            return BrokerError(Code::InvalidParameterValue,
                               "The lock of a message received in a session is its session's lock: renew that.");
    }
    auto row = selectRow(db,
                         "SELECT id, receive_count FROM messages WHERE queue_id = ? AND receipt_handle = ? AND "
                         "state = 'inflight' AND visible_at_ms > ?",
                         queue->id, receiptHandle, nowMs);
    if (!row)
        return row.error();
    if (!*row)
        return lockLost();
    const std::int64_t rowId = (**row)->columnInt64(0);
    const std::int64_t deliveries = (**row)->columnInt64(1);
    (**row)->reset();
    if (Status touched = queue_records::touch(db, *queue, now); !touched)
        return touched.error();
    switch (settlement.kind) {
    case Kind::Complete:
        if (Status deleted = executeStatement(db, "DELETE FROM messages WHERE id = ?", rowId); !deleted)
            return deleted.error();
        return now;
    case Kind::Abandon:
        if (queue->attributes.redrivePolicy && deliveries >= queue->attributes.redrivePolicy->maxReceiveCount) {
            if (Status moved = deadLetter(db, *queue, rowId, kMaxDeliveryCountExceeded, {}, now); !moved)
                return moved.error();
            return now;
        }
        if (Status released = makeAvailable(db, rowId, nowMs, true); !released)
            return released.error();
        return now;
    case Kind::Release:
        if (Status released = makeAvailable(db, rowId, nowMs, false); !released)
            return released.error();
        return now;
    case Kind::DeadLetter:
        if (Status moved = deadLetter(db, *queue, rowId, settlement.deadLetterReason,
                                      settlement.deadLetterDescription, now);
            !moved)
            return moved.error();
        return now;
    case Kind::Defer:
        if (Status deferred = executeStatement(db,
                                               "UPDATE messages SET state = 'queued', receipt_handle = NULL, "
                                               "receive_attempt_id = NULL, visible_at_ms = ?, deferred = 1 WHERE id = ?",
                                               nowMs, rowId);
            !deferred)
            return deferred.error();
        return now;
    case Kind::RenewLock: {
        const std::int64_t until = nowMs + std::int64_t(queue->attributes.visibilityTimeout) * 1000;
        if (Status renewed = executeStatement(db, "UPDATE messages SET visible_at_ms = ? WHERE id = ?", until, rowId);
            !renewed)
            return renewed.error();
        return fromEpochMilliseconds(until);
    }
    }
    return now;
}

} // namespace relaydesk
