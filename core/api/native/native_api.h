// SPDX-License-Identifier: MIT
#pragma once

#include "broker/broker_identity.h"
#include "broker/result.h"
#include "api/wire/action_input.h"
#include "api/wire/wire_error.h"
#include "broker/deliveries/topic_publisher.h"
#include "broker/queues/message_sender.h"
#include "http/http_reply.h"

#include <nlohmann/json.hpp>

#include <QUrlQuery>

#include <functional>
#include <map>
#include <optional>
#include <variant>
#include <string>
#include <vector>

class QObject;

namespace relaydesk {

class BrokerEngine;
class Clock;
class BrokerService;
class MockEndpoints;

// One request to the native JSON API (docs/behaviour.md §8.2) under /api/v1/.
struct NativeRequest {
    std::string method;                  // "GET", "POST", "PUT", "DELETE"
    std::vector<std::string> path;       // segments after /api/v1/, percent-decoded
    QUrlQuery query;
    nlohmann::json body;                 // {} when the request had none
};

// An answer: status and JSON — 200/201 with the resource, or ≥ 400 with
// {"error": CODE, "message": …}.
struct NativeAnswer {
    NativeAnswer(int answerStatus = 200, nlohmann::json answerBody = nlohmann::json::object())
        : status(answerStatus), body(std::move(answerBody)) {}

    int status = 200;
    nlohmann::json body = nlohmann::json::object();
    // A body other than JSON (an export as CSV): sent as it is, with
    // rawContentType, instead of `body`.
    std::optional<std::string> rawBody;
    std::string rawContentType;

    static NativeAnswer failure(const BrokerError &error);   // the broker's code and status
    static NativeAnswer failure(int status, std::string code, std::string message);
    static NativeAnswer invalid(std::string message);         // InvalidParameterValue: a parameter the route refuses
};
using NativeReply = std::function<void(NativeAnswer)>;

// What the routes need. The engine, the service, the reply context, the
// mocks and the certificate are borrowed and outlive every request. The
// identity is the request's own (it follows the request's Host), so it is
// held by value: a route that answers after a broker reply keeps a copy of
// the context, and the request's frame is gone by then.
struct NativeContext {
    BrokerEngine &engine;
    BrokerService &service;
    BrokerIdentity identity;
    QObject *replyContext = nullptr;
    MockEndpoints *mocks = nullptr;                       // null: /mocks answers 404
    const std::string *signingCertificatePem = nullptr;   // null or empty: /signing-certificate answers 404
};

// The native JSON API: routes a request to its resource and replies with
// JSON, or an error {"error": CODE, "message": …} with the broker's code.
// Resources and their JSON are documented in docs/api.md. An unknown
// resource is 404 NotFound, a known one with the wrong method 405
// MethodNotAllowed. Thread: the replyContext's.
void answerNative(const NativeRequest &request, const NativeContext &context, ReplyChannel channel);

// GET /metrics (outside /api/v1): refreshes the stale queue depths, then
// answers the engine's metrics in the Prometheus text format (HEAD: the same
// without a body; other methods 405). Thread: the channel's.
void answerPrometheus(BrokerEngine &engine, const QByteArray &method, ReplyChannel channel);

// Reads the parts of an HTTP request under /api/v1/, or the error that refuses
// it: a request with a body or a Content-Type must declare
// `application/json` (parameters such as charset allowed), else 415
// UnsupportedMediaType — what an HTML form or a no-CORS fetch of a web page
// sends (text/plain, form-encoded, multipart) never reaches a route
// (docs/behaviour.md §8.2.1); a body that is not a JSON object is SerializationException.
// `contentType`: the header's value, empty when there is none. Pure.
std::variant<NativeRequest, WireError> readNativeRequest(const QByteArray &method, const QUrl &url,
                                                        const QByteArray &contentType, const QByteArray &body);

// The route tables of the resource files (native_*_routes.cpp). Each returns
// false when the path is not its resource (the router then tries the next).
namespace native_routes {
// The clock as GET /clock answers it: {"mode", "scale", "now", "nowMs"} (also in GET /health).
nlohmann::json clockJson(const Clock &clock);
bool clock(const NativeRequest &, const NativeContext &, const NativeReply &);
// /config: GET exports, POST applies a configuration document (native_config_routes.cpp).
bool config(const NativeRequest &, const NativeContext &, const NativeReply &);
// /attempts, /mocks, /signing-certificate (native_delivery_routes.cpp).
bool deliveries(const NativeRequest &, const NativeContext &, const NativeReply &);
// /attempts and /attempts/redeliver (native_attempt_routes.cpp).
bool attempts(const NativeRequest &, const NativeContext &, const NativeReply &);
// /metrics: the engine's counters and depths as JSON (native_metrics_routes.cpp).
bool metrics(const NativeRequest &, const NativeContext &, const NativeReply &);
bool policies(const NativeRequest &, const NativeContext &, const NativeReply &);
bool queues(const NativeRequest &, const NativeContext &, const NativeReply &);
// /servicebus/queues (native_servicebus_routes.cpp).
bool servicebus(const NativeRequest &, const NativeContext &, const NativeReply &);
// /servicebus/topics[/T[/subscriptions[/S/rules[/R]]]] (native_servicebus_topic_routes.cpp).
bool servicebusTopics(const NativeRequest &, const NativeContext &, const NativeReply &);
bool topics(const NativeRequest &, const NativeContext &, const NativeReply &);
// The body of a create request, {"name", "attributes", "tags"}; errors in
// the codes of `input` (SQS for queues, SNS for topics), the first of name,
// attributes, tags.
struct EntityCreation {
    std::string name;
    std::map<std::string, std::string> attributes;
    std::map<std::string, std::string> tags;
};
Result<EntityCreation> readEntityCreation(const ActionInput &input);
// POST /queues/NAME/messages: {"body", "attributes", "delaySeconds", "groupId",
// "deduplicationId", "timeToLiveSeconds", "scheduledEnqueueTime" (ISO 8601)}
// in SQS's codes (InvalidParameterValue, MissingParameter). Pure (native_bodies.cpp).
Result<SendRequest> readNativeSend(const ActionInput &input);
// POST /topics/NAME/publish: {"message", "subject", "attributes", "groupId",
// "deduplicationId", "timeToLiveSeconds"} in SNS's codes (InvalidParameter;
// ParameterValueInvalid for attributes). Pure.
Result<PublishRequest> readNativePublish(const ActionInput &input);
// The 405 answer for a known resource.
NativeAnswer methodNotAllowed(const NativeRequest &request);
// Adapts a service reply: `write` turns the value into the 200 body.
template <class T, class Write>
std::function<void(Result<T>)> answerWith(NativeReply reply, Write write, int status = 200)
{
    return [reply = std::move(reply), write, status](Result<T> result) {
        reply(result ? NativeAnswer{status, write(*result)} : NativeAnswer::failure(result.error()));
    };
}
inline std::function<void(Status)> answerEmpty(NativeReply reply)
{
    return [reply = std::move(reply)](Status status) {
        reply(status ? NativeAnswer{} : NativeAnswer::failure(status.error()));
    };
}
} // namespace native_routes

} // namespace relaydesk
