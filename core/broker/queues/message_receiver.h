// SPDX-License-Identifier: MIT
#pragma once

#include "broker/clock_time.h"
#include "broker/queues/message_attributes.h"
#include "broker/queues/purge_progress.h"
#include "broker/queues/queue_batch.h"
#include "broker/queues/servicebus_session.h"
#include "broker/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace relaydesk {

class Database;
class IdSource;
struct QueueRecord;

// One ReceiveMessage (docs/behaviour.md §5). waitTimeSeconds is only range-checked here:
// the engine does the waiting, using ReceiveResult::nextVisibleAt.
struct ReceiveRequest {
    int maxNumberOfMessages = 1;                       // 1–10
    std::optional<int> visibilityTimeout;              // 0–43 200; the queue's when empty
    std::optional<int> waitTimeSeconds;                // 0–20
    std::optional<std::string> receiveRequestAttemptId;   // FIFO only
    // A Service Bus session receive: only that session's messages, in
    // sequence order, locked until the session's lock ends; the lock must
    // hold (MessageNotInflight otherwise; servicebus_session.h).
    std::optional<ServiceBusSessionHold> session;
};

// A received message with everything the SQS reply carries but its MD5
// digests (the SQS layer's, made from body and attributes on the
// connection's thread: api/sqs/sqs_messages.h).
struct ReceivedMessage {
    std::string messageId;
    std::string receiptHandle;
    std::string body;
    MessageAttributes attributes;
    ClockTime sentTimestamp{};                   // SentTimestamp
    int approximateReceiveCount = 0;             // ApproximateReceiveCount, this receive included
    ClockTime approximateFirstReceiveTimestamp{};
    std::optional<std::string> groupId;          // MessageGroupId
    std::optional<std::string> deduplicationId;  // MessageDeduplicationId (FIFO)
    std::optional<std::int64_t> sequenceNumber;  // SequenceNumber (FIFO)
    std::optional<std::string> deadLetterReason;
    std::optional<ClockTime> expiresAt;
    // For Service Bus (docs/behaviour.md §8.6): the row id (its sequence number), the
    // enqueue time, the end of this lock, a dead letter's description.
    std::int64_t storageId = 0;
    ClockTime enqueuedAt{};
    ClockTime lockedUntil{};
    std::optional<std::string> deadLetterDescription;
};

struct ReceiveResult {
    std::vector<ReceivedMessage> messages;
    // When the next message of this queue becomes visible (delay, schedule or
    // visibility timeout ends), for a long poll to wake; empty if none.
    std::optional<ClockTime> nextVisibleAt;
    // The dead-letter queue this receive may have moved messages into (over
    // maxReceiveCount, or expired with DeadLetteringOnMessageExpiration), for
    // the engine's change events and wake-ups; empty when it moved none.
    std::string deadLetterQueue;
};

struct VisibilityChange {
    std::string receiptHandle;
    int visibilityTimeout = 0;
};

// ReceiveMessage, DeleteMessage(+Batch), ChangeMessageVisibility(+Batch) and
// PurgeQueue (docs/behaviour.md §5.1–5.3, 6). As SQS: ChangeMessageVisibility cannot keep
// a message invisible more than 12 hours after the receive that locked it
// (InvalidParameterValue; the receive time travels in the receipt handle),
// and a second PurgeQueue of a queue within 60 s (clock time) of the last
// one is refused with PurgeQueueInProgress (the purge time is kept in
// `settings`, so it survives a restart). A receive never blocks; before choosing it
// applies expiry to the queue (docs/behaviour.md §6) and moves a message that has been
// received maxReceiveCount times to the dead-letter queue instead of
// returning it (docs/behaviour.md §5.3). FIFO queues: strict order per group, a group with
// a message in flight is skipped, one group is drained first, and a retried
// ReceiveRequestAttemptId returns the same messages and handles while they
// are still in flight.
// Receipt handles name their queue and message; a handle that is not one of
// ours is ReceiptHandleIsInvalid, one that is ours but no longer current (the
// message was deleted or received again) deletes nothing and succeeds, as in
// SQS.
// Ownership: borrows `db` and `ids`. Thread safety: none — the thread of
// `db`, inside the caller's transaction; `now` is clock time.
class MessageReceiver final {
public:
    static constexpr std::int64_t kMaxInvisibleMs = 43'200'000;   // 12 h since the receive
    static constexpr std::int64_t kPurgeIntervalMs = 60'000;

    MessageReceiver(Database &db, IdSource &ids) : m_db(&db), m_ids(&ids) {}

    Result<ReceiveResult> receive(std::string_view queueName, const ReceiveRequest &request, ClockTime now);
    Status deleteMessage(std::string_view queueName, std::string_view receiptHandle, ClockTime now);
    Result<std::vector<BatchEntryResult<bool>>> deleteMessageBatch(std::string_view queueName,
                                                                   const std::vector<BatchEntry<std::string>> &entries,
                                                                   ClockTime now);
    Status changeVisibility(std::string_view queueName, std::string_view receiptHandle, int visibilityTimeout,
                            ClockTime now);
    Result<std::vector<BatchEntryResult<bool>>> changeVisibilityBatch(
        std::string_view queueName, const std::vector<BatchEntry<VisibilityChange>> &entries, ClockTime now);
    // Begins deleting every message of the queue there now, in flight or not;
    // PurgeQueueInProgress within kPurgeIntervalMs of the previous purge
    // (nothing deleted then). Notes the purge in the store and deletes the
    // first chunk (purge_progress.h); when the answer says `more`, the caller
    // deletes the rest in units of their own with purge_progress::removeChunk
    // (and a broker that starts goes on with a purge it left noted).
    struct PurgeProgress {
        purge_progress::PendingPurge purge;
        bool more = false;
    };
    Result<PurgeProgress> purge(std::string_view queueName, ClockTime now);
    // Service Bus (docs/behaviour.md §8.6): locks the deferred messages of these sequence
    // numbers (their row ids) for `lockSeconds`, as a receive does (counted
    // as a delivery; MaxDeliveryCount dead-letters instead). One that is not
    // deferred in this queue, or is locked now, is MessageNotInflight and
    // locks nothing (the caller's unit rolls back).
    Result<std::vector<ReceivedMessage>> receiveDeferred(std::string_view queueName,
                                                         const std::vector<std::int64_t> &sequenceNumbers,
                                                         int lockSeconds, ClockTime now);

private:
    Result<std::vector<std::int64_t>> chooseStandard(const QueueRecord &queue, std::size_t wanted, ClockTime now);
    Result<std::optional<ReceivedMessage>> lock(const QueueRecord &queue, std::int64_t rowId,
                                                std::int64_t visibleAtMs, const std::optional<std::string> &attemptId,
                                                ClockTime now);
    Result<std::vector<ReceivedMessage>> retriedAttempt(const QueueRecord &queue, const std::string &attemptId,
                                                        ClockTime now);
    Status deleteOne(const QueueRecord &queue, std::string_view receiptHandle);
    Status changeOne(const QueueRecord &queue, std::string_view receiptHandle, int visibilityTimeout, ClockTime now);

    Database *m_db = nullptr;
    IdSource *m_ids = nullptr;
};

} // namespace relaydesk
