// SPDX-License-Identifier: MIT
#include "broker/queues/message_sender.h"

#include "broker/echoed_value.h"

#include "broker/id_source.h"
#include "broker/queues/message_digest.h"
#include "broker/queues/message_text.h"
#include "broker/queues/pending_sends.h"
#include "broker/queues/queue_records.h"
#include "broker/store_calls.h"

#include <algorithm>

namespace relaydesk {

namespace {

using Code = BrokerErrorCode;

BrokerError invalidParameter(std::string_view name, std::string_view value, std::string_view reason)
{
    return BrokerError(Code::InvalidParameterValue, "Value " + echoedValue(value) + " for parameter "
                                                        + std::string(name) + " is invalid. Reason: "
                                                        + std::string(reason));
}

// SQS message attribute names: 1–256 of [A-Za-z0-9_.-], not starting or
// ending with '.', no "..", not starting with "AWS." or "Amazon." (any case).
bool isValidAttributeName(std::string_view name)
{
    if (name.empty() || name.size() > 256 || name.front() == '.' || name.back() == '.'
        || name.find("..") != std::string_view::npos)
        return false;
    const auto lower = [](std::string_view text) {
        std::string out(text);
        for (char &c : out)
            if (c >= 'A' && c <= 'Z')
                c = static_cast<char>(c - 'A' + 'a');
        return out;
    };
    const std::string folded = lower(name);
    if (folded.starts_with("aws.") || folded.starts_with("amazon."))
        return false;
    return std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-'
            || c == '.';
    });
}

Status checkMessageAttributes(const MessageAttributes &attributes)
{
    if (attributes.size() > MessageSender::kMaxMessageAttributes)
        return BrokerError(Code::InvalidParameterValue, "Number of message attributes [" + std::to_string(attributes.size())
                                                            + "] exceeds the allowed maximum [10].");
    for (const auto &[name, value] : attributes) {
        if (!isValidAttributeName(name))
            return BrokerError(Code::InvalidParameterValue,
                               "Message (user) attribute name '" + echoedValue(name) + "' is invalid: 1 to 256 of "
                               "[A-Za-z0-9_.-], no leading, trailing or double '.', no 'AWS.' or 'Amazon.' prefix.");
        const std::string_view base = value.baseType();
        if (base != "String" && base != "Number" && base != "Binary")
            return BrokerError(Code::InvalidParameterValue,
                               "The type of message (user) attribute '" + name + "' is invalid. You must use only the "
                                   "following supported type prefixes: Binary, Number, String.");
        if (value.isBinary() ? value.binaryValue.empty() : value.stringValue.empty())
            return BrokerError(Code::InvalidParameterValue,
                               "Message (user) attribute '" + name + "' must contain a non-empty value of type '"
                                   + std::string(base) + "'.");
    }
    return checkMessageAttributeValues(attributes, Code::InvalidParameterValue);
}

std::optional<std::int64_t> seconds(const std::optional<int> &value)
{
    return value ? std::optional<std::int64_t>(*value) : std::nullopt;
}

} // namespace

Status checkMessageBody(std::string_view body, const MessageAttributes &attributes, int maximumMessageSize)
{
    if (body.empty())
        return BrokerError(Code::InvalidParameterValue,
                           "The request must contain the parameter MessageBody.");
    std::size_t size = body.size();
    for (const auto &[name, value] : attributes)
        size += name.size() + value.dataType.size() + value.stringValue.size() + value.binaryValue.size();
    if (size > static_cast<std::size_t>(maximumMessageSize))
        return BrokerError(Code::InvalidParameterValue, "One or more parameters are invalid. Reason: Message must be "
                                                        "shorter than " + std::to_string(maximumMessageSize) + " bytes.");
    if (!isSqsMessageText(body))
        return BrokerError(Code::InvalidMessageContents, "Invalid characters found. Valid unicode characters are "
                                                         "#x9 | #xA | #xD | #x20 to #xD7FF | #xE000 to #xFFFD | "
                                                         "#x10000 to #x10FFFF");
    return {};
}

Status MessageSender::check(const QueueRecord &queue, const SendRequest &request) const
{
    if (Status attributes = checkMessageAttributes(request.attributes); !attributes)
        return attributes;
    if (Status body = checkMessageBody(request.body, request.attributes, queue.attributes.maximumMessageSize); !body)
        return body;
    if (request.timeToLiveSeconds && *request.timeToLiveSeconds < 1)
        return invalidParameter("TimeToLive", std::to_string(*request.timeToLiveSeconds), "must be at least 1 second.");
    if (request.delaySeconds) {
        if (*request.delaySeconds < 0 || *request.delaySeconds > QueueAttributes::kMaxDelaySeconds)
            return invalidParameter("DelaySeconds", std::to_string(*request.delaySeconds),
                                    "must be between 0 and 900, if provided.");
        if (queue.isFifo())
            return invalidParameter("DelaySeconds", std::to_string(*request.delaySeconds),
                                    "The request include parameter that is not valid for this queue type");
    }
    if (!queue.isFifo()) {
        if (request.deduplicationId)
            return BrokerError(Code::InvalidParameterValue,
                               "The request include parameter MessageDeduplicationId that is not valid for this queue type");
        return {};
    }
    if (!request.groupId)
        return BrokerError(Code::MissingParameter, "The request must contain the parameter MessageGroupId.");
    if (!isSqsIdentifier(*request.groupId))
        return invalidParameter("MessageGroupId", *request.groupId,
                                "MessageGroupId can only include alphanumeric and punctuation characters. 1 to 128 in length.");
    if (request.deduplicationId && !isSqsIdentifier(*request.deduplicationId))
        return invalidParameter("MessageDeduplicationId", *request.deduplicationId,
                                "MessageDeduplicationId can only include alphanumeric and punctuation characters. 1 to 128 in length.");
    if (!request.deduplicationId && !queue.attributes.contentBasedDeduplication)
        return BrokerError(Code::InvalidParameterValue,
                           "The queue should either have ContentBasedDeduplication enabled or MessageDeduplicationId "
                           "provided explicitly");
    return {};
}

// After a send call: the new messages into the queue's depth counters and
// the queue's idle clock (last_used_ms = max(last_used_ms, now)), one UPDATE
// of its row — or handed to the PendingSends with the rows. With nothing
// stored (duplicates, refused entries) only the clock, skipped when it would
// change nothing.
Status MessageSender::recordSends(const QueueRecord &queue, const queue_depths::SentTally &tally, ClockTime now)
{
    if (tally.stored > 0 && m_pending && !queue.isFifo()) {
        m_pending->addTally(queue.id, tally, toEpochMilliseconds(now));
        return {};
    }
    if (tally.stored > 0)
        return queue_depths::addSent(*m_db, queue.id, tally, now);
    return queue_records::touch(*m_db, queue, now);
}

Result<SendReceipt> MessageSender::enqueue(const QueueRecord &queue, const SendRequest &request, ClockTime now,
                                           queue_depths::SentTally &tally)
{
    const std::int64_t nowMs = toEpochMilliseconds(now);
    SendReceipt receipt;

    std::optional<std::string> dedupKey;
    std::optional<std::int64_t> sequence;
    if (queue.isFifo()) {
        const std::string dedupId =
            request.deduplicationId ? *request.deduplicationId : contentDeduplicationId(request.body);
        dedupKey = queue.attributes.deduplicationScope == DeduplicationScope::MessageGroup
            ? *request.groupId + '\x1f' + dedupId
            : dedupId;
        Result<CachedStatement> seen = prepareBound(
            *m_db,
            "SELECT message_id, sequence_number FROM fifo_dedup WHERE queue_id = ? AND dedup_id = ? AND expires_ms > ?",
            queue.id, *dedupKey, nowMs);
        if (!seen)
            return seen.error();
        const Result<bool> row = nextRow(**seen);
        if (!row)
            return row.error();
        if (*row) {
            receipt.messageId = (*seen)->columnText(0);
            receipt.sequenceNumber = (*seen)->columnOptionalInt64(1);
            receipt.duplicate = true;
            return receipt;
        }
        Result<std::int64_t> next = queue_records::takeSequenceNumber(*m_db, queue.id);
        if (!next)
            return next.error();
        sequence = *next;
    }
    receipt.messageId = m_ids->newMessageId();
    receipt.sequenceNumber = sequence;

    // docs/behaviour.md §6: a scheduled message is enqueued at its scheduled time, and its
    // TTL counts from then; the TTL is cut to the queue's default TTL and
    // retention period.
    const bool scheduled = request.scheduledEnqueueTime && *request.scheduledEnqueueTime > now;
    const std::int64_t enqueuedMs = scheduled ? toEpochMilliseconds(*request.scheduledEnqueueTime) : nowMs;
    const std::int64_t cap = queue.attributes.timeToLiveCap();
    const std::int64_t ttl = std::min(request.timeToLiveSeconds.value_or(cap), cap);
    const std::int64_t delay = seconds(request.delaySeconds).value_or(queue.attributes.delaySeconds);
    const std::int64_t visibleAtMs = scheduled ? enqueuedMs : nowMs + delay * 1000;

    if (m_pending && !queue.isFifo()) {
        m_pending->add(PendingSends::Row{receipt.messageId, queue.id, request.body,
                                         queue_records::writeMessageAttributes(request.attributes), request.groupId,
                                         nowMs, scheduled ? std::optional<std::int64_t>(enqueuedMs) : std::nullopt,
                                         enqueuedMs, visibleAtMs, enqueuedMs + ttl * 1000,
                                         scheduled ? "scheduled" : "queued",
                                         request.deadLetterReason ? std::optional<std::string>(*request.deadLetterReason)
                                                                  : std::nullopt});
    } else if (Status inserted = executeStatement(
            *m_db,
            "INSERT INTO messages (message_id, queue_id, body, attributes, group_id, dedup_id, sequence_number, "
            "sent_ms, scheduled_ms, enqueued_ms, visible_at_ms, expires_at_ms, state, dead_letter_reason) VALUES "
            "(:message_id, :queue, :body, :attributes, :group, :dedup, :sequence, :now, :scheduled, :enqueued, "
            ":visible_at, :expires_at, :state, :reason)",
            named(":message_id", receipt.messageId), named(":queue", queue.id), named(":body", request.body),
            named(":attributes", queue_records::writeMessageAttributes(request.attributes)),
            named(":group", request.groupId), named(":dedup", queue.isFifo() ? dedupKey : std::nullopt),
            named(":sequence", sequence), named(":now", nowMs),
            named(":scheduled", scheduled ? std::optional<std::int64_t>(enqueuedMs) : std::nullopt),
            named(":enqueued", enqueuedMs), named(":visible_at", visibleAtMs),
            named(":expires_at", enqueuedMs + ttl * 1000),
            named(":state", std::string_view(scheduled ? "scheduled" : "queued")),
            named(":reason", request.deadLetterReason));
        !inserted)
        return inserted.error();
    tally.add(scheduled ? "scheduled" : "queued", visibleAtMs, request.deadLetterReason.has_value(), queue.depthMarkMs);

    if (dedupKey) {
        if (Status remembered = executeStatement(
                *m_db,
                "INSERT OR REPLACE INTO fifo_dedup (queue_id, dedup_id, message_id, sequence_number, expires_ms) "
                "VALUES (?, ?, ?, ?, ?)",
                queue.id, *dedupKey, receipt.messageId, sequence, nowMs + kDeduplicationWindowMs);
            !remembered)
            return remembered.error();
    }
    return receipt;
}

Result<SendReceipt> MessageSender::send(std::string_view queueName, const SendRequest &request, ClockTime now)
{
    Result<QueueRecord> queue = queue_records::require(*m_db, queueName);
    if (!queue)
        return queue.error();
    if (Status valid = check(*queue, request); !valid)
        return valid.error();
    queue_depths::SentTally tally;
    Result<SendReceipt> receipt = enqueue(*queue, request, now, tally);
    if (!receipt)
        return receipt;
    if (Status recorded = recordSends(*queue, tally, now); !recorded)
        return recorded.error();
    return receipt;
}

Result<std::vector<BatchEntryResult<SendReceipt>>> MessageSender::sendBatch(
    std::string_view queueName, const std::vector<BatchEntry<SendRequest>> &entries, ClockTime now)
{
    if (Status ids = checkBatchEntries(entries); !ids)
        return ids.error();
    Result<QueueRecord> queue = queue_records::require(*m_db, queueName);
    if (!queue)
        return queue.error();
    std::size_t total = 0;
    for (const auto &entry : entries)
        total += entry.request.body.size();
    if (total > static_cast<std::size_t>(QueueAttributes::kMaxMaximumMessageSize))
        return BrokerError(Code::BatchRequestTooLong, "Batch requests cannot be longer than 1048576 bytes. You have sent "
                                                          + std::to_string(total) + " bytes.");
    std::vector<BatchEntryResult<SendReceipt>> results;
    results.reserve(entries.size());
    queue_depths::SentTally tally;
    for (const auto &entry : entries) {
        BatchEntryResult<SendReceipt> result{entry.id, std::nullopt, std::nullopt};
        if (Status valid = check(*queue, entry.request); !valid) {
            result.error = valid.error();
        } else {
            Result<SendReceipt> receipt = enqueue(*queue, entry.request, now, tally);
            if (!receipt)
                return receipt.error();   // a store failure fails the whole unit
            result.value = std::move(receipt).value();
        }
        results.push_back(std::move(result));
    }
    if (Status recorded = recordSends(*queue, tally, now); !recorded)
        return recorded.error();
    return results;
}

} // namespace relaydesk
