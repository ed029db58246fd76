// SPDX-License-Identifier: MIT
// Native API: /mocks (docs/behaviour.md §4.7) and /signing-certificate (docs/behaviour.md §4.1); /attempts
// (docs/behaviour.md §4.4) is native_attempt_routes.cpp.
//
//   GET    /mocks                    → {"mocks": [MOCK, ...]} by name
//   PUT    /mocks/NAME {"script": S} → MOCK (created or replaced: starts afresh; answered once stored)
//   GET    /mocks/NAME               → MOCK
//   DELETE /mocks/NAME               → {} (answered once stored)
//   GET    /mocks/NAME/requests      → {"requests": [REQUEST, ...]} oldest first
//   DELETE /mocks/NAME/requests      → {} (forgets the recorded requests)
//   GET    /signing-certificate      → {"certificatePem": PEM, "url": SigningCertURL}
// MOCK = {"name", "script", "url", "requestCount"}; REQUEST = {"method",
// "target", "headers": [{"name", "value"}], "body" (its first 64 KiB),
// "bodySize" (the whole body's bytes), "received" (clock time),
// "answer": {"action": "respond"|"hang"|"close", "status", "delayMs"}}.
// Errors: InvalidParameterValue (400) for a bad name or script (the message
// names the character position); an unknown mock is NotFound (404).
#include "api/native/native_api.h"

#include "broker/deliveries/sns_envelope.h"
#include "engine/broker_engine.h"
#include "mock/mock_endpoints.h"

#include <QObject>

#include <variant>

namespace relaydesk::native_routes {

namespace {

using Json = nlohmann::json;

NativeAnswer noSuchMock(const std::string &name)
{
    return NativeAnswer::failure(404, "NotFound", "There is no mock endpoint named " + name + ".");
}

Json mockJson(const MockEndpointSummary &mock, const BrokerIdentity &identity)
{
    return {{"name", mock.name},
            {"script", mock.script},
            {"url", identity.endpoint + MockEndpoints::pathOf(mock.name)},
            {"requestCount", mock.requestCount}};
}

Json stepJson(const MockStep &step)
{
    const char *action = step.action == MockAction::Respond ? "respond"
                         : step.action == MockAction::Hang  ? "hang"
                                                            : "close";
    Json json = {{"action", action}, {"delayMs", step.delay.count()}};
    json["status"] = step.action == MockAction::Respond ? Json(step.status) : Json();
    return json;
}

Json requestJson(const MockRequest &received)
{
    Json headers = Json::array();
    for (const auto &[name, value] : received.headers)
        headers.push_back({{"name", name}, {"value", value}});
    return {{"method", received.method},
            {"target", received.target},
            {"headers", std::move(headers)},
            {"body", received.body},
            {"bodySize", received.bodySize},
            {"received", formatIso8601(received.received)},
            {"answer", stepJson(received.answer)}};
}

void mockRequests(const NativeRequest &request, MockEndpoints &mocks, const NativeReply &reply)
{
    const std::string &name = request.path[1];
    if (request.method == "DELETE") {
        const Status cleared = mocks.clearReceived(name);
        return reply(cleared ? NativeAnswer{} : noSuchMock(name));
    }
    if (request.method != "GET")
        return reply(methodNotAllowed(request));
    auto received = mocks.received(name);
    if (!received)
        return reply(noSuchMock(name));
    Json list = Json::array();
    for (const MockRequest &one : *received)
        list.push_back(requestJson(one));
    reply(NativeAnswer{200, {{"requests", std::move(list)}}});
}

void mock(const NativeRequest &request, const NativeContext &context, MockEndpoints &mocks, const NativeReply &reply)
{
    const std::string &name = request.path[1];
    if (request.method == "PUT") {
        const Json script = request.body.value("script", Json());
        if (!script.is_string())
            return reply(NativeAnswer::invalid("\"script\" must be a string such as \"503 x 5, then 200\"."));
        // Answered once stored: a mock is part of the user's set-up (kept over restarts).
        return mocks.set(name, script.get<std::string>(), context.replyContext,
                         [&mocks, name, identity = context.identity, reply](Status set) {
                             if (!set)
                                 return reply(NativeAnswer::failure(set.error()));
                             const auto found = mocks.find(name); // gone again if a DELETE came meanwhile
                             reply(found ? NativeAnswer{200, mockJson(*found, identity)} : noSuchMock(name));
                         });
    }
    if (request.method == "GET") {
        const auto found = mocks.find(name);
        return reply(found ? NativeAnswer{200, mockJson(*found, context.identity)} : noSuchMock(name));
    }
    if (request.method == "DELETE") {
        return mocks.remove(name, context.replyContext, [name, reply](Result<bool> removed) {
            if (!removed)
                return reply(NativeAnswer::failure(removed.error()));
            reply(*removed ? NativeAnswer{} : noSuchMock(name));
        });
    }
    reply(methodNotAllowed(request));
}

bool mocks(const NativeRequest &request, const NativeContext &context, const NativeReply &reply)
{
    if (request.path.empty() || request.path[0] != "mocks" || request.path.size() > 3 || context.mocks == nullptr)
        return false;
    if (request.path.size() == 3 && request.path[2] != "requests")
        return false;
    MockEndpoints &endpoints = *context.mocks;
    if (request.path.size() == 3) {
        mockRequests(request, endpoints, reply);
    } else if (request.path.size() == 2) {
        mock(request, context, endpoints, reply);
    } else if (request.method != "GET") {
        reply(methodNotAllowed(request));
    } else {
        Json list = Json::array();
        for (const MockEndpointSummary &one : endpoints.list())
            list.push_back(mockJson(one, context.identity));
        reply(NativeAnswer{200, {{"mocks", std::move(list)}}});
    }
    return true;
}

bool signingCertificate(const NativeRequest &request, const NativeContext &context, const NativeReply &reply)
{
    if (request.path.size() != 1 || request.path[0] != "signing-certificate" ||
        context.signingCertificatePem == nullptr || context.signingCertificatePem->empty())
        return false;
    if (request.method != "GET")
        reply(methodNotAllowed(request));
    else
        reply(NativeAnswer{200,
                           {{"certificatePem", *context.signingCertificatePem},
                            {"url", signingCertUrl(context.identity)}}});
    return true;
}

} // namespace

bool deliveries(const NativeRequest &request, const NativeContext &context, const NativeReply &reply)
{
    return attempts(request, context, reply) || mocks(request, context, reply) || signingCertificate(request, context, reply);
}

} // namespace relaydesk::native_routes
