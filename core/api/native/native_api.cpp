// SPDX-License-Identifier: MIT
#include "api/native/native_api.h"

#include "json/bounded_json.h"

#include "api/wire/action_input.h"
#include "api/wire/wire_error.h"
#include "broker/echoed_value.h"

#include <QUrl>

namespace relaydesk {

NativeAnswer NativeAnswer::failure(const BrokerError &error)
{
    const BrokerErrorInfo &info = error.info();
    return failure(info.httpStatus, std::string(info.name), error.message);
}

NativeAnswer NativeAnswer::failure(int status, std::string code, std::string message)
{
    return {status, {{"error", std::move(code)}, {"message", std::move(message)}}};
}

NativeAnswer NativeAnswer::invalid(std::string message)
{
    return failure(BrokerError(BrokerErrorCode::InvalidParameterValue, std::move(message)));
}

namespace native_routes {

NativeAnswer methodNotAllowed(const NativeRequest &request)
{
    std::string path;
    for (const std::string &segment : request.path)
        path += "/" + segment;
    return NativeAnswer::failure(405, "MethodNotAllowed",
                                 echoedValue(request.method) + " is not allowed on /api/v1" + echoedValue(path) + ".");
}

Result<EntityCreation> readEntityCreation(const ActionInput &input)
{
    auto name = input.requiredString("name");
    if (!name)
        return name.error();
    auto attributes = input.stringMap("attributes");
    if (!attributes)
        return attributes.error();
    auto tags = input.stringMap("tags");
    if (!tags)
        return tags.error();
    return EntityCreation{std::move(name).value(), std::move(attributes).value(), std::move(tags).value()};
}

} // namespace native_routes

namespace {

// Whether a Content-Type value names JSON: `application/json`, in any case,
// with or without parameters.
bool declaresJson(const QByteArray &contentType)
{
    const qsizetype semicolon = contentType.indexOf(';');
    const QByteArray type = (semicolon < 0 ? contentType : contentType.first(semicolon)).trimmed();
    return type.compare("application/json", Qt::CaseInsensitive) == 0;
}

} // namespace

std::variant<NativeRequest, WireError> readNativeRequest(const QByteArray &method, const QUrl &url,
                                                        const QByteArray &contentType, const QByteArray &body)
{
    if ((!contentType.isEmpty() || !body.isEmpty()) && !declaresJson(contentType)) {
        const std::string said = contentType.isEmpty() ? std::string("a body without a Content-Type")
                                                       : "Content-Type " + echoedValue(contentType.toStdString());
        return WireError::unsupportedMediaType("The native API reads JSON only: send Content-Type: application/json "
                                               "(curl: -H 'Content-Type: application/json'); this request had " +
                                               said + ".");
    }
    NativeRequest request;
    request.method = method.toUpper().toStdString();
    const QString path = url.path(QUrl::FullyEncoded);
    const QString prefix = QStringLiteral("/api/v1");
    for (const QString &segment : path.mid(prefix.size()).split(QLatin1Char('/'), Qt::SkipEmptyParts))
        request.path.push_back(QUrl::fromPercentEncoding(segment.toUtf8()).toStdString());
    request.query = QUrlQuery(url);
    if (body.trimmed().isEmpty()) {
        request.body = nlohmann::json::object();
        return request;
    }
    request.body = parseBoundedJson(std::string_view(body.constData(), std::size_t(body.size())));
    if (request.body.is_discarded() || !request.body.is_object())
        return WireError::malformedRequest("The request body is not a JSON object.");
    return request;
}

void answerNative(const NativeRequest &request, const NativeContext &context, ReplyChannel channel)
{
    NativeReply reply = [channel](NativeAnswer answer) mutable {
        HttpReply http;
        http.status = answer.status;
        if (answer.rawBody) {
            http.contentType = QByteArray::fromStdString(answer.rawContentType);
            http.body = QByteArray::fromStdString(*answer.rawBody);
        } else {
            http.contentType = "application/json";
            http.body = QByteArray::fromStdString(jsonText(answer.body));
        }
        channel.send(http);
    };
    using Route = bool (*)(const NativeRequest &, const NativeContext &, const NativeReply &);
    for (Route route : {native_routes::clock, native_routes::policies, native_routes::queues, native_routes::topics,
                        native_routes::deliveries, native_routes::metrics, native_routes::config,
                        native_routes::servicebus, native_routes::servicebusTopics}) {
        if (route(request, context, reply))
            return;
    }
    std::string path;
    for (const std::string &segment : request.path)
        path += "/" + segment;
    reply(NativeAnswer::failure(404, "NotFound", "No resource at /api/v1" + echoedValue(path) + "."));
}

} // namespace relaydesk
