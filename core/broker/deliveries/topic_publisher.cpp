// SPDX-License-Identifier: MIT
#include "broker/deliveries/topic_publisher.h"

#include "broker/echoed_value.h"

#include "broker/deliveries/attempt_log.h"
#include "broker/queues/dead_letter_queue.h"
#include "broker/id_source.h"
#include "broker/deliveries/pending_delivery_step.h"
#include "broker/queues/message_digest.h"
#include "broker/queues/message_sender.h"
#include "broker/queues/message_text.h"
#include "broker/queues/queue_records.h"
#include "broker/deliveries/sns_envelope.h"
#include "json/bounded_json.h"
#include "broker/store_calls.h"
#include "broker/topics/subscription_records.h"
#include "broker/topics/topic_records.h"
#include "store/database.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace relaydesk {

namespace {

using Code = BrokerErrorCode;

BrokerError invalid(std::string_view reason)
{
    return BrokerError(Code::SnsInvalidParameter, "Invalid parameter: " + std::string(reason));
}

// The smaller of the entity default TTLs bounds the message's own (docs/behaviour.md §6).
std::optional<std::int64_t> cappedTtlSeconds(std::optional<std::int64_t> message, std::optional<std::int64_t> topic,
                                             std::optional<std::int64_t> subscription)
{
    std::optional<std::int64_t> bound = topic;
    if (subscription)
        bound = bound ? std::min(*bound, *subscription) : *subscription;
    if (!message)
        return bound;
    return bound ? std::min(*message, *bound) : *message;
}

// A FIFO topic's earlier publish with this deduplication id inside the window.
Result<std::optional<PublishReceipt>> findDuplicate(Database &db, std::int64_t topicId, const std::string &dedupId,
                                                    ClockTime now)
{
    Result<std::optional<CachedStatement>> row = selectRow(
        db, "SELECT message_id, sequence_number FROM topic_dedup WHERE topic_id = ? AND dedup_id = ? AND expires_ms > ?",
        topicId, dedupId, toEpochMilliseconds(now));
    if (!row)
        return row.error();
    if (!*row)
        return std::optional<PublishReceipt>{};
    Statement &found = ***row;
    return std::optional<PublishReceipt>(PublishReceipt{found.columnText(0), found.columnOptionalInt64(1), true, {}});
}

// A fan-out that an SQS queue refused (gone, or the message too large for
// it): nothing acknowledged vanishes. The subscription's
// dead-letter queue takes the message when it has one that accepts it, and
// the attempt log records the refusal either way: outcome "permanent",
// errorKind "queueRefused", final "deadLettered" or "discarded".
Status recordRefusedFanOut(Database &db, IdSource &ids, const SubscriptionRecord &subscription,
                           const std::string &subscriptionArn, const std::string &messageId, const SendRequest &send,
                           ClockTime now)
{
    bool deadLettered = false;
    if (const auto &redrive = subscription.attributes.redrivePolicy) {
        const std::optional<ArnParts> arn = splitArn(redrive->deadLetterTargetArn);
        if (arn && arn->service == "sqs") {
            SendRequest deadLetter = send;
            deadLetter.deadLetterReason = kDeliveryRefused;
            Result<SendReceipt> sent = MessageSender(db, ids).send(arn->resource, deadLetter, now);
            if (!sent && sent.error().code == Code::InternalError)
                return sent.error();
            deadLettered = sent.ok();
        }
    }
    AttemptRecord entry;
    entry.messageId = messageId;
    entry.subscriptionArn = subscriptionArn;
    entry.attempt = 1;
    entry.phase = "initial";
    entry.plannedAt = now;
    entry.startedAt = now;
    entry.errorKind = "queueRefused";
    entry.outcome = std::string(attemptOutcomeName(AttemptOutcome::Permanent));
    entry.final = std::string(deliveryEndName(deadLettered ? DeliveryEnd::DeadLettered : DeliveryEnd::Discarded));
    Result<std::int64_t> logged = attempt_log::append(db, entry);
    if (!logged)
        return logged.error();
    return {};
}

} // namespace

Result<std::string> defaultMessageOfJsonStructure(std::string_view message)
{
    const nlohmann::json parsed = parseBoundedJson<nlohmann::json>(message);
    if (parsed.is_discarded() || !parsed.is_object() || !parsed.contains("default") || !parsed["default"].is_string())
        return BrokerError(Code::SnsInvalidParameter,
                           "Invalid parameter: Message Structure - No default entry in JSON message body");
    return parsed["default"].get<std::string>();
}

std::size_t publishedSize(const PublishRequest &request)
{
    std::size_t size = request.message.size();
    for (const auto &[name, value] : request.attributes)
        size += name.size() + value.dataType.size() + value.stringValue.size() + value.binaryValue.size();
    return size;
}

Status TopicPublisher::check(const TopicRecord &topic, const PublishRequest &request) const
{
    if (request.message.empty())
        return invalid("Empty message");
    // Decision (docs/harness.md "Protocol decisions"): a message SQS could not hold is refused here rather
    // than acknowledged and then lost at an SQS subscription.
    if (!isSqsMessageText(request.message))
        return invalid("Message contains characters that are not allowed. Valid unicode characters are #x9 | #xA | "
                       "#xD | #x20 to #xD7FF | #xE000 to #xFFFD | #x10000 to #x10FFFF");
    if (publishedSize(request) > kMaxMessageBytes)
        return invalid("Message too long");
    if (request.subject) {
        const std::string &subject = *request.subject;
        const bool control = std::any_of(subject.begin(), subject.end(),
                                         [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; });
        if (subject.empty() || subject.size() > kMaxSubjectLength || control)
            return invalid("Subject");
    }
    if (request.attributes.size() > kMaxMessageAttributes)
        return BrokerError(Code::SnsInvalidParameterValue,
                           "Number of message attributes [" + std::to_string(request.attributes.size())
                               + "] exceeds the allowed maximum [10].");
    for (const auto &[name, value] : request.attributes) {
        const std::string_view base = value.baseType();
        if (name.empty() || name.size() > 256 || (base != "String" && base != "Number" && base != "Binary"))
            return BrokerError(Code::SnsInvalidParameterValue,
                               "The message attribute '" + echoedValue(name) + "' has an invalid message attribute type.");
        if (value.isBinary() ? value.binaryValue.empty() : value.stringValue.empty())
            return BrokerError(Code::SnsInvalidParameterValue,
                               "The message attribute '" + name + "' must contain non-empty message attribute value.");
    }
    if (Status values = checkMessageAttributeValues(request.attributes, Code::SnsInvalidParameterValue); !values)
        return values;
    if (!topic.isFifo()) {
        if (request.groupId)
            return invalid("MessageGroupId Reason: The request includes MessageGroupId parameter that is not valid for this topic type");
        if (request.deduplicationId)
            return invalid("MessageDeduplicationId Reason: The request includes MessageDeduplicationId parameter that is not valid for this topic type");
    } else {
        if (!request.groupId || request.groupId->empty())
            return invalid("The MessageGroupId parameter is required for FIFO topics");
        if (request.groupId->size() > kMaxIdLength)
            return invalid("MessageGroupId Reason: must be at most 128 characters");
        if (request.deduplicationId && (request.deduplicationId->empty() || request.deduplicationId->size() > kMaxIdLength))
            return invalid("MessageDeduplicationId Reason: must be 1 to 128 characters");
        if (!request.deduplicationId && !topic.attributes.contentBasedDeduplication)
            return invalid("The topic should either have ContentBasedDeduplication enabled or MessageDeduplicationId provided explicitly");
    }
    if (request.timeToLiveSeconds && *request.timeToLiveSeconds < 1)
        return invalid("TimeToLive Reason: must be at least 1 second");
    return {};
}

Result<PublishReceipt> TopicPublisher::publish(std::string_view topicName, const PublishRequest &request, ClockTime now)
{
    Result<TopicRecord> topic = topic_records::require(*m_db, topicName);
    if (!topic)
        return topic.error();
    if (Status valid = check(*topic, request); !valid)
        return valid.error();
    return publishChecked(*topic, request, now);
}

Result<std::vector<BatchEntryResult<PublishReceipt>>> TopicPublisher::publishBatch(
    std::string_view topicName, const std::vector<BatchEntry<PublishRequest>> &entries, ClockTime now)
{
    if (Status ids = checkBatchEntries(entries); !ids) {
        switch (ids.error().code) {
        case Code::EmptyBatchRequest: return BrokerError(Code::SnsEmptyBatchRequest);
        case Code::TooManyEntriesInBatchRequest: return BrokerError(Code::SnsTooManyEntriesInBatchRequest);
        case Code::BatchEntryIdsNotDistinct: return BrokerError(Code::SnsBatchEntryIdsNotDistinct);
        case Code::InvalidBatchEntryId: return BrokerError(Code::SnsInvalidBatchEntryId);
        default: return ids.error();
        }
    }
    Result<TopicRecord> topic = topic_records::require(*m_db, topicName);
    if (!topic)
        return topic.error();
    std::size_t total = 0;
    for (const auto &entry : entries)
        total += publishedSize(entry.request);
    if (total > kMaxMessageBytes)
        return BrokerError(Code::SnsBatchRequestTooLong);
    std::vector<BatchEntryResult<PublishReceipt>> results;
    results.reserve(entries.size());
    for (const auto &entry : entries) {
        BatchEntryResult<PublishReceipt> result{entry.id, std::nullopt, std::nullopt};
        if (Status valid = check(*topic, entry.request); !valid) {
            result.error = valid.error();
        } else {
            Result<PublishReceipt> receipt = publishChecked(*topic, entry.request, now);
            if (!receipt && receipt.error().code == Code::InternalError)
                return receipt.error();   // storage failure: the caller rolls the whole batch back
            if (receipt)
                result.value = std::move(receipt).value();
            else
                result.error = receipt.error();
        }
        results.push_back(std::move(result));
    }
    return results;
}

Result<PublishReceipt> TopicPublisher::publishChecked(const TopicRecord &topic, const PublishRequest &request,
                                                      ClockTime now)
{
    std::optional<std::string> dedupId;
    if (topic.isFifo()) {
        dedupId = request.deduplicationId ? *request.deduplicationId : contentDeduplicationId(request.message);
        Result<std::optional<PublishReceipt>> duplicate = findDuplicate(*m_db, topic.id, *dedupId, now);
        if (!duplicate)
            return duplicate.error();
        if (duplicate->has_value())
            return std::move(**duplicate);
    }
    PublishReceipt receipt;
    receipt.messageId = m_ids->newMessageId();
    if (topic.isFifo()) {
        Result<std::int64_t> sequence = topic_records::takeSequenceNumber(*m_db, topic.id);
        if (!sequence)
            return sequence.error();
        receipt.sequenceNumber = *sequence;
        if (Status stored = executeStatement(*m_db,
                                             "INSERT OR REPLACE INTO topic_dedup (topic_id, dedup_id, message_id, "
                                             "sequence_number, expires_ms) VALUES (?, ?, ?, ?, ?)",
                                             topic.id, *dedupId, receipt.messageId, *sequence,
                                             toEpochMilliseconds(now) + kDeduplicationWindowMs);
            !stored)
            return stored.error();
    }
    if (Status touched = topic_records::touch(*m_db, topic.id, now); !touched)
        return touched.error();
    if (Status delivered = fanOut(topic, request, receipt, dedupId, now); !delivered)
        return delivered.error();
    return receipt;
}

Status TopicPublisher::fanOut(const TopicRecord &topic, const PublishRequest &request, PublishReceipt &receipt,
                              const std::optional<std::string> &dedupId, ClockTime now)
{
    Result<std::vector<SubscriptionRecord>> subscriptions = subscription_records::ofTopic(*m_db, topic.id, true);
    if (!subscriptions)
        return subscriptions.error();
    std::optional<std::int64_t> publishedId;   // the published_messages row, made for the first HTTP/S delivery
    for (const SubscriptionRecord &subscription : *subscriptions) {
        const SubscriptionAttributes &attributes = subscription.attributes;
        if (attributes.filterPolicy && !attributes.filterPolicy->policy.matches(request.attributes))
            continue;
        const std::optional<std::int64_t> ttl = cappedTtlSeconds(
            request.timeToLiveSeconds, topic.attributes.defaultMessageTimeToLive, attributes.defaultMessageTimeToLive);
        if (subscription.protocol == EndpointProtocol::Sqs) {
            Result<std::string> queueName = m_identity->queueNameFromArn(subscription.endpoint);
            if (!queueName)
                continue;
            SendRequest send;
            if (attributes.rawMessageDelivery) {
                send.body = request.message;
                send.attributes = request.attributes;
            } else {
                const std::string subscriptionArn = m_identity->subscriptionArn(topic.name, subscription.uuid);
                send.body = writeNotificationEnvelope(
                    SnsNotification{receipt.messageId, m_identity->topicArn(topic.name), subscriptionArn,
                                    request.subject, request.message, now, request.attributes},
                    *m_identity);
                if (m_sign && *m_sign)
                    send.body = (*m_sign)(std::move(send.body));
            }
            if (topic.isFifo()) {
                send.groupId = request.groupId;
                send.deduplicationId = dedupId;
            }
            send.timeToLiveSeconds = ttl;
            Result<SendReceipt> sent = MessageSender(*m_db, *m_ids).send(*queueName, send, now);
            if (!sent) {
                if (sent.error().code == BrokerErrorCode::InternalError)
                    return sent.error();
                // The queue refuses it (gone, too small): logged, dead-lettered when possible.
                if (Status logged = recordRefusedFanOut(*m_db, *m_ids, subscription,
                                                        m_identity->subscriptionArn(topic.name, subscription.uuid),
                                                        receipt.messageId, send, now);
                    !logged)
                    return logged;
                continue;
            }
            if (Status touched = subscription_records::touch(*m_db, subscription.id, now); !touched)
                return touched;
            if (!sent->duplicate)
                receipt.enqueuedInto.push_back(std::move(*queueName));
            continue;
        }
        if (!publishedId) {
            const std::optional<std::int64_t> topicTtl =
                cappedTtlSeconds(request.timeToLiveSeconds, topic.attributes.defaultMessageTimeToLive, std::nullopt);
            Status stored = executeStatement(
                *m_db,
                "INSERT INTO published_messages (message_id, topic_name, subject, body, attributes, group_id, "
                "dedup_id, sequence_number, published_ms, expires_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                receipt.messageId, topic.name, request.subject, request.message,
                queue_records::writeMessageAttributes(request.attributes), request.groupId, dedupId,
                receipt.sequenceNumber, toEpochMilliseconds(now),
                topicTtl ? std::optional<std::int64_t>(toEpochMilliseconds(now) + *topicTtl * 1000) : std::nullopt);
            if (!stored)
                return stored;
            publishedId = m_db->lastInsertRowId();
        }
        Status pending = executeStatement(
            *m_db,
            "INSERT INTO pending_deliveries (subscription_id, published_id, attempt, due_ms, expires_at_ms) "
            "VALUES (?, ?, 0, ?, ?)",
            subscription.id, *publishedId, toEpochMilliseconds(now),
            ttl ? std::optional<std::int64_t>(toEpochMilliseconds(now) + *ttl * 1000) : std::nullopt);
        if (!pending)
            return pending;
    }
    return {};
}

} // namespace relaydesk
