// SPDX-License-Identifier: MIT
#include "queue_attributes.h"

#include "broker/echoed_value.h"

#include "json/bounded_json.h"

#include "broker/entity_names.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <limits>

namespace relaydesk {

namespace {

using Code = BrokerErrorCode;

BrokerError unknownAttribute(std::string_view name)
{
    return BrokerError(Code::InvalidAttributeName, "Unknown Attribute " + echoedValue(name) + ".");
}

BrokerError invalidValue(Code code, std::string_view name, std::string_view reason)
{
    return BrokerError(code, "Invalid value for the parameter " + std::string(name) + ". Reason: " + std::string(reason));
}

template <typename Int>
Status readInteger(Int &field, std::string_view name, std::string_view value, int64_t low, int64_t high, Code code,
                   std::string_view unit)
{
    const auto parsed = parseAttributeInteger(value);
    if (!parsed || *parsed < low || *parsed > high)
        return invalidValue(code, name,
                            "must be an integer from " + std::to_string(low) + " to " + std::to_string(high) + " " +
                                std::string(unit) + ".");
    field = static_cast<Int>(*parsed);
    return {};
}

Status readOptionalSeconds(std::optional<int64_t> &field, std::string_view name, std::string_view value, int64_t low)
{
    if (const auto reason = readLifetimeSeconds(field, value, low))
        return invalidValue(Code::InvalidAttributeValue, name, *reason + ".");
    return {};
}

Status readBoolean(bool &field, std::string_view name, std::string_view value)
{
    const auto parsed = parseAttributeBoolean(value);
    if (!parsed)
        return invalidValue(Code::InvalidAttributeValue, name, "must be true or false.");
    field = *parsed;
    return {};
}

using Apply = Status (*)(QueueAttributes &, std::string_view);

struct AttributeRule {
    std::string_view name;
    bool fifoOnly = false;
    Apply apply = nullptr;
};

const AttributeRule kRules[] = {
    {"VisibilityTimeout", false,
     [](QueueAttributes &a, std::string_view v) {
         return readInteger(a.visibilityTimeout, "VisibilityTimeout", v, 0, QueueAttributes::kMaxVisibilityTimeout,
                            Code::InvalidParameterValue, "seconds");
     }},
    {"DelaySeconds", false,
     [](QueueAttributes &a, std::string_view v) {
         return readInteger(a.delaySeconds, "DelaySeconds", v, 0, QueueAttributes::kMaxDelaySeconds,
                            Code::InvalidParameterValue, "seconds");
     }},
    {"MessageRetentionPeriod", false,
     [](QueueAttributes &a, std::string_view v) {
         return readInteger(a.messageRetentionPeriod, "MessageRetentionPeriod", v, QueueAttributes::kMinRetentionPeriod,
                            QueueAttributes::kMaxRetentionPeriod, Code::InvalidAttributeValue, "seconds");
     }},
    {"MaximumMessageSize", false,
     [](QueueAttributes &a, std::string_view v) {
         return readInteger(a.maximumMessageSize, "MaximumMessageSize", v, QueueAttributes::kMinMaximumMessageSize,
                            QueueAttributes::kMaxMaximumMessageSize, Code::InvalidParameterValue, "bytes");
     }},
    {"ReceiveMessageWaitTimeSeconds", false,
     [](QueueAttributes &a, std::string_view v) {
         return readInteger(a.receiveMessageWaitTimeSeconds, "ReceiveMessageWaitTimeSeconds", v, 0,
                            QueueAttributes::kMaxReceiveWaitTime, Code::InvalidParameterValue, "seconds");
     }},
    {"RedrivePolicy", false,
     [](QueueAttributes &a, std::string_view v) -> Status {
         if (v.empty()) {
             a.redrivePolicy.reset();
             return {};
         }
         Result<QueueRedrivePolicy> parsed = parseQueueRedrivePolicy(v, a.fifoQueue);
         if (!parsed)
             return parsed.error();
         a.redrivePolicy = std::move(parsed).value();
         return {};
     }},
    {"RedriveAllowPolicy", false,
     [](QueueAttributes &a, std::string_view v) -> Status {
         if (v.empty()) {
             a.redriveAllowPolicy.reset();
             return {};
         }
         Result<RedriveAllowPolicy> parsed = parseRedriveAllowPolicy(v);
         if (!parsed)
             return parsed.error();
         a.redriveAllowPolicy = std::move(parsed).value();
         return {};
     }},
    {"Policy", false,
     [](QueueAttributes &a, std::string_view v) -> Status {
         if (!v.empty()) {
             const nlohmann::json document = parseBoundedJson(v);
             if (document.is_discarded() || !document.is_object())
                 return invalidValue(Code::InvalidAttributeValue, "Policy", "must be a JSON policy document.");
         }
         a.policy = std::string(v);
         return {};
     }},
    {"KmsMasterKeyId", false,
     [](QueueAttributes &a, std::string_view v) -> Status {
         a.kmsMasterKeyId = std::string(v);
         return {};
     }},
    {"KmsDataKeyReusePeriodSeconds", false,
     [](QueueAttributes &a, std::string_view v) {
         return readInteger(a.kmsDataKeyReusePeriodSeconds, "KmsDataKeyReusePeriodSeconds", v,
                            QueueAttributes::kMinKmsDataKeyReusePeriod, QueueAttributes::kMaxKmsDataKeyReusePeriod,
                            Code::InvalidAttributeValue, "seconds");
     }},
    {"SqsManagedSseEnabled", false,
     [](QueueAttributes &a, std::string_view v) { return readBoolean(a.sqsManagedSseEnabled, "SqsManagedSseEnabled", v); }},
    {"ContentBasedDeduplication", true,
     [](QueueAttributes &a, std::string_view v) {
         return readBoolean(a.contentBasedDeduplication, "ContentBasedDeduplication", v);
     }},
    {"DeduplicationScope", true,
     [](QueueAttributes &a, std::string_view v) -> Status {
         if (v == "queue")
             a.deduplicationScope = DeduplicationScope::Queue;
         else if (v == "messageGroup")
             a.deduplicationScope = DeduplicationScope::MessageGroup;
         else
             return invalidValue(Code::InvalidAttributeValue, "DeduplicationScope", "must be queue or messageGroup.");
         return {};
     }},
    {"FifoThroughputLimit", true,
     [](QueueAttributes &a, std::string_view v) -> Status {
         if (v == "perQueue")
             a.fifoThroughputLimit = FifoThroughputLimit::PerQueue;
         else if (v == "perMessageGroupId")
             a.fifoThroughputLimit = FifoThroughputLimit::PerMessageGroupId;
         else
             return invalidValue(Code::InvalidAttributeValue, "FifoThroughputLimit",
                                 "must be perQueue or perMessageGroupId.");
         return {};
     }},
    {"DefaultMessageTimeToLive", false,
     [](QueueAttributes &a, std::string_view v) {
         return readOptionalSeconds(a.defaultMessageTimeToLive, "DefaultMessageTimeToLive", v, 1);
     }},
    {"DeadLetteringOnMessageExpiration", false,
     [](QueueAttributes &a, std::string_view v) {
         return readBoolean(a.deadLetteringOnMessageExpiration, "DeadLetteringOnMessageExpiration", v);
     }},
    {"AutoDeleteOnIdle", false,
     [](QueueAttributes &a, std::string_view v) {
         return readOptionalSeconds(a.autoDeleteOnIdle, "AutoDeleteOnIdle", v, kMinAutoDeleteOnIdleSeconds);
     }},
};

constexpr std::string_view kFifoQueue = "FifoQueue";

const AttributeRule *findRule(std::string_view name)
{
    for (const AttributeRule &rule : kRules) {
        if (rule.name == name)
            return &rule;
    }
    return nullptr;
}

// Unknown names are checked before anything else, so a typo is reported as
// such whatever else is wrong; FIFO-only names on a standard queue next.
Status checkNames(const AttributeMap &given, bool allowFifoQueue)
{
    for (const auto &[name, value] : given) {
        if (name == kFifoQueue ? !allowFifoQueue : findRule(name) == nullptr)
            return unknownAttribute(name);
    }
    return {};
}

Status checkFifoOnly(const AttributeMap &given, bool fifo)
{
    for (const auto &[name, value] : given) {
        const AttributeRule *rule = findRule(name);
        if (rule && rule->fifoOnly && !fifo)
            return unknownAttribute(name);
    }
    return {};
}

Status applyValues(QueueAttributes &attributes, const AttributeMap &given)
{
    for (const auto &[name, value] : given) {
        if (name == kFifoQueue)
            continue;
        if (Status applied = findRule(name)->apply(attributes, value); !applied)
            return applied;
    }
    if (attributes.fifoThroughputLimit == FifoThroughputLimit::PerMessageGroupId &&
        attributes.deduplicationScope != DeduplicationScope::MessageGroup)
        return invalidValue(Code::InvalidAttributeValue, "FifoThroughputLimit",
                            "perMessageGroupId requires DeduplicationScope messageGroup.");
    return {};
}

} // namespace

int64_t QueueAttributes::timeToLiveCap() const
{
    const int64_t retention = messageRetentionPeriod;
    return defaultMessageTimeToLive ? std::min(*defaultMessageTimeToLive, retention) : retention;
}

Result<QueueAttributes> parseQueueAttributes(std::string_view queueName, const AttributeMap &given)
{
    const bool fifoName = hasFifoSuffix(queueName);
    if (Status names = checkNames(given, true); !names)
        return names.error();

    bool fifo = false;
    if (const auto it = given.find(std::string(kFifoQueue)); it != given.end()) {
        if (Status read = readBoolean(fifo, kFifoQueue, it->second); !read)
            return read.error();
    }
    if (fifo != fifoName) {
        // The service's sentences: a FIFO queue needs the suffix, and without
        // FifoQueue=true the '.' of ".fifo" is not a name character.
        // Then what to do about it.
        const std::string name(queueName);
        return fifo ? BrokerError(Code::InvalidParameterValue,
                                  "The name of a FIFO queue can only include alphanumeric characters, hyphens, or "
                                  "underscores, must end with .fifo suffix and be 1 to 80 in length. Name it " +
                                      name + ".fifo, or leave out FifoQueue=true for a standard queue.")
                    : BrokerError(Code::InvalidParameterValue,
                                  "Can only include alphanumeric characters, hyphens, or underscores. 1 to 80 in length. "
                                  "Only a FIFO queue's name may end in .fifo: to create the FIFO queue " + name +
                                      ", set the attribute FifoQueue=true (aws sqs create-queue --queue-name " + name +
                                      " --attributes FifoQueue=true).");
    }
    if (Status fifoOnly = checkFifoOnly(given, fifo); !fifoOnly)
        return fifoOnly.error();

    QueueAttributes attributes;
    attributes.fifoQueue = fifo;
    if (Status applied = applyValues(attributes, given); !applied)
        return applied.error();
    return attributes;
}

Result<QueueAttributes> applyQueueAttributes(const QueueAttributes &current, const AttributeMap &changes)
{
    if (Status names = checkNames(changes, false); !names)
        return names.error();
    if (Status fifoOnly = checkFifoOnly(changes, current.fifoQueue); !fifoOnly)
        return fifoOnly.error();
    QueueAttributes attributes = current;
    if (Status applied = applyValues(attributes, changes); !applied)
        return applied.error();
    return attributes;
}

Status checkSameQueueAttributes(std::string_view queueName, const QueueAttributes &existing, const AttributeMap &given)
{
    Result<QueueAttributes> requested = parseQueueAttributes(queueName, given);
    if (!requested)
        return requested.error();
    const AttributeMap have = writeQueueAttributes(existing);
    const AttributeMap want = writeQueueAttributes(requested.value());
    const auto valueIn = [](const AttributeMap &map, const std::string &name) {
        const auto it = map.find(name);
        return it == map.end() ? std::string() : it->second;
    };
    for (const auto &[name, value] : given) {
        if (valueIn(have, name) != valueIn(want, name))
            return BrokerError(Code::QueueAlreadyExists,
                               "A queue already exists with the same name and a different value for attribute " + name);
    }
    return {};
}

AttributeMap writeQueueAttributes(const QueueAttributes &a)
{
    AttributeMap out;
    out["VisibilityTimeout"] = std::to_string(a.visibilityTimeout);
    out["DelaySeconds"] = std::to_string(a.delaySeconds);
    out["MessageRetentionPeriod"] = std::to_string(a.messageRetentionPeriod);
    out["MaximumMessageSize"] = std::to_string(a.maximumMessageSize);
    out["ReceiveMessageWaitTimeSeconds"] = std::to_string(a.receiveMessageWaitTimeSeconds);
    out["SqsManagedSseEnabled"] = formatAttributeBoolean(a.sqsManagedSseEnabled);
    out["DeadLetteringOnMessageExpiration"] = formatAttributeBoolean(a.deadLetteringOnMessageExpiration);
    if (a.redrivePolicy)
        out["RedrivePolicy"] = writeQueueRedrivePolicy(*a.redrivePolicy);
    if (a.redriveAllowPolicy)
        out["RedriveAllowPolicy"] = writeRedriveAllowPolicy(*a.redriveAllowPolicy);
    if (!a.policy.empty())
        out["Policy"] = a.policy;
    if (!a.kmsMasterKeyId.empty()) {
        out["KmsMasterKeyId"] = a.kmsMasterKeyId;
        out["KmsDataKeyReusePeriodSeconds"] = std::to_string(a.kmsDataKeyReusePeriodSeconds);
    }
    if (a.fifoQueue) {
        out["FifoQueue"] = "true";
        out["ContentBasedDeduplication"] = formatAttributeBoolean(a.contentBasedDeduplication);
        out["DeduplicationScope"] = a.deduplicationScope == DeduplicationScope::Queue ? "queue" : "messageGroup";
        out["FifoThroughputLimit"] =
            a.fifoThroughputLimit == FifoThroughputLimit::PerQueue ? "perQueue" : "perMessageGroupId";
    }
    if (a.defaultMessageTimeToLive)
        out["DefaultMessageTimeToLive"] = std::to_string(*a.defaultMessageTimeToLive);
    if (a.autoDeleteOnIdle)
        out["AutoDeleteOnIdle"] = std::to_string(*a.autoDeleteOnIdle);
    return out;
}

const std::vector<std::string_view> &queueComputedAttributeNames()
{
    static const std::vector<std::string_view> names = {
        "QueueArn", "ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible",
        "ApproximateNumberOfMessagesDelayed", "CreatedTimestamp", "LastModifiedTimestamp"};
    return names;
}

bool isQueueAttributeName(std::string_view name)
{
    const auto &computed = queueComputedAttributeNames();
    return name == "All" || name == kFifoQueue || findRule(name) != nullptr ||
           std::find(computed.begin(), computed.end(), name) != computed.end();
}

} // namespace relaydesk
