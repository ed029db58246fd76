// SPDX-License-Identifier: MIT
#include "net/query_protocol.h"

#include "net/query_form.h"
#include "net/query_xml.h"
#include "net/wire_error.h"

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

} // namespace

void answerQuery(const QByteArray &form, const QByteArray &path, const QByteArray &authorization,
                 const SqsActionContext &sqs, const SnsActionContext &sns, ReplyChannel channel)
{
    const QByteArray requestId = newRequestId();
    std::string action;
    nlohmann::json sqsParameters = queryFormToJson(form, QueryService::Sqs, action);
    if (isSqsAction(action)) {
        if (!sqsParameters.contains("QueueUrl") && path.count('/') >= 2 && path != "/")
            sqsParameters["QueueUrl"] = path.toStdString();
        runSqsAction(action, sqsInput(std::move(sqsParameters)), sqs,
                     xmlReply(QueryService::Sqs, action, channel, requestId));
        return;
    }
    if (isSnsAction(action)) {
        nlohmann::json snsParameters = queryFormToJson(form, QueryService::Sns, action);
        runSnsAction(action, snsInput(std::move(snsParameters)), sns,
                     xmlReply(QueryService::Sns, action, channel, requestId));
        return;
    }
    const QueryService service = authorization.contains("/sns/") ? QueryService::Sns : QueryService::Sqs;
    const std::string message = action.empty() ? "The request must contain the parameter Action."
                                               : "The action " + action + " is not valid for this endpoint.";
    channel.send(errorReply(service, WireError::unknownOperation(message), requestId));
}

} // namespace relaydesk
