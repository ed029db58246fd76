// SPDX-License-Identifier: MIT
#pragma once

#include "broker/broker_identity.h"
#include "broker/clock_time.h"
#include "broker/queues/message_attributes.h"
#include "broker/queues/queue_batch.h"
#include "broker/result.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>
#include <vector>

namespace relaydesk {

class Database;
class IdSource;
struct SubscriptionRecord;
struct TopicRecord;

// One Publish (docs/behaviour.md §4, 6, 10).
struct PublishRequest {
    std::string message;
    std::optional<std::string> subject;              // ≤ 100 characters, one line
    MessageAttributes attributes;                    // ≤ 10
    std::optional<std::string> groupId;              // MessageGroupId: required on FIFO topics only
    std::optional<std::string> deduplicationId;      // FIFO only; else content hash with ContentBasedDeduplication
    std::optional<std::int64_t> timeToLiveSeconds;   // ≥ 1; capped by the topic's and subscription's default TTL
};

// Publish with MessageStructure "json": `message` must be a JSON object
// whose "default" member is a string, and that string is what is published
// (this broker keeps no per-protocol variants). Otherwise SnsInvalidParameter
// "Invalid parameter: Message Structure - No default entry in JSON message
// body". Pure.
Result<std::string> defaultMessageOfJsonStructure(std::string_view message);

// What Publish answers. A FIFO duplicate within 5 minutes gets the first
// message's id and sequence number (`duplicate`) and is not fanned out again.
struct PublishReceipt {
    std::string messageId;
    std::optional<std::int64_t> sequenceNumber;   // FIFO topics only
    bool duplicate = false;
    std::vector<std::string> enqueuedInto;         // the queues the fan-out enqueued it into (sqs subscriptions)
};

// Signs an SNS envelope (JSON in, JSON with "Signature" set out; the input
// unchanged when it cannot sign). Callable from the thread of the publish.
using EnvelopeSigner = std::function<std::string(std::string envelopeJson)>;

// Publish and PublishBatch on one topic, with the fan-out in the same
// transaction (docs/behaviour.md §4.6): every confirmed subscription whose FilterPolicy
// matches gets the message —
//  - sqs: enqueued into its queue with MessageSender (raw: the bare message
//    and the attributes as queue message attributes; else the JSON envelope);
//    FIFO topics pass group and deduplication id; the subscription's idle
//    clock is reset. A queue refusing the message (deleted since, too small
//    MaximumMessageSize) is skipped as SNS drops it; a storage failure fails
//    the publish.
//  - http/https: one published_messages row per message and one
//    pending_deliveries row (attempt 0, due now, its own expiry) per
//    subscription, for the delivery worker.
// The envelope enqueued for an sqs subscription is signed with `sign` when
// given (as AWS signs it, docs/behaviour.md §4.6), else its Signature is "".
// Pending subscriptions get nothing. The topic's idle clock is reset.
// Every check runs before anything is written, so an error changes nothing.
// Ownership: borrows `db`, `identity` and `ids`. Thread safety: none — the
// thread of `db`, inside the caller's transaction; `now` is clock time.
class TopicPublisher final {
public:
    static constexpr std::size_t kMaxMessageBytes = 256 * 1024;   // message + attributes (docs/behaviour.md §10)
    static constexpr std::size_t kMaxSubjectLength = 100;
    static constexpr std::size_t kMaxMessageAttributes = 10;
    static constexpr std::size_t kMaxIdLength = 128;
    static constexpr std::int64_t kDeduplicationWindowMs = 5 * 60 * 1000;

    TopicPublisher(Database &db, const BrokerIdentity &identity, IdSource &ids, const EnvelopeSigner *sign = nullptr)
        : m_db(&db), m_identity(&identity), m_ids(&ids), m_sign(sign) {}

    // Unknown topic: SnsNotFound; bad request: SnsInvalidParameter (too long,
    // empty, bad subject, FIFO rules) or SnsInvalidParameterValue (attributes).
    Result<PublishReceipt> publish(std::string_view topicName, const PublishRequest &request, ClockTime now);
    // Refused whole for the batch rules (Sns* batch codes), an unknown topic,
    // or more than 256 KiB in all (SnsBatchRequestTooLong); otherwise each
    // entry succeeds or fails on its own.
    Result<std::vector<BatchEntryResult<PublishReceipt>>> publishBatch(
        std::string_view topicName, const std::vector<BatchEntry<PublishRequest>> &entries, ClockTime now);

private:
    Status check(const TopicRecord &topic, const PublishRequest &request) const;
    Result<PublishReceipt> publishChecked(const TopicRecord &topic, const PublishRequest &request, ClockTime now);
    Status fanOut(const TopicRecord &topic, const PublishRequest &request, PublishReceipt &receipt,
                  const std::optional<std::string> &dedupId, ClockTime now);

    Database *m_db = nullptr;
    const BrokerIdentity *m_identity = nullptr;
    IdSource *m_ids = nullptr;
    const EnvelopeSigner *m_sign = nullptr;
};

// The size SNS counts against 256 KiB: the message plus every attribute's
// name, type and value. Pure.
std::size_t publishedSize(const PublishRequest &request);

} // namespace relaydesk
