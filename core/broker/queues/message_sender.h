// SPDX-License-Identifier: MIT
#pragma once

#include "broker/clock_time.h"
#include "broker/queues/message_attributes.h"
#include "broker/queues/queue_batch.h"
#include "broker/queues/queue_depths.h"
#include "broker/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace relaydesk {

class Database;
class IdSource;
class PendingSends;
struct QueueRecord;

// One SendMessage (docs/behaviour.md §5, 6). Optional fields left empty take the queue's
// settings.
struct SendRequest {
    std::string body;
    MessageAttributes attributes;
    std::optional<int> delaySeconds;                 // 0–900; standard queues only (FIFO: per queue)
    std::optional<std::string> groupId;              // MessageGroupId: required on FIFO queues
    std::optional<std::string> deduplicationId;      // MessageDeduplicationId: FIFO only, ≤ 128
    std::optional<std::int64_t> timeToLiveSeconds;   // ≥ 1; capped by the queue's default TTL and retention
    std::optional<ClockTime> scheduledEnqueueTime;   // stored, invisible until then; TTL counts from it
    // Set by the broker only, never from a client: the message is a topic
    // subscription's dead letter, for this reason (dead_letter_queue.h).
    std::optional<std::string_view> deadLetterReason;
    // A Service Bus message's own MessageId, for duplicate detection
    // (servicebus_send_rules.h); the broker's message id is its own.
    std::optional<std::string> serviceBusMessageId;
};

// What SendMessage answers. A FIFO duplicate within the 5-minute window is
// answered with the first message's MessageId and SequenceNumber
// (`duplicate` true) and not enqueued again. (The MD5 digests SQS answers
// with are the SQS layer's, made on the connection's thread from the request:
// api/sqs/sqs_messages.h.)
struct SendReceipt {
    std::string messageId;
    std::optional<std::int64_t> sequenceNumber;  // FIFO only
    bool duplicate = false;
};

// SendMessage and SendMessageBatch on one queue (docs/behaviour.md §5.1, 5.2, 6, 10).
// Every check runs before anything is written, so an error changes nothing.
// A batch is refused whole for the docs/behaviour.md §10 batch rules and an unknown queue;
// otherwise each entry succeeds or fails on its own.
// Ownership: borrows `db` and `ids`. Thread safety: none — the thread of
// `db`, inside the caller's transaction; `now` is clock time.
class MessageSender final {
public:
    static constexpr std::int64_t kDeduplicationWindowMs = 5 * 60 * 1000;
    static constexpr std::size_t kMaxIdLength = 128;   // group and deduplication ids
    static constexpr std::size_t kMaxMessageAttributes = 10;

    // With `pending`, the messages of a standard queue and their counter
    // tally are handed to it (written set-based at its flush) instead of
    // written here; FIFO sends are written here always.
    MessageSender(Database &db, IdSource &ids, PendingSends *pending = nullptr)
        : m_db(&db), m_ids(&ids), m_pending(pending)
    {
    }

    Result<SendReceipt> send(std::string_view queueName, const SendRequest &request, ClockTime now);
    Result<std::vector<BatchEntryResult<SendReceipt>>> sendBatch(std::string_view queueName,
                                                                 const std::vector<BatchEntry<SendRequest>> &entries,
                                                                 ClockTime now);

private:
    Status check(const QueueRecord &queue, const SendRequest &request) const;
    // Inserts the message and counts it in `tally`, which the caller adds to
    // the queue's counters before its unit ends (queue_depths::addSent).
    Result<SendReceipt> enqueue(const QueueRecord &queue, const SendRequest &request, ClockTime now,
                                queue_depths::SentTally &tally);

    Status recordSends(const QueueRecord &queue, const queue_depths::SentTally &tally, ClockTime now);

    Database *m_db = nullptr;
    IdSource *m_ids = nullptr;
    PendingSends *m_pending = nullptr;
};

// The message body rules of SQS: 1 byte to the queue's MaximumMessageSize
// (body plus attribute names, types and values; InvalidParameterValue) and
// only the characters #x9 #xA #xD #x20–#xD7FF #xE000–#xFFFD #x10000–#x10FFFF
// in valid UTF-8 (InvalidMessageContents). Pure.
Status checkMessageBody(std::string_view body, const MessageAttributes &attributes, int maximumMessageSize);

} // namespace relaydesk
