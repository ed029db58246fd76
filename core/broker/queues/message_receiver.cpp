// SPDX-License-Identifier: MIT
#include "broker/queues/message_receiver.h"

#include "broker/queues/dead_letter_queue.h"
#include "broker/echoed_value.h"
#include "broker/queues/fifo_group_gate.h"
#include "broker/id_source.h"
#include "broker/queues/bulk_removal.h"
#include "broker/queues/message_lifetime.h"
#include "broker/queues/message_text.h"
#include "broker/queues/queue_records.h"
#include "broker/queues/receipt_handle.h"
#include "broker/store_calls.h"

#include <charconv>

namespace relaydesk {

namespace {

using Code = BrokerErrorCode;

// At most this many expired messages are removed by one receive.
constexpr std::int64_t kExpiryOnReceive = 200;

// What readMessage() reads, in its order.
constexpr std::string_view kMessageColumns =
    "id, message_id, body, attributes, sent_ms, receive_count, first_receive_ms, group_id, dedup_id, "
    "sequence_number, dead_letter_reason, expires_at_ms, receipt_handle, id, enqueued_ms, visible_at_ms, "
    "dead_letter_description";

// A lock. The locked message is then read by readLockedSql(): RETURNING
// would collect its row in an ephemeral table opened and closed on every
// call (SQLite 3.40), which costs more than a second seek by rowid.
constexpr std::string_view kLockSql =
    "UPDATE messages SET state = 'inflight', receipt_handle = :handle, receive_attempt_id = :attempt, "
    "visible_at_ms = :visible_at, receive_count = receive_count + 1, "
    "first_receive_ms = coalesce(first_receive_ms, :now) WHERE id = :id";

const std::string &readLockedSql()
{
    static const std::string sql = "SELECT " + std::string(kMessageColumns) + " FROM messages WHERE id = ?";
    return sql;
}

ReceivedMessage readMessage(Statement &row)
{
    ReceivedMessage message;
    message.messageId = row.columnText(1);
    message.body = row.columnText(2);
    message.attributes = queue_records::readMessageAttributes(row.columnText(3));
    message.sentTimestamp = fromEpochMilliseconds(row.columnInt64(4));
    message.approximateReceiveCount = static_cast<int>(row.columnInt64(5));
    if (const auto first = row.columnOptionalInt64(6))
        message.approximateFirstReceiveTimestamp = fromEpochMilliseconds(*first);
    message.groupId = row.columnOptionalText(7);
    if (std::optional<std::string> dedup = row.columnOptionalText(8)) {
        // A messageGroup-scoped key is "GROUP\x1fID".
        const std::size_t mark = dedup->find('\x1f');
        message.deduplicationId = mark == std::string::npos ? *dedup : dedup->substr(mark + 1);
    }
    message.sequenceNumber = row.columnOptionalInt64(9);
    message.deadLetterReason = row.columnOptionalText(10);
    if (const auto expires = row.columnOptionalInt64(11))
        message.expiresAt = fromEpochMilliseconds(*expires);
    message.receiptHandle = row.columnText(12);
    message.storageId = row.columnInt64(13);
    message.enqueuedAt = fromEpochMilliseconds(row.columnInt64(14));
    message.lockedUntil = fromEpochMilliseconds(row.columnInt64(15));
    message.deadLetterDescription = row.columnOptionalText(16);
    return message;
}

BrokerError invalidHandle(std::string_view handle)
{
    return BrokerError(Code::ReceiptHandleIsInvalid,
                       "The input receipt handle \"" + echoedValue(handle) + "\" is not a valid receipt handle.");
}

Status checkVisibilityTimeout(int seconds)
{
    if (seconds < 0 || seconds > QueueAttributes::kMaxVisibilityTimeout)
        return BrokerError(Code::InvalidParameterValue,
                           "Value " + std::to_string(seconds)
                               + " for parameter VisibilityTimeout is invalid. Reason: must be between 0 and 43200.");
    return {};
}

// The receive time a handle of lock() carries; nothing for other shapes.
std::optional<std::int64_t> receivedAtMs(std::string_view handle)
{
    const std::size_t dash = handle.find('-');
    if (dash == std::string_view::npos)
        return std::nullopt;
    const char *begin = handle.data() + dash + 1;
    const char *end = handle.data() + handle.size();
    std::int64_t value = 0;
    const auto [stop, error] = std::from_chars(begin, end, value);
    if (error != std::errc() || stop == begin || stop == end || *stop != '.')
        return std::nullopt;
    return value;
}

std::string purgeKey(std::int64_t queueId) { return "purge_started_ms:" + std::to_string(queueId); }

Result<std::optional<ClockTime>> nextVisibleAt(Database &db, std::int64_t queueId, std::int64_t nowMs)
{
    return selectOptionalTime(db, "SELECT min(visible_at_ms) FROM messages WHERE queue_id = ? AND visible_at_ms > ?",
                              queueId, nowMs);
}

} // namespace

Result<std::vector<std::int64_t>> MessageReceiver::chooseStandard(const QueueRecord &queue, std::size_t wanted,
                                                                  ClockTime now)
{
    return selectColumn<std::int64_t>(
        *m_db, "SELECT id FROM messages WHERE queue_id = ?1 AND visible_at_ms <= ?2 AND deferred = 0 "
        "AND (expires_at_ms IS NULL OR expires_at_ms > ?2) ORDER BY visible_at_ms, id LIMIT ?3",
        queue.id, toEpochMilliseconds(now), static_cast<std::int64_t>(wanted));
}

Result<std::optional<ReceivedMessage>> MessageReceiver::lock(const QueueRecord &queue, std::int64_t rowId,
                                                             std::int64_t visibleAtMs,
                                                             const std::optional<std::string> &attemptId,
                                                             ClockTime now)
{
    const std::int64_t nowMs = toEpochMilliseconds(now);
    if (queue.attributes.redrivePolicy) {
        Result<std::optional<std::int64_t>> count =
            selectOptionalInt64(*m_db, "SELECT receive_count FROM messages WHERE id = ?", rowId);
        if (!count)
            return count.error();
        if (count->value_or(0) >= queue.attributes.redrivePolicy->maxReceiveCount) {
            Result<bool> moved = moveToDeadLetterQueue(*m_db, queue, rowId, kMaxReceiveCountExceeded, now);
            if (!moved)
                return moved.error();
            if (*moved)
                return std::optional<ReceivedMessage>();
        }
    }
    // The token starts with the receive time, for the 12-hour cap of
    // ChangeMessageVisibility (the handle must match the stored one, so a
    // client cannot alter it).
    Result<std::string> key = receiptSealKey(*m_db);
    if (!key)
        return key.error();
    const std::string handle =
        makeReceiptHandle(*key, queue.id, rowId, std::to_string(nowMs) + "." + m_ids->newReceiptHandle());
    if (Status updated = executeStatement(*m_db, kLockSql, named(":handle", handle), named(":attempt", attemptId),
                                          named(":visible_at", visibleAtMs), named(":now", nowMs), named(":id", rowId));
        !updated)
        return updated.error();
    Result<CachedStatement> locked = prepareBound(*m_db, readLockedSql(), rowId);
    if (!locked)
        return locked.error();
    Result<bool> row = nextRow(**locked);
    if (!row)
        return row.error();
    if (!*row)
        return BrokerError(Code::InternalError, "message row " + std::to_string(rowId) + " vanished while locked");
    return std::optional<ReceivedMessage>(readMessage(**locked));
}

Result<std::vector<ReceivedMessage>> MessageReceiver::receiveDeferred(std::string_view queueName,
                                                                      const std::vector<std::int64_t> &sequenceNumbers,
                                                                      int lockSeconds, ClockTime now)
{
    Result<QueueRecord> queue = queue_records::require(*m_db, queueName);
    if (!queue)
        return queue.error();
    std::vector<ReceivedMessage> received;
    for (const std::int64_t number : sequenceNumbers) {
        auto row = selectRow(*m_db,
                             "SELECT id FROM messages WHERE queue_id = ? AND id = ? AND deferred = 1 AND NOT "
                             "(state = 'inflight' AND visible_at_ms > ?)",
                             queue->id, number, toEpochMilliseconds(now));
        if (!row)
            return row.error();
        if (!*row)
            return BrokerError(BrokerErrorCode::MessageNotInflight,
                               "Failed to lock one or more specified messages: the message with sequence number "
                                   + std::to_string(number) + " is not deferred or is locked.");
        (**row)->reset();
        const std::int64_t visibleAtMs = toEpochMilliseconds(now) + std::int64_t(lockSeconds) * 1000;
        Result<std::optional<ReceivedMessage>> locked = lock(*queue, number, visibleAtMs, std::nullopt, now);
        if (!locked)
            return locked.error();
        if (!*locked)
            continue;   // MaxDeliveryCount: moved to the dead-letter queue, an ordinary message there
        received.push_back(std::move(**locked));
    }
    return received;
}

Result<std::vector<ReceivedMessage>> MessageReceiver::retriedAttempt(const QueueRecord &queue,
                                                                     const std::string &attemptId, ClockTime now)
{
    Result<CachedStatement> select = prepareBound(
        *m_db,
        "SELECT " + std::string(kMessageColumns)
            + " FROM messages WHERE queue_id = ? AND receive_attempt_id = ? AND state = 'inflight' AND "
              "visible_at_ms > ? ORDER BY sequence_number, id",
        queue.id, attemptId, toEpochMilliseconds(now));
    if (!select)
        return select.error();
    std::vector<ReceivedMessage> messages;
    if (Status read = forEachRow(**select, [&](Statement &row) { messages.push_back(readMessage(row)); }); !read)
        return read.error();
    return messages;
}

Result<ReceiveResult> MessageReceiver::receive(std::string_view queueName, const ReceiveRequest &request, ClockTime now)
{
    if (request.maxNumberOfMessages < 1 || request.maxNumberOfMessages > static_cast<int>(kMaxBatchEntries))
        return BrokerError(Code::InvalidParameterValue,
                           "Value " + std::to_string(request.maxNumberOfMessages)
                               + " for parameter MaxNumberOfMessages is invalid. Reason: Must be between 1 and 10, if provided.");
    if (request.waitTimeSeconds && (*request.waitTimeSeconds < 0 || *request.waitTimeSeconds > QueueAttributes::kMaxReceiveWaitTime))
        return BrokerError(Code::InvalidParameterValue,
                           "Value " + std::to_string(*request.waitTimeSeconds)
                               + " for parameter WaitTimeSeconds is invalid. Reason: Must be >= 0 and <= 20, if provided.");
    if (request.visibilityTimeout)
        if (Status valid = checkVisibilityTimeout(*request.visibilityTimeout); !valid)
            return valid.error();
    if (request.receiveRequestAttemptId && !isSqsIdentifier(*request.receiveRequestAttemptId))
        return BrokerError(Code::InvalidParameterValue,
                           "Value " + echoedValue(*request.receiveRequestAttemptId)
                               + " for parameter ReceiveRequestAttemptId is invalid. Reason: ReceiveRequestAttemptId "
                                 "can only include alphanumeric and punctuation characters. 1 to 128 in length.");
    Result<QueueRecord> queue = queue_records::require(*m_db, queueName);
    if (!queue)
        return queue.error();
    if (Status touched = queue_records::touch(*m_db, *queue, now); !touched)
        return touched.error();
    // A few expired messages go here; a backlog goes in the lifetime unit's chunks
    // (the choice of messages skips the expired ones still there).
    Result<std::int64_t> expired = message_lifetime::applyExpiry(*m_db, *queue, now, kExpiryOnReceive);
    if (!expired)
        return expired.error();

    const std::int64_t nowMs = toEpochMilliseconds(now);
    ReceiveResult result;
    bool deadLettered = *expired > 0 && queue->attributes.deadLetteringOnMessageExpiration;
    const std::optional<std::string> attemptId = queue->isFifo() ? request.receiveRequestAttemptId : std::nullopt;
    if (attemptId) {
        Result<std::vector<ReceivedMessage>> retried = retriedAttempt(*queue, *attemptId, now);
        if (!retried)
            return retried.error();
        if (!retried->empty()) {
            result.messages = std::move(retried).value();
            Result<std::optional<ClockTime>> next = nextVisibleAt(*m_db, queue->id, nowMs);
            if (!next)
                return next.error();
            result.nextVisibleAt = *next;
            return result;
        }
    }

    const std::size_t wanted = static_cast<std::size_t>(request.maxNumberOfMessages);
    const int visibilityTimeout = request.visibilityTimeout.value_or(queue->attributes.visibilityTimeout);
    std::int64_t visibleAtMs = nowMs + std::int64_t(visibilityTimeout) * 1000;
    if (request.session) {
        Result<ClockTime> sessionLock = servicebus_sessions::requireLock(*m_db, queue->id, *request.session, now);
        if (!sessionLock)
            return sessionLock.error();
        visibleAtMs = toEpochMilliseconds(*sessionLock);
    }
    for (;;) {
        const std::size_t missing = wanted - result.messages.size();
        Result<std::vector<std::int64_t>> candidates = request.session
            ? servicebus_sessions::receivable(*m_db, queue->id, request.session->sessionId, missing, now)
            : queue->isFifo() ? FifoGroupGate(*m_db).receivable(queue->id, missing, now)
                              : chooseStandard(*queue, missing, now);
        if (!candidates)
            return candidates.error();
        bool movedAny = false;
        for (const std::int64_t rowId : *candidates) {
            if (result.messages.size() == wanted)
                break;
            Result<std::optional<ReceivedMessage>> locked = lock(*queue, rowId, visibleAtMs, attemptId, now);
            if (!locked)
                return locked.error();
            if (!locked->has_value()) {
                movedAny = true;
                deadLettered = true;
                continue;
            }
            result.messages.push_back(std::move(**locked));
        }
        if (!movedAny || result.messages.size() == wanted || candidates->empty())
            break;
    }
    Result<std::optional<ClockTime>> next = nextVisibleAt(*m_db, queue->id, nowMs);
    if (!next)
        return next.error();
    result.nextVisibleAt = *next;
    if (deadLettered && queue->deadLetterQueueName() != queue->name)
        result.deadLetterQueue = queue->deadLetterQueueName();
    return result;
}

Status MessageReceiver::deleteOne(const QueueRecord &queue, std::string_view receiptHandle)
{
    Result<std::string> key = receiptSealKey(*m_db);
    if (!key)
        return key.error();
    const std::optional<std::int64_t> rowId = receiptHandleMessageRow(*key, receiptHandle, queue.id);
    if (!rowId)
        return invalidHandle(receiptHandle);
    if (Status deleted = executeStatement(*m_db,
                                          "DELETE FROM messages WHERE id = ? AND queue_id = ? AND receipt_handle = ?",
                                          *rowId, queue.id, receiptHandle);
        !deleted)
        return deleted;
    // A handle from before seals existed is only known to be ours while it is current.
    if (m_db->changes() == 0 && !isSealedReceiptHandle(receiptHandle))
        return invalidHandle(receiptHandle);
    return {};
}

Status MessageReceiver::changeOne(const QueueRecord &queue, std::string_view receiptHandle, int visibilityTimeout,
                                  ClockTime now)
{
    Result<std::string> key = receiptSealKey(*m_db);
    if (!key)
        return key.error();
    const std::optional<std::int64_t> rowId = receiptHandleMessageRow(*key, receiptHandle, queue.id);
    if (!rowId)
        return invalidHandle(receiptHandle);
    if (Status valid = checkVisibilityTimeout(visibilityTimeout); !valid)
        return valid;
    const std::int64_t nowMs = toEpochMilliseconds(now);
    const std::int64_t visibleAtMs = nowMs + std::int64_t(visibilityTimeout) * 1000;
    if (const std::optional<std::int64_t> received = receivedAtMs(receiptHandle);
        received && visibleAtMs - *received > MessageReceiver::kMaxInvisibleMs)
        return BrokerError(Code::InvalidParameterValue,
                           "Value " + std::to_string(visibilityTimeout)
                               + " for parameter VisibilityTimeout is invalid. Reason: Total VisibilityTimeout for "
                                 "the message is beyond the limit [43200 seconds]");
    if (Status changed = executeStatement(
            *m_db,
            "UPDATE messages SET visible_at_ms = ? WHERE id = ? AND queue_id = ? AND receipt_handle = ? AND "
            "state = 'inflight' AND visible_at_ms > ?",
            visibleAtMs, *rowId, queue.id, receiptHandle, nowMs);
        !changed)
        return changed;
    if (m_db->changes() == 0)
        return BrokerError(Code::MessageNotInflight);
    return {};
}

Status MessageReceiver::deleteMessage(std::string_view queueName, std::string_view receiptHandle, ClockTime)
{
    Result<QueueRecord> queue = queue_records::require(*m_db, queueName);
    if (!queue)
        return queue.error();
    return deleteOne(*queue, receiptHandle);
}

Status MessageReceiver::changeVisibility(std::string_view queueName, std::string_view receiptHandle,
                                         int visibilityTimeout, ClockTime now)
{
    Result<QueueRecord> queue = queue_records::require(*m_db, queueName);
    if (!queue)
        return queue.error();
    return changeOne(*queue, receiptHandle, visibilityTimeout, now);
}

Result<std::vector<BatchEntryResult<bool>>> MessageReceiver::deleteMessageBatch(
    std::string_view queueName, const std::vector<BatchEntry<std::string>> &entries, ClockTime)
{
    if (Status ids = checkBatchEntries(entries); !ids)
        return ids.error();
    Result<QueueRecord> queue = queue_records::require(*m_db, queueName);
    if (!queue)
        return queue.error();
    std::vector<BatchEntryResult<bool>> results;
    results.reserve(entries.size());
    for (const auto &entry : entries) {
        Status done = deleteOne(*queue, entry.request);
        if (!done && done.error().code == Code::InternalError)
            return done.error();
        results.push_back({entry.id, done ? std::optional<bool>(true) : std::nullopt,
                           done ? std::nullopt : std::optional<BrokerError>(done.error())});
    }
    return results;
}

Result<std::vector<BatchEntryResult<bool>>> MessageReceiver::changeVisibilityBatch(
    std::string_view queueName, const std::vector<BatchEntry<VisibilityChange>> &entries, ClockTime now)
{
    if (Status ids = checkBatchEntries(entries); !ids)
        return ids.error();
    Result<QueueRecord> queue = queue_records::require(*m_db, queueName);
    if (!queue)
        return queue.error();
    std::vector<BatchEntryResult<bool>> results;
    results.reserve(entries.size());
    for (const auto &entry : entries) {
        Status done = changeOne(*queue, entry.request.receiptHandle, entry.request.visibilityTimeout, now);
        if (!done && done.error().code == Code::InternalError)
            return done.error();
        results.push_back({entry.id, done ? std::optional<bool>(true) : std::nullopt,
                           done ? std::nullopt : std::optional<BrokerError>(done.error())});
    }
    return results;
}

// The start of the last purge sits in `settings`; a queue re-created under
// the same row id is newer than that purge, so it does not inherit it.
Result<MessageReceiver::PurgeProgress> MessageReceiver::purge(std::string_view queueName, ClockTime now)
{
    Result<QueueRecord> queue = queue_records::require(*m_db, queueName);
    if (!queue)
        return queue.error();
    const std::int64_t nowMs = toEpochMilliseconds(now);
    const std::string key = purgeKey(queue->id);
    Result<std::optional<std::int64_t>> last =
        selectOptionalInt64(*m_db, "SELECT CAST(value AS INTEGER) FROM settings WHERE key = ?", key);
    if (!last)
        return last.error();
    if (*last && **last >= toEpochMilliseconds(queue->created) && nowMs - **last < kPurgeIntervalMs)
        return BrokerError(Code::PurgeQueueInProgress, "Only one PurgeQueue operation on " + queue->name
                                                           + " is allowed every 60 seconds.");
    if (Status noted = executeStatement(*m_db, "INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)", key,
                                        std::to_string(nowMs));
        !noted)
        return noted.error();
    Result<std::int64_t> lastRow = bulk_removal::lastMessageRowId(*m_db, queue->id);
    if (!lastRow)
        return lastRow.error();
    const purge_progress::PendingPurge progress{queue->id, queue->name, *lastRow};
    if (Status noted = purge_progress::note(*m_db, progress.queueId, progress.upToRowId); !noted)
        return noted.error();
    Result<bool> more = purge_progress::removeChunk(*m_db, progress);
    if (!more)
        return more.error();
    return PurgeProgress{progress, *more};
}

} // namespace relaydesk
