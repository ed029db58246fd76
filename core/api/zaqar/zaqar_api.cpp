// SPDX-License-Identifier: MIT
#include "api/zaqar/zaqar_api.h"

#include "api/zaqar/zaqar_rules.h"
#include "api/zaqar/zaqar_unit.h"

#include "api/wire/action_input.h"
#include "broker/echoed_value.h"
#include "json/bounded_json.h"

namespace relaydesk {

std::optional<std::string> ZaqarRequest::param(const char *name) const
{
    const QString key = QString::fromLatin1(name);
    if (!query.hasQueryItem(key))
        return std::nullopt;
    return query.queryItemValue(key, QUrl::FullyDecoded).toStdString();
}

ZaqarAnswer ZaqarAnswer::error(int status, std::string title, std::string description)
{
    return json(status, {{"title", std::move(title)}, {"description", std::move(description)}});
}

namespace {

QByteArray mediaType(const QByteArray &contentType)
{
    const qsizetype semicolon = contentType.indexOf(';');
    return (semicolon < 0 ? contentType : contentType.first(semicolon)).trimmed().toLower();
}

constexpr const char *kJsonPatchType = "application/openstack-messaging-v2.0-json-patch";

// The home document (JSON Home) of the resources this API answers.
nlohmann::json homeDocument()
{
    const auto resource = [](const char *href, nlohmann::json vars, std::vector<std::string> methods) {
        return nlohmann::json{{"href-template", href},
                              {"href-vars", std::move(vars)},
                              {"hints", {{"allow", methods}, {"formats", {{"application/json", nlohmann::json::object()}}}}}};
    };
    const nlohmann::json queueVar = {{"queue_name", "param/queue_name"}};
    nlohmann::json resources = {
        {"rel/queues", resource("/v2/queues{?marker,limit,detailed}",
                                {{"marker", "param/marker"}, {"limit", "param/queue_limit"}, {"detailed", "param/detailed"}},
                                {"GET"})},
        {"rel/queue", resource("/v2/queues/{queue_name}", queueVar, {"GET", "PUT", "PATCH", "DELETE"})},
        {"rel/queue_stats", resource("/v2/queues/{queue_name}/stats", queueVar, {"GET"})},
        {"rel/messages", resource("/v2/queues/{queue_name}/messages{?marker,limit,echo,include_claimed}", queueVar,
                                  {"GET", "POST", "DELETE"})},
        {"rel/claim", resource("/v2/queues/{queue_name}/claims{?limit}", queueVar, {"POST", "GET", "PATCH", "DELETE"})},
        {"rel/subscriptions", resource("/v2/queues/{queue_name}/subscriptions", queueVar, {"GET", "POST"})},
        {"rel/ping", resource("/v2/ping", nlohmann::json::object(), {"GET", "HEAD"})},
        {"rel/health", resource("/v2/health", nlohmann::json::object(), {"GET"})},
    };
    return {{"resources", resources}};
}

} // namespace

std::variant<ZaqarRequest, ZaqarAnswer> readZaqarRequest(const QByteArray &method, const QUrl &url,
                                                        const QByteArray &contentType, const QByteArray &clientId,
                                                        const QByteArray &projectId, const QByteArray &body)
{
    ZaqarRequest request;
    request.method = method.toUpper().toStdString();
    const QByteArray type = mediaType(contentType);
    request.jsonPatch = type == kJsonPatchType;
    if ((!contentType.isEmpty() || !body.isEmpty()) && type != "application/json" && !request.jsonPatch) {
        const std::string said = contentType.isEmpty() ? std::string("a body without a Content-Type")
                                                       : "Content-Type " + echoedValue(contentType.toStdString());
        return ZaqarAnswer::error(415, "Unsupported media type",
                                  "The Zaqar API reads JSON only: send Content-Type: application/json (or " +
                                      std::string(kJsonPatchType) + " for a queue's PATCH); this request had " + said + ".");
    }
    const QString path = url.path(QUrl::FullyEncoded);
    for (const QString &segment : path.mid(3).split(QLatin1Char('/'), Qt::SkipEmptyParts))
        request.path.push_back(QUrl::fromPercentEncoding(segment.toUtf8()).toStdString());
    request.query = QUrlQuery(url);
    request.clientId = clientId.trimmed().toStdString();
    request.projectId = projectId.trimmed().toStdString();
    if (!body.trimmed().isEmpty()) {
        nlohmann::json parsed = parseBoundedJson(std::string_view(body.constData(), std::size_t(body.size())));
        if (parsed.is_discarded())
            return ZaqarAnswer::badBody("Malformed JSON");
        request.body = std::move(parsed);
    }
    return request;
}

HttpReply zaqarHttpReply(const ZaqarAnswer &answer)
{
    HttpReply http;
    http.status = answer.status;
    http.headers = answer.headers;
    if (answer.body) {
        http.contentType = "application/json; charset=UTF-8";
        http.body = QByteArray::fromStdString(jsonText(*answer.body));
    }
    return http;
}

HttpReply zaqarVersionsReply()
{
    const nlohmann::json version = {
        {"id", "2"},
        {"status", "CURRENT"},
        {"updated", "2014-9-24T04:06:47Z"},
        {"media-types", {{{"base", "application/json"}, {"type", "application/vnd.openstack.messaging-v2+json"}}}},
        {"links", {{{"href", "/v2/"}, {"rel", "self"}}}}};
    return zaqarHttpReply(ZaqarAnswer::json(300, {{"versions", {version}}}));
}

HttpReply zaqarErrorReply(const WireError &error)
{
    return zaqarHttpReply(ZaqarAnswer::error(error.httpStatus, error.jsonCode, error.message));
}

namespace zaqar_routes {

ZaqarAnswer methodNotAllowed(const ZaqarRequest &request)
{
    std::string path;
    for (const std::string &segment : request.path)
        path += "/" + segment;
    return ZaqarAnswer::error(405, "Method not allowed", request.method + " is not allowed on /v2" + path + ".");
}

} // namespace zaqar_routes

void answerZaqar(const ZaqarRequest &request, const ZaqarContext &context, ReplyChannel channel)
{
    ZaqarReply reply = [channel](ZaqarAnswer answer) mutable { channel.send(zaqarHttpReply(answer)); };
    // Every request under /v2 names its client (zaqar/common/transport/wsgi/helpers.py).
    if (request.clientId.empty()) {
        reply(ZaqarAnswer::error(400, "Missing header value", "The Client-ID header is required."));
        return;
    }
    if (!zaqar::isClientId(request.clientId)) {
        reply(ZaqarAnswer::badRequest("Malformed hexadecimal UUID."));
        return;
    }
    const std::vector<std::string> &path = request.path;
    if (path.empty()) {
        if (request.method == "GET")
            reply(ZaqarAnswer::json(200, homeDocument()));
        else
            reply(zaqar_routes::methodNotAllowed(request));
        return;
    }
    if (path.size() == 1 && path[0] == "ping") {
        reply(request.method == "GET" || request.method == "HEAD" ? ZaqarAnswer::empty(204)
                                                                   : zaqar_routes::methodNotAllowed(request));
        return;
    }
    if (path.size() == 1 && path[0] == "health") {
        reply(request.method == "GET"
                  ? ZaqarAnswer::json(200, {{"catalog_reachable", true}, {"storage_reachable", true}})
                  : zaqar_routes::methodNotAllowed(request));
        return;
    }
    if (path[0] == "queues" && path.size() >= 2) {
        if (std::optional<ZaqarAnswer> refused = zaqar::queueNameRefusal(path[1])) {
            reply(*refused);
            return;
        }
    }
    using Route = bool (*)(const ZaqarRequest &, const ZaqarContext &, const ZaqarReply &);
    for (Route route : {zaqar_routes::queues, zaqar_routes::messages, zaqar_routes::claims, zaqar_routes::subscriptions}) {
        if (route(request, context, reply))
            return;
    }
    std::string shown;
    for (const std::string &segment : path)
        shown += "/" + segment;
    reply(ZaqarAnswer::notFound("No resource at /v2" + shown + "."));
}

} // namespace relaydesk
