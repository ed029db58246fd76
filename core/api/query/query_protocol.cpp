// SPDX-License-Identifier: MIT
#include "api/query/query_protocol.h"

#include "api/query/query_form.h"
#include "api/query/query_xml.h"
#include "api/wire/wire_error.h"

#include "broker/echoed_value.h"
#include "broker/queues/message_text.h"

#include <algorithm>
#include <set>

namespace relaydesk {

namespace {

HttpReply errorReply(QueryService service, const WireError &error, const QByteArray &requestId)
{
    return service == QueryService::Sqs ? sqsQueryErrorReply(error, requestId) : snsQueryErrorReply(error, requestId);
}

ActionReply xmlReply(QueryService service, std::string action, ReplyChannel channel, QByteArray requestId)
{
    return [service, action = std::move(action), channel, requestId](Result<nlohmann::json> result) mutable {
        if (!result)
            return channel.send(errorReply(service, WireError::fromBroker(result.error()), requestId));
        HttpReply reply;
        reply.contentType = "text/xml";
        reply.headers.emplace_back("x-amzn-RequestId", requestId);
        reply.body = queryXmlReply(service, action, *result, requestId);
        channel.send(reply);
    };
}

// Whether every name and string of `parameters` is valid UTF-8. The query
// protocol's form is decoded byte for byte (query_form.h), so a request with
// invalid UTF-8 is refused whole here, as the JSON protocol's parser refuses
// it, instead of reaching the broker altered.
bool isAllUtf8(const nlohmann::json &parameters)
{
    if (parameters.is_string())
        return isValidUtf8(parameters.get_ref<const std::string &>());
    if (parameters.is_array())
        return std::all_of(parameters.begin(), parameters.end(), isAllUtf8);
    if (parameters.is_object()) {
        for (const auto &[name, value] : parameters.items())
            if (!isValidUtf8(name) || !isAllUtf8(value))
                return false;
    }
    return true;
}

// The service an action names; for an unknown one, the service the request
// was signed for (Authorization credential scope), SQS when unsigned.
QueryService serviceOf(const std::string &action, const QByteArray &authorization)
{
    if (isSqsAction(action))
        return QueryService::Sqs;
    if (isSnsAction(action))
        return QueryService::Sns;
    return authorization.contains("/sns/") ? QueryService::Sns : QueryService::Sqs;
}

constexpr std::string_view kInvalidCharacters = "Invalid characters found. Valid unicode characters are #x9 | #xA | "
                                                "#xD | #x20 to #xD7FF | #xE000 to #xFFFD | #x10000 to #x10FFFF";
constexpr std::string_view kMalformedEscape =
    "The request is not form-encoded: a '%' must be followed by two hexadecimal digits.";

} // namespace

bool queryActionAllowedInUrl(const std::string &action)
{
    static const std::set<std::string, std::less<>> kAllowed = {
        // SQS
        "GetQueueUrl", "GetQueueAttributes", "ListQueues", "ListDeadLetterSourceQueues", "ListMessageMoveTasks",
        "ListQueueTags",
        // SNS
        "ListTopics", "GetTopicAttributes", "ListSubscriptions", "ListSubscriptionsByTopic",
        "GetSubscriptionAttributes", "ListTagsForResource", "ConfirmSubscription", "Unsubscribe"};
    return kAllowed.count(action) > 0;
}

HttpReply queryErrorReplyFor(const QByteArray &form, const QByteArray &authorization, const WireError &error)
{
    std::string action;
    queryFormToJson(form, QueryService::Sqs, action);
    return errorReply(serviceOf(action, authorization), error, newRequestId());
}

void answerQuery(const QByteArray &form, bool inUrl, const QByteArray &path, const QByteArray &authorization,
                 const SqsActionContext &sqs, const SnsActionContext &sns, ReplyChannel channel)
{
    const QByteArray requestId = newRequestId();
    std::string action;
    nlohmann::json sqsParameters = queryFormToJson(form, QueryService::Sqs, action);
    if (inUrl && !action.empty() && !queryActionAllowedInUrl(action) && (isSqsAction(action) || isSnsAction(action))) {
        HttpReply refused = errorReply(
            serviceOf(action, authorization),
            WireError::methodNotAllowed(action + " changes the broker and is accepted only in a POST (form-encoded "
                                                 "body); a GET carries only the List and Get actions, "
                                                 "ConfirmSubscription and Unsubscribe."),
            requestId);
        refused.headers.emplace_back("Allow", "POST");
        return channel.send(refused);
    }
    const bool malformed = hasMalformedPercentEscape(form);
    if (isSqsAction(action)) {
        // Text that is no text: a message body says so as SQS does
        // (InvalidMessageContents); any other parameter is a bad value.
        const bool sends = action == "SendMessage" || action == "SendMessageBatch";
        if (malformed)
            return channel.send(errorReply(
                QueryService::Sqs,
                WireError::fromBroker(BrokerError(BrokerErrorCode::InvalidParameterValue, std::string(kMalformedEscape))),
                requestId));
        if (!isAllUtf8(sqsParameters))
            return channel.send(errorReply(
                QueryService::Sqs,
                WireError::fromBroker(BrokerError(sends ? BrokerErrorCode::InvalidMessageContents
                                                        : BrokerErrorCode::InvalidParameterValue,
                                                  std::string(kInvalidCharacters))),
                requestId));
        if (!sqsParameters.contains("QueueUrl") && path.count('/') >= 2 && path != "/")
            sqsParameters["QueueUrl"] = path.toStdString();
        runSqsAction(action, sqsInput(std::move(sqsParameters)), sqs,
                     xmlReply(QueryService::Sqs, action, channel, requestId));
        return;
    }
    if (isSnsAction(action)) {
        nlohmann::json snsParameters = queryFormToJson(form, QueryService::Sns, action);
        if (malformed)
            return channel.send(errorReply(
                QueryService::Sns,
                WireError::fromBroker(BrokerError(BrokerErrorCode::SnsInvalidParameter,
                                                  "Invalid parameter: " + std::string(kMalformedEscape))),
                requestId));
        if (!isAllUtf8(snsParameters))
            return channel.send(errorReply(
                QueryService::Sns,
                WireError::fromBroker(BrokerError(BrokerErrorCode::SnsInvalidParameter,
                                                  "Invalid parameter: " + std::string(kInvalidCharacters))),
                requestId));
        runSnsAction(action, snsInput(std::move(snsParameters)), sns,
                     xmlReply(QueryService::Sns, action, channel, requestId));
        return;
    }
    const QueryService service = serviceOf(action, authorization);
    const std::string message = action.empty() ? "The request must contain the parameter Action."
                                               : "The action " + echoedValue(action) + " is not valid for this endpoint.";
    channel.send(errorReply(service, WireError::unknownOperation(message), requestId));
}

} // namespace relaydesk
