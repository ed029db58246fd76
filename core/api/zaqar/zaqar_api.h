// SPDX-License-Identifier: MIT
#pragma once

#include "api/wire/wire_error.h"
#include "http/http_reply.h"

#include <nlohmann/json.hpp>

#include <QByteArray>
#include <QUrl>
#include <QUrlQuery>

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

class QObject;

namespace relaydesk {

class BrokerService;

// One request to the Zaqar v2 API (docs/behaviour.md §8.5) under /v2.
struct ZaqarRequest {
    std::string method;                  // "GET", "PUT", "POST", "PATCH", "DELETE", "HEAD" (ping)
    std::vector<std::string> path;       // segments after /v2, percent-decoded
    QUrlQuery query;
    std::optional<nlohmann::json> body;  // absent when the request had none
    bool jsonPatch = false;              // Content-Type application/openstack-messaging-v2.0-json-patch
    std::string clientId;                // Client-ID; checked by answerZaqar
    std::string projectId;               // X-Project-ID; accepted, recorded, not a namespace

    std::optional<std::string> param(const char *name) const;
};

// An answer: a status, a JSON body or none (204), extra headers (Location).
struct ZaqarAnswer {
    int status = 200;
    std::optional<nlohmann::json> body;
    std::vector<std::pair<QByteArray, QByteArray>> headers;

    static ZaqarAnswer json(int status, nlohmann::json body) { return {status, std::move(body), {}}; }
    static ZaqarAnswer empty(int status = 204) { return {status, std::nullopt, {}}; }
    // Zaqar's error body {"title", "description"} (zaqar/transport/wsgi/errors.py).
    static ZaqarAnswer error(int status, std::string title, std::string description);
    static ZaqarAnswer badRequest(std::string description) { return error(400, "Invalid API request", std::move(description)); }
    static ZaqarAnswer badBody(std::string description) { return error(400, "Invalid request body", std::move(description)); }
    static ZaqarAnswer notFound(std::string description) { return error(404, "Not found", std::move(description)); }
    static ZaqarAnswer conflict(std::string description) { return error(409, "Resource conflict", std::move(description)); }
    static ZaqarAnswer unavailable(std::string description)
    {
        return error(503, "Service temporarily unavailable", std::move(description));
    }
};
using ZaqarReply = std::function<void(ZaqarAnswer)>;

// What the routes need. Borrowed; all outlive every request.
struct ZaqarContext {
    BrokerService &service;
    QObject *replyContext = nullptr;
};

// Reads the parts of an HTTP request under /v2, or the refusal: a body, or a
// Content-Type, must be JSON (`application/json`, or the JSON-patch type on
// PATCH), else 415 — what a web page's form or no-CORS fetch sends never
// reaches a route (docs/behaviour.md §8.2.1); a body that does not parse is
// 400 "Malformed JSON". Pure.
std::variant<ZaqarRequest, ZaqarAnswer> readZaqarRequest(const QByteArray &method, const QUrl &url,
                                                        const QByteArray &contentType, const QByteArray &clientId,
                                                        const QByteArray &projectId, const QByteArray &body);

// Routes `request` to its resource and replies in Zaqar's shapes: the home
// document, ping, health, queues, messages, claims, subscriptions. Client-ID
// (a UUID) is required on every request. Thread: the replyContext's.
void answerZaqar(const ZaqarRequest &request, const ZaqarContext &context, ReplyChannel channel);

// GET / as Zaqar answers it (zaqar/transport/wsgi/version.py): 300 and the
// versions document listing v2, so that discovery (keystoneauth with an
// endpoint override) finds /v2/. Needs no Client-ID, as in Zaqar. Pure.
HttpReply zaqarVersionsReply();

// A refusal of the HTTP front (browser boundary, size) in Zaqar's shape.
HttpReply zaqarErrorReply(const WireError &error);
HttpReply zaqarHttpReply(const ZaqarAnswer &answer);

// The route tables of the resource files; each returns false when the path is
// not its resource.
namespace zaqar_routes {
bool queues(const ZaqarRequest &, const ZaqarContext &, const ZaqarReply &);
bool messages(const ZaqarRequest &, const ZaqarContext &, const ZaqarReply &);
bool claims(const ZaqarRequest &, const ZaqarContext &, const ZaqarReply &);
bool subscriptions(const ZaqarRequest &, const ZaqarContext &, const ZaqarReply &);
ZaqarAnswer methodNotAllowed(const ZaqarRequest &request);
} // namespace zaqar_routes

} // namespace relaydesk
