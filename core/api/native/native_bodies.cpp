// SPDX-License-Identifier: MIT
// Native API: the message bodies of POST /queues/NAME/messages and
// /topics/NAME/publish, read before the broker sees them.
#include "api/native/native_api.h"

#include "api/sqs/sqs_messages.h"
#include "broker/clock_time.h"

#include <limits>

namespace relaydesk::native_routes {

// The shapes: native_api.h.
Result<SendRequest> readNativeSend(const ActionInput &input)
{
    nlohmann::json sqsShape = nlohmann::json::object();
    const nlohmann::json &body = input.parameters();
    const std::pair<const char *, const char *> renames[] = {
        {"body", "MessageBody"}, {"attributes", "MessageAttributes"}, {"delaySeconds", "DelaySeconds"},
        {"groupId", "MessageGroupId"}, {"deduplicationId", "MessageDeduplicationId"}};
    for (const auto &[native, sqs] : renames) {
        if (body.contains(native))
            sqsShape[sqs] = body[native];
    }
    auto request = readSendRequest(ActionInput(sqsShape, BrokerErrorCode::InvalidParameterValue,
                                               BrokerErrorCode::MissingParameter));
    if (!request)
        return request.error();
    auto ttl = input.optionalInteger("timeToLiveSeconds", 1, std::numeric_limits<std::int64_t>::max());
    if (!ttl)
        return ttl.error();
    request->timeToLiveSeconds = *ttl;
    auto scheduled = input.optionalString("scheduledEnqueueTime");
    if (!scheduled)
        return scheduled.error();
    if (*scheduled) {
        const auto time = parseIso8601(**scheduled);
        if (!time)
            return input.invalid("scheduledEnqueueTime", "Must be an ISO 8601 UTC time.");
        request->scheduledEnqueueTime = *time;
    }
    return request;
}

Result<PublishRequest> readNativePublish(const ActionInput &input)
{
    PublishRequest request;
    auto message = input.requiredString("message");
    if (!message)
        return message.error();
    request.message = *message;
    auto subject = input.optionalString("subject");
    if (!subject)
        return subject.error();
    request.subject = *subject;
    auto attributes = readMessageAttributes(input, "attributes");
    if (!attributes)
        return BrokerError(BrokerErrorCode::SnsInvalidParameterValue, attributes.error().message);
    request.attributes = *attributes;
    auto group = input.optionalString("groupId");
    if (!group)
        return group.error();
    request.groupId = *group;
    auto dedup = input.optionalString("deduplicationId");
    if (!dedup)
        return dedup.error();
    request.deduplicationId = *dedup;
    auto ttl = input.optionalInteger("timeToLiveSeconds", 1, std::numeric_limits<std::int64_t>::max());
    if (!ttl)
        return ttl.error();
    request.timeToLiveSeconds = *ttl;
    return request;
}

} // namespace relaydesk::native_routes
