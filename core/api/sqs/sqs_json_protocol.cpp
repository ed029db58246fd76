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

void answerSqsJson(const QByteArray &target, const QByteArray &body, const SqsActionContext &context,
                   ReplyChannel channel)
{
    const QByteArray requestId = newRequestId();
    if (!target.startsWith(kTargetPrefix))
        return answerError(channel, WireError::unknownOperation("Unknown target " + echoedValue(target.toStdString()) + "."),
                           requestId);
    const std::string action = target.mid(kTargetPrefix.size()).toStdString();

    nlohmann::json parameters = parseBoundedJson(body.isEmpty() ? std::string_view("{}") : std::string_view(body.constData(), std::size_t(body.size())));
    if (parameters.is_discarded() || !parameters.is_object())
        return answerError(channel, WireError::malformedRequest("The request body is not a JSON object."), requestId);

    const bool known = runSqsAction(action, sqsInput(std::move(parameters)), context,
                                    [channel, requestId](Result<nlohmann::json> result) mutable {
                                        if (!result)
                                            return answerError(channel, WireError::fromBroker(result.error()), requestId);
                                        HttpReply reply;
                                        reply.contentType = "application/x-amz-json-1.0";
                                        reply.headers.emplace_back("x-amzn-RequestId", requestId);
                                        reply.body = QByteArray::fromStdString(jsonText(*result));
                                        channel.send(reply);
                                    });
    if (!known)
        answerError(channel, WireError::unknownOperation("Unknown operation " + echoedValue(action) + "."), requestId);
}

} // namespace relaydesk
