// SPDX-License-Identifier: MIT
#pragma once

#include "broker/attribute_text.h"
#include "redrive_policy.h"
#include "broker/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace relaydesk {

// FIFO high-throughput settings (SQS): where deduplication ids are unique and
// what the throughput quota applies to. Stored and returned; Relaydesk has no
// quotas, so they change nothing else.
enum class DeduplicationScope { Queue, MessageGroup };
enum class FifoThroughputLimit { PerQueue, PerMessageGroupId };

// Every settable attribute of a queue with its default (docs/behaviour.md §1, 5, 6, 10).
// Times are seconds, sizes bytes. Plain value type; instances made by
// parseQueueAttributes()/applyQueueAttributes() satisfy every range below.
struct QueueAttributes {
    static constexpr int kMaxVisibilityTimeout = 43'200;
    static constexpr int kMaxDelaySeconds = 900;
    static constexpr int kMinRetentionPeriod = 60;
    static constexpr int kMaxRetentionPeriod = 1'209'600;
    static constexpr int kMinMaximumMessageSize = 1'024;
    static constexpr int kMaxMaximumMessageSize = 1'048'576;
    static constexpr int kMaxReceiveWaitTime = 20;
    static constexpr int kMinKmsDataKeyReusePeriod = 60;
    static constexpr int kMaxKmsDataKeyReusePeriod = 86'400;

    // SQS
    bool fifoQueue = false;                       // FifoQueue; fixed at creation (the ".fifo" name)
    int visibilityTimeout = 30;                   // VisibilityTimeout 0–43 200
    int delaySeconds = 0;                         // DelaySeconds 0–900
    int messageRetentionPeriod = 345'600;         // MessageRetentionPeriod 60–1 209 600
    int maximumMessageSize = 262'144;             // MaximumMessageSize 1 024–1 048 576
    int receiveMessageWaitTimeSeconds = 0;        // ReceiveMessageWaitTimeSeconds 0–20
    std::optional<QueueRedrivePolicy> redrivePolicy;
    std::optional<RedriveAllowPolicy> redriveAllowPolicy;
    std::string policy;                           // Policy: access policy JSON, stored as given, not enforced
    std::string kmsMasterKeyId;                   // KmsMasterKeyId: stored only
    int kmsDataKeyReusePeriodSeconds = 300;       // KmsDataKeyReusePeriodSeconds 60–86 400
    bool sqsManagedSseEnabled = true;             // SqsManagedSseEnabled: stored only
    // SQS, FIFO queues only
    bool contentBasedDeduplication = false;       // ContentBasedDeduplication
    DeduplicationScope deduplicationScope = DeduplicationScope::Queue;
    FifoThroughputLimit fifoThroughputLimit = FifoThroughputLimit::PerQueue;
    // Relaydesk (Service Bus message lifetime, docs/behaviour.md §6)
    std::optional<int64_t> defaultMessageTimeToLive;   // DefaultMessageTimeToLive ≥ 1; none = no expiry
    bool deadLetteringOnMessageExpiration = false;     // DeadLetteringOnMessageExpiration
    std::optional<int64_t> autoDeleteOnIdle;           // AutoDeleteOnIdle ≥ 300; none = never

    // The longest a message may live here, in seconds: the default TTL and the
    // retention period both cap it (docs/behaviour.md §6).
    int64_t timeToLiveCap() const;

    bool operator==(const QueueAttributes &) const = default;
};

// CreateQueue: the attributes of a new queue named `queueName` (a valid name,
// see validateQueueName) from the request's map, defaults for the rest.
// Errors, first found wins, in this order:
//  - an unknown, read-only or (on a standard queue) FIFO-only name:
//    InvalidAttributeName "Unknown Attribute NAME."
//  - FifoQueue "true" on a name without ".fifo", or a ".fifo" name without
//    FifoQueue "true": InvalidParameterValue with the queue-name sentence;
//  - a bad value: InvalidParameterValue for VisibilityTimeout, DelaySeconds,
//    MaximumMessageSize, ReceiveMessageWaitTimeSeconds, RedrivePolicy and
//    RedriveAllowPolicy; InvalidAttributeValue for MessageRetentionPeriod and
//    every other attribute (docs/behaviour.md §10).
// An empty value of an optional attribute (RedrivePolicy, Policy,
// DefaultMessageTimeToLive, …) means "none". Pure.
Result<QueueAttributes> parseQueueAttributes(std::string_view queueName, const AttributeMap &given);

// SetQueueAttributes: `current` with `changes` applied, all or nothing. Same
// errors as above, and FifoQueue cannot be changed (InvalidAttributeName).
// Pure.
Result<QueueAttributes> applyQueueAttributes(const QueueAttributes &current, const AttributeMap &changes);

// CreateQueue on a name that exists: fine when every given attribute has the
// value the queue already has, else QueueAlreadyExists naming the first
// attribute that differs (or the parse error of `given`). Pure.
Status checkSameQueueAttributes(std::string_view queueName, const QueueAttributes &existing, const AttributeMap &given);

// The stored attributes as GetQueueAttributes returns them: the five numbers,
// SqsManagedSseEnabled and DeadLetteringOnMessageExpiration always; FifoQueue,
// ContentBasedDeduplication, DeduplicationScope, FifoThroughputLimit on FIFO
// queues; the optional ones when set. The broker adds the computed ones
// (queueComputedAttributeNames). Pure.
AttributeMap writeQueueAttributes(const QueueAttributes &attributes);

// Names the broker computes: QueueArn, ApproximateNumberOfMessages,
// ApproximateNumberOfMessagesNotVisible, ApproximateNumberOfMessagesDelayed,
// CreatedTimestamp, LastModifiedTimestamp.
const std::vector<std::string_view> &queueComputedAttributeNames();
// Every name GetQueueAttributes accepts: "All", the settable ones and the
// computed ones.
bool isQueueAttributeName(std::string_view name);

} // namespace relaydesk
