// SPDX-License-Identifier: MIT
// Native API: /queues.
#include "api/native/native_api.h"

#include "engine/broker_service.h"
#include "api/wire/action_input.h"
#include "broker/broker_identity.h"
#include "api/sqs/sqs_messages.h"

namespace relaydesk::native_routes {

namespace {

using Json = nlohmann::json;

Json optionalTime(const std::optional<ClockTime> &time) { return time ? Json(formatIso8601(*time)) : Json(); }
template <class T>
Json optionalValue(const std::optional<T> &value) { return value ? Json(*value) : Json(); }

Json scheduledJson(const std::vector<ScheduledMessage> &messages)
{
    Json list = Json::array();
    for (const ScheduledMessage &message : messages)
        list.push_back({{"messageId", message.messageId},
                        {"body", message.body},
                        {"attributes", writeMessageAttributes(message.attributes)},
                        {"groupId", optionalValue(message.groupId)},
                        {"sequenceNumber", optionalValue(message.sequenceNumber)},
                        {"sent", formatIso8601(message.sent)},
                        {"scheduledEnqueueTime", formatIso8601(message.scheduledEnqueueTime)},
                        {"expiresAt", optionalTime(message.expiresAt)}});
    return {{"messages", std::move(list)}};
}

ActionInput bodyInput(const NativeRequest &request)
{
    return ActionInput(request.body, BrokerErrorCode::InvalidParameterValue, BrokerErrorCode::MissingParameter);
}

void listQueues(const NativeContext &context, const NativeReply &reply)
{
    const BrokerIdentity identity = context.identity;
    context.service.listQueues("", 1000, "", context.replyContext,
                               answerWith<QueuePage>(reply, [identity](const QueuePage &page) {
                                   Json list = Json::array();
                                   for (const std::string &url : page.queueUrls) {
                                       auto name = identity.queueNameFromUrl(url);
                                       list.push_back({{"name", name ? *name : url}, {"url", rebasedQueueUrl(identity, url)}});
                                   }
                                   return Json{{"queues", std::move(list)}};
                               }));
}

void createQueue(const NativeRequest &request, const NativeContext &context, const NativeReply &reply)
{
    auto creation = readEntityCreation(bodyInput(request));
    if (!creation)
        return reply(NativeAnswer::failure(creation.error()));
    context.service.createQueue(creation->name, creation->attributes, creation->tags, context.replyContext,
                                answerWith<std::string>(
                                    reply,
                                    [name = creation->name, identity = context.identity](const std::string &url) {
                                        return Json{{"name", name}, {"url", rebasedQueueUrl(identity, url)}};
                                    },
                                    201));
}

void browse(const NativeRequest &request, const NativeContext &context, const std::string &name, const NativeReply &reply)
{
    std::optional<std::int64_t> after;
    int limit = 100;
    bool ok = true;
    if (request.query.hasQueryItem(QStringLiteral("after")))
        after = request.query.queryItemValue(QStringLiteral("after")).toLongLong(&ok);
    if (ok && request.query.hasQueryItem(QStringLiteral("limit")))
        limit = request.query.queryItemValue(QStringLiteral("limit")).toInt(&ok);
    if (!ok)
        return reply(NativeAnswer::failure(
            BrokerError(BrokerErrorCode::InvalidParameterValue, "after and limit must be whole numbers.")));
    context.service.browseQueue(name, after, limit, context.replyContext,
                                answerWith<BrowsePage>(reply, [](const BrowsePage &page) {
                                    Json list = Json::array();
                                    for (const BrowsedMessage &message : page.messages)
                                        list.push_back(writeBrowsedMessage(message));
                                    return Json{{"messages", std::move(list)},
                                                {"nextPageToken", optionalValue(page.nextPageToken)}};
                                }));
}

void send(const NativeRequest &request, const NativeContext &context, const std::string &name, const NativeReply &reply)
{
    auto send = readNativeSend(bodyInput(request));
    if (!send)
        return reply(NativeAnswer::failure(send.error()));
    const SendDigests digests = sendDigests(*send);
    context.service.sendMessage(
        name, std::move(send).value(), context.replyContext,
        answerWith<SendReceipt>(reply, [digests](const SendReceipt &receipt) { return writeSendReceipt(receipt, digests); },
                                201));
}

void moveBack(const NativeRequest &request, const NativeContext &context, const std::string &name,
              const NativeReply &reply)
{
    const ActionInput input = bodyInput(request);
    auto destination = input.optionalString("destination");
    if (!destination)
        return reply(NativeAnswer::failure(destination.error()));
    std::optional<std::string> destinationArn;
    if (*destination)
        destinationArn = context.identity.queueArn(**destination);
    context.service.startMessageMoveTask(context.identity.queueArn(name), destinationArn, std::nullopt,
                                         context.replyContext,
                                         answerWith<std::string>(reply, [](const std::string &handle) {
                                             return Json{{"taskHandle", handle}};
                                         }));
}

// GET /queues/NAME: its attributes, and how many receives wait on it now
// (`waitingReceives`, docs/behaviour.md §5.1).
void describeQueue(const NativeContext &context, const std::string &name, const NativeReply &reply)
{
    BrokerService &service = context.service;
    QObject *replyContext = context.replyContext;
    const std::string url = context.identity.queueUrl(name);
    service.getQueueAttributes(
        name, {"All"}, replyContext, [&service, replyContext, name, url, reply](Result<AttributeMap> attributes) {
            if (!attributes)
                return reply(NativeAnswer::failure(attributes.error()));
            service.waitingReceives(
                name, replyContext,
                answerWith<std::size_t>(reply, [name, url, attributes = *attributes](std::size_t waiting) {
                    return Json{{"name", name}, {"url", url}, {"attributes", attributes}, {"waitingReceives", waiting}};
                }));
        });
}

} // namespace

// /queues, /queues/NAME, /queues/NAME/{attributes,messages,purge,scheduled[/ID],move-back}
bool queues(const NativeRequest &request, const NativeContext &context, const NativeReply &reply)
{
    const auto &path = request.path;
    if (path.empty() || path[0] != "queues")
        return false;
    const std::string &method = request.method;
    if (path.size() == 1) {
        if (method == "GET")
            listQueues(context, reply);
        else if (method == "POST")
            createQueue(request, context, reply);
        else
            reply(methodNotAllowed(request));
        return true;
    }
    const std::string &name = path[1];
    BrokerService &service = context.service;
    if (path.size() == 2) {
        if (method == "GET")
            describeQueue(context, name, reply);
        else if (method == "DELETE")
            service.deleteQueue(name, context.replyContext, answerEmpty(reply));
        else
            reply(methodNotAllowed(request));
        return true;
    }
    const std::string &part = path[2];
    if (path.size() == 3 && part == "attributes") {
        auto changes = bodyInput(request).stringMap("attributes");
        if (method != "PUT")
            reply(methodNotAllowed(request));
        else if (!changes)
            reply(NativeAnswer::failure(changes.error()));
        else
            service.setQueueAttributes(name, *changes, context.replyContext, answerEmpty(reply));
        return true;
    }
    if (path.size() == 3 && part == "messages") {
        if (method == "GET")
            browse(request, context, name, reply);
        else if (method == "POST")
            send(request, context, name, reply);
        else
            reply(methodNotAllowed(request));
        return true;
    }
    if (path.size() == 3 && (part == "purge" || part == "move-back")) {
        if (method != "POST")
            reply(methodNotAllowed(request));
        else if (part == "purge")
            service.purgeQueue(name, context.replyContext, answerEmpty(reply));
        else
            moveBack(request, context, name, reply);
        return true;
    }
    if (part == "scheduled" && path.size() <= 4) {
        if (path.size() == 3 && method == "GET")
            service.listScheduledMessages(name, context.replyContext,
                                          answerWith<std::vector<ScheduledMessage>>(reply, scheduledJson));
        else if (path.size() == 4 && method == "DELETE")
            service.cancelScheduledMessage(name, path[3], context.replyContext, answerEmpty(reply));
        else
            reply(methodNotAllowed(request));
        return true;
    }
    return false;
}

} // namespace relaydesk::native_routes
