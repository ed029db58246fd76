// SPDX-License-Identifier: MIT
// Native API: /servicebus/topics — Service Bus topics, their subscriptions
// and rules (docs/behaviour.md §8.6, docs/api.md). Bodies are the emulator's Config.json forms.
#include "api/native/native_api.h"

#include "engine/broker_service.h"

namespace relaydesk::native_routes {

namespace {

using Json = nlohmann::json;

Json topicJson(const ServiceBusTopic &topic)
{
    Json json = serviceBusTopicJson(topic);
    Json subscriptions = Json::array();
    for (const ServiceBusSubscription &subscription : topic.subscriptions)
        subscriptions.push_back(serviceBusSubscriptionJson(subscription));
    json["Subscriptions"] = subscriptions;
    return json;
}

Json rulesJson(const std::vector<ServiceBusRule> &rules)
{
    Json list = Json::array();
    for (const ServiceBusRule &rule : rules)
        list.push_back(serviceBusRuleJson(rule));
    return Json{{"rules", list}};
}

// POST /servicebus/topics: 201 with the topic when anything was created,
// 200 when it exists as given.
void createTopic(const NativeRequest &request, const NativeContext &context, const NativeReply &reply)
{
    Result<ServiceBusTopic> topic = parseServiceBusTopic(request.body);
    if (!topic)
        return reply(NativeAnswer::failure(topic.error()));
    const Json created = topicJson(*topic);
    context.service.createServiceBusTopic(*topic, context.replyContext, [reply, created](Result<bool> done) {
        reply(done ? NativeAnswer{*done ? 201 : 200, created} : NativeAnswer::failure(done.error()));
    });
}

// POST /servicebus/topics/T/subscriptions.
void createSubscription(const NativeRequest &request, const NativeContext &context, const NativeReply &reply)
{
    const std::string topicName = request.path[2];
    context.service.findServiceBusTopic(
        topicName, context.replyContext, [request, context, reply, topicName](Result<ServiceBusTopic> topic) {
            if (!topic)
                return reply(NativeAnswer::failure(topic.error()));
            Result<ServiceBusSubscription> subscription = parseServiceBusSubscription(*topic, request.body);
            if (!subscription)
                return reply(NativeAnswer::failure(subscription.error()));
            const Json created = serviceBusSubscriptionJson(*subscription);
            context.service.createServiceBusSubscription(
                topicName, *subscription, context.replyContext, [reply, created](Result<bool> done) {
                    reply(done ? NativeAnswer{*done ? 201 : 200, created} : NativeAnswer::failure(done.error()));
                });
        });
}

bool rules(const NativeRequest &request, const NativeContext &context, const NativeReply &reply)
{
    const auto &path = request.path;
    const std::string &topic = path[2];
    const std::string &subscription = path[4];
    if (path.size() == 6 && request.method == "GET") {
        context.service.listServiceBusRules(topic, subscription, context.replyContext,
                                            answerWith<std::vector<ServiceBusRule>>(reply, rulesJson));
    } else if (path.size() == 6 && request.method == "POST") {
        Result<ServiceBusRule> rule = parseServiceBusRule(request.body);
        if (!rule)
            return reply(NativeAnswer::failure(rule.error())), true;
        const Json created = serviceBusRuleJson(*rule);
        context.service.addServiceBusRule(topic, subscription, *rule, context.replyContext, [reply, created](Status done) {
            reply(done ? NativeAnswer{201, created} : NativeAnswer::failure(done.error()));
        });
    } else if (path.size() == 7 && request.method == "DELETE") {
        context.service.removeServiceBusRule(topic, subscription, path[6], context.replyContext, answerEmpty(reply));
    } else {
        reply(methodNotAllowed(request));
    }
    return true;
}

} // namespace

bool servicebusTopics(const NativeRequest &request, const NativeContext &context, const NativeReply &reply)
{
    const auto &path = request.path;
    if (path.size() < 2 || path.size() > 7 || path[0] != "servicebus" || path[1] != "topics")
        return false;
    if (path.size() == 2 && request.method == "GET") {
        context.service.listServiceBusTopics(
            context.replyContext, answerWith<std::vector<ServiceBusTopic>>(reply, [](const auto &topics) {
                Json list = Json::array();
                for (const ServiceBusTopic &topic : topics)
                    list.push_back(topicJson(topic));
                return Json{{"topics", list}};
            }));
    } else if (path.size() == 2 && request.method == "POST") {
        createTopic(request, context, reply);
    } else if (path.size() == 3 && request.method == "GET") {
        context.service.findServiceBusTopic(path[2], context.replyContext,
                                            answerWith<ServiceBusTopic>(reply, topicJson));
    } else if (path.size() == 4 && path[3] == "subscriptions" && request.method == "GET") {
        context.service.findServiceBusTopic(
            path[2], context.replyContext, answerWith<ServiceBusTopic>(reply, [](const ServiceBusTopic &topic) {
                return Json{{"subscriptions", topicJson(topic)["Subscriptions"]}};
            }));
    } else if (path.size() == 4 && path[3] == "subscriptions" && request.method == "POST") {
        createSubscription(request, context, reply);
    } else if (path.size() >= 6 && path[3] == "subscriptions" && path[5] == "rules") {
        return rules(request, context, reply);
    } else if (path.size() <= 4 || (path.size() == 5 && path[3] == "subscriptions")) {
        reply(methodNotAllowed(request));
    } else {
        return false;
    }
    return true;
}

} // namespace relaydesk::native_routes
