// SPDX-License-Identifier: MIT
// Native API: /servicebus/queues — the Service Bus queues (docs/behaviour.md §8.6, docs/api.md).
#include "api/native/native_api.h"

#include "engine/broker_service.h"

namespace relaydesk::native_routes {

namespace {

using Json = nlohmann::json;

// POST: {"Name": …, "Properties": {…}} as in the emulator's Config.json;
// 201 with the queue when created, 200 when it exists with the same properties.
void createServiceBusQueue(const NativeRequest &request, const NativeContext &context, const NativeReply &reply)
{
    Result<ServiceBusQueueProperties> properties = parseServiceBusQueue(request.body);
    if (!properties)
        return reply(NativeAnswer::failure(properties.error()));
    const Json created = serviceBusQueueJson(*properties);
    context.service.createServiceBusQueue(*properties, context.replyContext, [reply, created](Result<bool> done) {
        reply(done ? NativeAnswer{*done ? 201 : 200, created} : NativeAnswer::failure(done.error()));
    });
}

} // namespace

bool servicebus(const NativeRequest &request, const NativeContext &context, const NativeReply &reply)
{
    const auto &path = request.path;
    if (path.size() != 2 || path[0] != "servicebus" || path[1] != "queues")
        return false;
    if (request.method == "POST") {
        createServiceBusQueue(request, context, reply);
    } else if (request.method == "GET") {
        context.service.listServiceBusQueues(
            context.replyContext, answerWith<std::vector<ServiceBusQueueProperties>>(reply, [](const auto &queues) {
                Json list = Json::array();
                for (const ServiceBusQueueProperties &queue : queues)
                    list.push_back(serviceBusQueueJson(queue));
                return Json{{"queues", list}};
            }));
    } else {
        reply(methodNotAllowed(request));
    }
    return true;
}

} // namespace relaydesk::native_routes
