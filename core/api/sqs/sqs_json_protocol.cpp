// SPDX-License-Identifier: MIT
#include "api/sqs/sqs_json_protocol.h"

#include "broker/echoed_value.h"

#include "json/bounded_json.h"

#include "api/wire/wire_error.h"

namespace relaydesk {

namespace {

constexpr QByteArrayView kTargetPrefix = "AmazonSQS.";

void answerError(ReplyChannel &channel, const WireError &error, const QByteArray &requestId)
{
    channel.send(sqsJsonErrorReply(error, requestId));
}

} // namespace

std::variant<SqsJsonCall, WireError> readSqsJsonCall(const QByteArray &target, const QByteArray &body)
{
    if (!target.startsWith(kTargetPrefix))
        return WireError::unknownOperation("Unknown target " + echoedValue(target.toStdString()) + ".");
    SqsJsonCall call;
    call.action = target.mid(kTargetPrefix.size()).toStdString();
    call.parameters = parseBoundedJson(body.isEmpty() ? std::string_view("{}")
                                                      : std::string_view(body.constData(), std::size_t(body.size())));
    if (call.parameters.is_discarded() || !call.parameters.is_object())
        return WireError::malformedRequest("The request body is not a JSON object.");
    if (!isSqsAction(call.action))
        return WireError::unknownOperation("Unknown operation " + echoedValue(call.action) + ".");
    return call;
}

void answerSqsJson(const QByteArray &target, const QByteArray &body, const SqsActionContext &context,
                   ReplyChannel channel)
{
    const QByteArray requestId = newRequestId();
    std::variant<SqsJsonCall, WireError> read = readSqsJsonCall(target, body);
    if (const WireError *refused = std::get_if<WireError>(&read))
        return answerError(channel, *refused, requestId);
    SqsJsonCall &call = std::get<SqsJsonCall>(read);
    runSqsAction(call.action, sqsInput(std::move(call.parameters)), context,
                 [channel, requestId](Result<nlohmann::json> result) mutable {
                     if (!result)
                         return answerError(channel, WireError::fromBroker(result.error()), requestId);
                     HttpReply reply;
                     reply.contentType = "application/x-amz-json-1.0";
                     reply.headers.emplace_back("x-amzn-RequestId", requestId);
                     reply.body = QByteArray::fromStdString(jsonText(*result));
                     channel.send(reply);
                 });
}

} // namespace relaydesk
