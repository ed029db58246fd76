// SPDX-License-Identifier: MIT
#include "api/sqs/sqs_messages.h"

#include "broker/echoed_value.h"

#include "broker/queues/message_digest.h"

#include <QByteArray>

#include <limits>

namespace relaydesk {

namespace {

constexpr std::int64_t kIntMax = std::numeric_limits<int>::max();
constexpr std::int64_t kIntMin = std::numeric_limits<int>::min();

bool patternMatches(const std::string &pattern, const std::string &name)
{
    if (pattern == "All" || pattern == ".*")
        return true;
    if (pattern.size() >= 2 && pattern.compare(pattern.size() - 2, 2, ".*") == 0)
        return name.compare(0, pattern.size() - 1, pattern, 0, pattern.size() - 1) == 0;
    return pattern == name;
}

std::string millis(ClockTime time) { return std::to_string(toEpochMilliseconds(time)); }

} // namespace

Result<MessageAttributes> readMessageAttributes(const ActionInput &input, std::string_view name)
{
    MessageAttributes attributes;
    const nlohmann::json &all = input.parameters();
    const auto it = all.find(name);
    if (it == all.end() || it->is_null())
        return attributes;
    if (!it->is_object())
        return input.invalid(name, "Must be a map of message attributes.");
    for (const auto &[key, value] : it->items()) {
        if (!value.is_object())
            return input.invalid(name, "The message attribute '" + echoedValue(key) + "' must be a structure.");
        const ActionInput member(value, BrokerErrorCode::InvalidParameterValue, BrokerErrorCode::InvalidParameterValue);
        auto dataType = member.requiredString("DataType");
        if (!dataType)
            return BrokerError(BrokerErrorCode::InvalidParameterValue,
                               "The message attribute '" + echoedValue(key) + "' must contain a non-empty message attribute type.");
        auto stringValue = member.optionalString("StringValue");
        auto binaryValue = member.optionalString("BinaryValue");
        if (!stringValue || !binaryValue)
            return input.invalid(name, "The message attribute '" + echoedValue(key) + "' has a value that is not a string.");
        MessageAttributeValue attribute;
        attribute.dataType = *dataType;
        if (attribute.isBinary()) {
            if (!*binaryValue)
                return BrokerError(BrokerErrorCode::InvalidParameterValue,
                                   "The message attribute '" + echoedValue(key) + "' with type 'Binary' must use field 'Binary'.");
            auto decoded = QByteArray::fromBase64Encoding(QByteArray::fromStdString(**binaryValue),
                                                          QByteArray::AbortOnBase64DecodingErrors);
            if (!decoded)
                return input.invalid(name, "The message attribute '" + echoedValue(key) + "' has a BinaryValue that is not base64.");
            attribute.binaryValue = decoded.decoded.toStdString();
        } else {
            if (!*stringValue)
                return BrokerError(BrokerErrorCode::InvalidParameterValue,
                                   "The message attribute '" + echoedValue(key) + "' must contain a non-empty message attribute value for message attribute type '" +
                                       attribute.dataType + "'.");
            attribute.stringValue = **stringValue;
        }
        attributes.emplace(key, std::move(attribute));
    }
    return attributes;
}

nlohmann::json writeMessageAttributes(const MessageAttributes &attributes)
{
    nlohmann::json out = nlohmann::json::object();
    for (const auto &[name, value] : attributes) {
        nlohmann::json member = {{"DataType", value.dataType}};
        if (value.isBinary())
            member["BinaryValue"] = QByteArray::fromStdString(value.binaryValue).toBase64().toStdString();
        else
            member["StringValue"] = value.stringValue;
        out[name] = std::move(member);
    }
    return out;
}

namespace {

nlohmann::json optionalTime(const std::optional<ClockTime> &time)
{
    return time ? nlohmann::json(formatIso8601(*time)) : nlohmann::json();
}
template <class T>
nlohmann::json optionalValue(const std::optional<T> &value)
{
    return value ? nlohmann::json(*value) : nlohmann::json();
}

} // namespace

nlohmann::json writeBrowsedMessage(const BrowsedMessage &message)
{
    return {{"messageId", message.messageId},
            {"body", message.body},
            {"attributes", writeMessageAttributes(message.attributes)},
            {"state", std::string(messageStateName(message.state))},
            {"groupId", optionalValue(message.groupId)},
            {"deduplicationId", optionalValue(message.deduplicationId)},
            {"sequenceNumber", optionalValue(message.sequenceNumber)},
            {"sent", formatIso8601(message.sent)},
            {"enqueued", formatIso8601(message.enqueued)},
            {"scheduledEnqueueTime", optionalTime(message.scheduledEnqueueTime)},
            {"visibleAt", formatIso8601(message.visibleAt)},
            {"expiresAt", optionalTime(message.expiresAt)},
            {"receiveCount", message.receiveCount},
            {"firstReceive", optionalTime(message.firstReceive)},
            {"deadLetterReason", optionalValue(message.deadLetterReason)},
            {"sourceQueue", optionalValue(message.sourceQueue)}};
}

Result<SendRequest> readSendRequest(const ActionInput &input)
{
    SendRequest request;
    auto body = input.requiredString("MessageBody");
    if (!body)
        return body.error();
    request.body = std::move(body).value();
    auto attributes = readMessageAttributes(input, "MessageAttributes");
    if (!attributes)
        return attributes.error();
    request.attributes = std::move(attributes).value();
    auto delay = input.optionalInteger("DelaySeconds", kIntMin, kIntMax);
    if (!delay)
        return delay.error();
    if (*delay)
        request.delaySeconds = static_cast<int>(**delay);
    auto group = input.optionalString("MessageGroupId");
    if (!group)
        return group.error();
    request.groupId = *group;
    auto dedup = input.optionalString("MessageDeduplicationId");
    if (!dedup)
        return dedup.error();
    request.deduplicationId = *dedup;
    return request;
}

SendDigests sendDigests(const SendRequest &request)
{
    return {md5OfMessageBody(request.body), md5OfMessageAttributes(request.attributes)};
}

nlohmann::json writeSendReceipt(const SendReceipt &receipt, const SendDigests &digests)
{
    nlohmann::json out = {{"MessageId", receipt.messageId}, {"MD5OfMessageBody", digests.body}};
    if (!digests.attributes.empty())
        out["MD5OfMessageAttributes"] = digests.attributes;
    if (receipt.sequenceNumber)
        out["SequenceNumber"] = std::to_string(*receipt.sequenceNumber);
    return out;
}

Result<VisibilityChange> readVisibilityChange(const ActionInput &input)
{
    auto handle = input.requiredString("ReceiptHandle");
    if (!handle)
        return handle.error();
    auto timeout = input.optionalInteger("VisibilityTimeout", kIntMin, kIntMax);
    if (!timeout)
        return timeout.error();
    if (!*timeout)
        return input.missing("VisibilityTimeout");
    return VisibilityChange{*handle, static_cast<int>(**timeout)};
}

Result<ReceiveRequest> readReceiveRequest(const ActionInput &input)
{
    ReceiveRequest request;
    auto max = input.optionalInteger("MaxNumberOfMessages", kIntMin, kIntMax);
    if (!max)
        return max.error();
    if (*max)
        request.maxNumberOfMessages = static_cast<int>(**max);
    auto visibility = input.optionalInteger("VisibilityTimeout", kIntMin, kIntMax);
    if (!visibility)
        return visibility.error();
    if (*visibility)
        request.visibilityTimeout = static_cast<int>(**visibility);
    auto wait = input.optionalInteger("WaitTimeSeconds", kIntMin, kIntMax);
    if (!wait)
        return wait.error();
    if (*wait)
        request.waitTimeSeconds = static_cast<int>(**wait);
    auto attempt = input.optionalString("ReceiveRequestAttemptId");
    if (!attempt)
        return attempt.error();
    request.receiveRequestAttemptId = *attempt;
    return request;
}

Result<ReceiveSelection> readReceiveSelection(const ActionInput &input)
{
    ReceiveSelection selection;
    for (const char *name : {"AttributeNames", "MessageSystemAttributeNames"}) {
        auto names = input.stringList(name);
        if (!names)
            return names.error();
        for (std::string &attribute : *names) {
            if (attribute == "All")
                selection.allSystem = true;
            selection.system.insert(std::move(attribute));
        }
    }
    auto patterns = input.stringList("MessageAttributeNames");
    if (!patterns)
        return patterns.error();
    selection.messageAttributePatterns = std::move(patterns).value();
    return selection;
}

nlohmann::json writeReceivedMessage(const ReceivedMessage &message, const ReceiveSelection &selection,
                                    const BrokerIdentity &identity)
{
    nlohmann::json out = {{"MessageId", message.messageId},
                          {"ReceiptHandle", message.receiptHandle},
                          {"MD5OfBody", md5OfMessageBody(message.body)},
                          {"Body", message.body}};
    nlohmann::json system = nlohmann::json::object();
    auto put = [&](const char *name, std::string value) {
        if (selection.allSystem || selection.system.count(name) > 0)
            system[name] = std::move(value);
    };
    put("SenderId", identity.accountId);
    put("SentTimestamp", millis(message.sentTimestamp));
    put("ApproximateReceiveCount", std::to_string(message.approximateReceiveCount));
    put("ApproximateFirstReceiveTimestamp", millis(message.approximateFirstReceiveTimestamp));
    if (message.groupId)
        put("MessageGroupId", *message.groupId);
    if (message.deduplicationId)
        put("MessageDeduplicationId", *message.deduplicationId);
    if (message.sequenceNumber)
        put("SequenceNumber", std::to_string(*message.sequenceNumber));
    if (!system.empty())
        out["Attributes"] = std::move(system);

    MessageAttributes returned;
    for (const auto &[name, value] : message.attributes) {
        for (const std::string &pattern : selection.messageAttributePatterns) {
            if (patternMatches(pattern, name)) {
                returned.emplace(name, value);
                break;
            }
        }
    }
    if (!returned.empty()) {
        out["MD5OfMessageAttributes"] = md5OfMessageAttributes(returned);
        out["MessageAttributes"] = writeMessageAttributes(returned);
    }
    return out;
}

} // namespace relaydesk
