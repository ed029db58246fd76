// SPDX-License-Identifier: MIT
// Native API: /topics and /subscriptions.
#include "api/native/native_api.h"

#include "engine/broker_service.h"
#include "api/wire/action_input.h"
#include "api/sqs/sqs_messages.h"

namespace relaydesk::native_routes {

namespace {

using Json = nlohmann::json;

ActionInput bodyInput(const NativeRequest &request)
{
    return ActionInput(request.body, BrokerErrorCode::SnsInvalidParameter, BrokerErrorCode::SnsInvalidParameter);
}

Json pageJson(const SubscriptionPage &page)
{
    Json list = Json::array();
    for (const SubscriptionSummary &row : page.subscriptions)
        list.push_back({{"subscriptionArn", row.subscriptionArn},
                        {"protocol", row.protocol},
                        {"endpoint", row.endpoint},
                        {"topicArn", row.topicArn}});
    return {{"subscriptions", std::move(list)}, {"nextToken", page.nextToken.empty() ? Json() : Json(page.nextToken)}};
}

Result<std::string> attributeValue(const NativeRequest &request)
{
    return bodyInput(request).requiredString("value");
}

void createTopic(const NativeRequest &request, const NativeContext &context, const NativeReply &reply)
{
    auto creation = readEntityCreation(bodyInput(request));
    if (!creation)
        return reply(NativeAnswer::failure(creation.error()));
    context.service.createTopic(creation->name, creation->attributes, creation->tags, context.replyContext,
                                answerWith<std::string>(
                                    reply,
                                    [name = creation->name](const std::string &arn) {
                                        return Json{{"name", name}, {"arn", arn}};
                                    },
                                    201));
}

void subscribe(const NativeRequest &request, const NativeContext &context, const std::string &topic,
               const NativeReply &reply)
{
    const ActionInput input = bodyInput(request);
    auto protocol = input.requiredString("protocol");
    auto endpoint = input.requiredString("endpoint");
    auto attributes = input.stringMap("attributes");
    auto autoConfirm = input.optionalBoolean("autoConfirm");
    for (const BrokerError *error : {protocol ? nullptr : &protocol.error(), endpoint ? nullptr : &endpoint.error(),
                                     attributes ? nullptr : &attributes.error(),
                                     autoConfirm ? nullptr : &autoConfirm.error()}) {
        if (error)
            return reply(NativeAnswer::failure(*error));
    }
    context.service.subscribe(topic, *protocol, *endpoint, *attributes, autoConfirm->value_or(false),
                              context.replyContext,
                              answerWith<SubscribeReceipt>(
                                  reply,
                                  [](const SubscribeReceipt &receipt) {
                                      return Json{{"subscriptionArn", receipt.subscriptionArn},
                                                  {"pendingConfirmation", receipt.pendingConfirmation}};
                                  },
                                  201));
}

bool subscriptions(const NativeRequest &request, const NativeContext &context, const NativeReply &reply)
{
    const auto &path = request.path;
    if (path.size() < 2 || path.size() > 4)
        return false;
    const std::string &arn = path[1];
    BrokerService &service = context.service;
    if (path.size() == 2) {
        if (request.method == "GET")
            service.getSubscriptionAttributes(arn, context.replyContext,
                                              answerWith<AttributeMap>(reply, [arn](const AttributeMap &attributes) {
                                                  return Json{{"subscriptionArn", arn}, {"attributes", attributes}};
                                              }));
        else if (request.method == "DELETE")
            service.unsubscribe(arn, context.replyContext, answerEmpty(reply));
        else
            reply(methodNotAllowed(request));
        return true;
    }
    if (path.size() == 4 && path[2] == "attributes") {
        auto value = attributeValue(request);
        if (request.method != "PUT")
            reply(methodNotAllowed(request));
        else if (!value)
            reply(NativeAnswer::failure(value.error()));
        else
            service.setSubscriptionAttribute(arn, path[3], *value, context.replyContext, answerEmpty(reply));
        return true;
    }
    return false;
}

} // namespace

// /topics, /topics/NAME, /topics/NAME/{attributes/ATTR,messages,subscriptions},
// /subscriptions/ARN, /subscriptions/ARN/attributes/ATTR
bool topics(const NativeRequest &request, const NativeContext &context, const NativeReply &reply)
{
    const auto &path = request.path;
    if (!path.empty() && path[0] == "subscriptions")
        return subscriptions(request, context, reply);
    if (path.empty() || path[0] != "topics")
        return false;
    const std::string &method = request.method;
    BrokerService &service = context.service;
    if (path.size() == 1) {
        if (method == "GET") {
            const std::string token = request.query.queryItemValue(QStringLiteral("nextToken")).toStdString();
            const BrokerIdentity identity = context.identity;
            service.listTopics(token, context.replyContext, answerWith<TopicPage>(reply, [identity](const TopicPage &page) {
                                   Json list = Json::array();
                                   for (const std::string &arn : page.topicArns) {
                                       auto name = identity.topicNameFromArn(arn);
                                       list.push_back({{"name", name ? *name : arn}, {"arn", arn}});
                                   }
                                   return Json{{"topics", std::move(list)},
                                               {"nextToken", page.nextToken.empty() ? Json() : Json(page.nextToken)}};
                               }));
        } else if (method == "POST") {
            createTopic(request, context, reply);
        } else {
            reply(methodNotAllowed(request));
        }
        return true;
    }
    const std::string &name = path[1];
    if (path.size() == 2) {
        if (method == "GET") {
            const std::string arn = context.identity.topicArn(name);
            service.getTopicAttributes(name, context.replyContext,
                                       answerWith<AttributeMap>(reply, [name, arn](const AttributeMap &attributes) {
                                           return Json{{"name", name}, {"arn", arn}, {"attributes", attributes}};
                                       }));
        } else if (method == "DELETE") {
            service.deleteTopic(name, context.replyContext, answerEmpty(reply));
        } else {
            reply(methodNotAllowed(request));
        }
        return true;
    }
    if (path.size() == 4 && path[2] == "attributes") {
        auto value = attributeValue(request);
        if (method != "PUT")
            reply(methodNotAllowed(request));
        else if (!value)
            reply(NativeAnswer::failure(value.error()));
        else
            service.setTopicAttribute(name, path[3], *value, context.replyContext, answerEmpty(reply));
        return true;
    }
    if (path.size() == 3 && path[2] == "messages") {
        auto publish = readNativePublish(bodyInput(request));
        if (method != "POST")
            reply(methodNotAllowed(request));
        else if (!publish)
            reply(NativeAnswer::failure(publish.error()));
        else
            service.publish(name, std::move(publish).value(), context.replyContext,
                            answerWith<PublishReceipt>(
                                reply,
                                [](const PublishReceipt &receipt) {
                                    return Json{{"messageId", receipt.messageId},
                                                {"sequenceNumber", receipt.sequenceNumber ? Json(*receipt.sequenceNumber) : Json()}};
                                },
                                201));
        return true;
    }
    if (path.size() == 3 && path[2] == "subscriptions") {
        if (method == "GET")
            service.listSubscriptions(name, request.query.queryItemValue(QStringLiteral("nextToken")).toStdString(),
                                      context.replyContext, answerWith<SubscriptionPage>(reply, pageJson));
        else if (method == "POST")
            subscribe(request, context, name, reply);
        else
            reply(methodNotAllowed(request));
        return true;
    }
    return false;
}

} // namespace relaydesk::native_routes
