// SPDX-License-Identifier: MIT
#include "host/broker_http_server.h"

#include "host/broker_health.h"
#include "mock/mock_endpoints.h"
#include "api/native/native_api.h"
#include "api/query/query_protocol.h"
#include "host/serve_identity.h"
#include "api/sqs/sqs_json_protocol.h"
#include "api/wire/wire_error.h"
#include "api/zaqar/zaqar_api.h"

#include <QDateTime>
#include <QUrlQuery>

#include <optional>

namespace relaydesk {

Http1Server::Options BrokerHttpServer::defaultTransport()
{
    Http1Server::Options transport;
    transport.connection.limits.maxBodyBytes = kMaxBodyBytes;
    return transport;
}

BrokerHttpServer::BrokerHttpServer(BrokerEngine &engine, BrokerService &service, BrokerIdentity identity,
                                   Options options, QObject *parent)
    : QObject(parent), m_engine(engine), m_service(service), m_identity(std::move(identity)),
      m_options(std::move(options)),
      m_http(m_options.transport, [this](const HttpRequest &request, ReplyChannel channel) {
          handleRequest(request, std::move(channel));
      }, this)
{
}

namespace {

// The parts of the port, in the order the router tries them (broker_http_server.h).
enum class Route { Mock, Certificate, Health, Metrics, SqsJson, Native, Zaqar, Query, Versions, NotFound };

// The query protocol's parameters: a form-encoded POST body, or a GET's URL
// with Action=; nothing for any other request.
std::optional<QByteArray> queryParameters(const HttpRequest &request)
{
    if (request.method() == "POST" && request.value("content-type").startsWith("application/x-www-form-urlencoded"))
        return request.body();
    if (request.method() == "GET" && QUrlQuery(request.url()).hasQueryItem(QStringLiteral("Action")))
        return request.url().query(QUrl::FullyEncoded).toUtf8();
    return std::nullopt;
}

Route routeOf(const HttpRequest &request)
{
    const QString path = request.url().path();
    const auto mockPrefix = QLatin1String(MockEndpoints::kPathPrefix.data(), qsizetype(MockEndpoints::kPathPrefix.size()));
    if (path.startsWith(mockPrefix) || path == mockPrefix.chopped(1))
        return Route::Mock;
    if (path == QLatin1String("/SimpleNotificationService.pem") && (request.method() == "GET" || request.method() == "HEAD"))
        return Route::Certificate;
    if (path == QLatin1String("/health"))
        return Route::Health;
    if (path == QLatin1String("/metrics"))
        return Route::Metrics;
    if (!request.value("x-amz-target").isEmpty())
        return Route::SqsJson;
    if (path == QLatin1String("/api/v1") || path.startsWith(QLatin1String("/api/v1/")))
        return Route::Native;
    if (path == QLatin1String("/v2") || path.startsWith(QLatin1String("/v2/")))
        return Route::Zaqar;
    if (queryParameters(request))
        return Route::Query;
    if (path == QLatin1String("/") && (request.method() == "GET" || request.method() == "HEAD"))
        return Route::Versions;   // Zaqar's versions document (discovery)
    return Route::NotFound;
}

// `error` in the shape of the protocol of `route`: SQS JSON, query (the
// service of the action), or the native one for every other part.
HttpReply protocolErrorReply(Route route, const HttpRequest &request, const WireError &error)
{
    switch (route) {
    case Route::SqsJson:
        return sqsJsonErrorReply(error, newRequestId());
    case Route::Query:
        return queryErrorReplyFor(*queryParameters(request), request.value("authorization"), error);
    case Route::Zaqar:
        return zaqarErrorReply(error);
    default:
        return nativeErrorReply(error);
    }
}

// What the request of `route` lacks of its credentials (nothing when it
// passes, or when the broker requires none): a 401 carries WWW-Authenticate.
std::optional<WireError> missingCredentials(Route route, const HttpRequest &request, const RequestCredentials &credentials)
{
    switch (route) {
    case Route::SqsJson:
    case Route::Query:
        return credentials.checkSignature(request, QDateTime::currentSecsSinceEpoch());
    case Route::Native:
    case Route::Zaqar:
    case Route::Metrics:
        return credentials.checkBearer(request);
    default:
        return std::nullopt;
    }
}

HttpReply notFound(const HttpRequest &request)
{
    return nativeErrorReply({"NotFound", "NotFound", 404, true, "No resource at " + request.url().path().toStdString() + "."});
}

} // namespace

void BrokerHttpServer::handleRequest(const HttpRequest &request, ReplyChannel channel)
{
    const Route route = routeOf(request);
    // Before any route, mock endpoints included: what a web page makes a
    // browser send (docs/behaviour.md §8.2.1).
    if (const std::optional<WireError> refused = m_options.boundary.check(request)) {
        channel.send(protocolErrorReply(route, request, *refused));
        return;
    }
    const bool tooLarge = request.bodyTooLarge() || static_cast<std::size_t>(request.body().size()) > kMaxBodyBytes;
    if (tooLarge && (route == Route::SqsJson || route == Route::Native || route == Route::Zaqar || route == Route::Query)) {
        channel.send(protocolErrorReply(
            route, request, WireError::bodyTooLarge("The request body is larger than " + std::to_string(kMaxBodyBytes) + " bytes.")));
        return;
    }
    if (const std::optional<WireError> refused = missingCredentials(route, request, m_options.credentials)) {
        HttpReply reply = protocolErrorReply(route, request, *refused);
        if (refused->httpStatus == 401)
            reply.headers.emplace_back("WWW-Authenticate", "Bearer");
        channel.send(reply);
        return;
    }
    QObject *const context = channel.context(); // replies for a gone client are dropped
    // Replies name queues by the host the client used (unless advertised).
    const std::optional<BrokerIdentity> forHost =
        identityForHost(m_identity, m_options.advertisedEndpoint, request.value("host"));
    const BrokerIdentity &identity = forHost ? *forHost : m_identity;
    const QUrl &url = request.url();

    switch (route) {
    case Route::Mock:
        if (m_options.mocks == nullptr || !m_options.mocks->handle(request, channel))
            channel.send(notFound(request));
        return;
    case Route::Certificate:
        if (m_options.signingCertificatePem.empty())
            channel.send(notFound(request));
        else
            channel.send(HttpReply{200, "application/x-pem-file", {}, QByteArray::fromStdString(m_options.signingCertificatePem)});
        return;
    case Route::Health:
        channel.send(m_options.health != nullptr ? m_options.health->reply(request.method().toStdString()) : notFound(request));
        return;
    case Route::Metrics:
        answerPrometheus(m_engine, request.method(), std::move(channel));
        return;
    case Route::SqsJson:
        answerSqsJson(request.value("x-amz-target"), request.body(), SqsActionContext{m_service, identity, context}, channel);
        return;
    case Route::Native: {
        auto parsed = readNativeRequest(request.method(), url, request.value("content-type"), request.body());
        if (const WireError *problem = std::get_if<WireError>(&parsed))
            channel.send(nativeErrorReply(*problem));
        else
            answerNative(std::get<NativeRequest>(parsed), NativeContext{m_engine, m_service, identity, context, m_options.mocks,
                                                                       &m_options.signingCertificatePem}, channel);
        return;
    }
    case Route::Zaqar: {
        auto parsed = readZaqarRequest(request.method(), url, request.value("content-type"), request.value("client-id"),
                                       request.value("x-project-id"), request.body());
        if (const ZaqarAnswer *refused = std::get_if<ZaqarAnswer>(&parsed))
            channel.send(zaqarHttpReply(*refused));
        else
            answerZaqar(std::get<ZaqarRequest>(parsed), ZaqarContext{m_service, context}, channel);
        return;
    }
    case Route::Query: {
        const SqsActionContext sqs{m_service, identity, context};
        const SnsActionContext sns{m_service, identity, context, m_options.autoConfirm};
        answerQuery(*queryParameters(request), request.method() == "GET", url.path().toUtf8(), request.value("authorization"),
                    sqs, sns, channel);
        return;
    }
    case Route::Versions:
        channel.send(zaqarVersionsReply());
        return;
    case Route::NotFound:
        channel.send(notFound(request));
        return;
    }
}

} // namespace relaydesk
