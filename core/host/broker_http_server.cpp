// SPDX-License-Identifier: MIT
#include "host/broker_http_server.h"

#include "host/broker_health.h"
#include "mock/mock_endpoints.h"
#include "api/native/native_api.h"
#include "api/query/query_protocol.h"
#include "host/serve_identity.h"
#include "api/sqs/sqs_json_protocol.h"
#include "api/wire/wire_error.h"

#include <QUrlQuery>

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

void BrokerHttpServer::handleRequest(const HttpRequest &request, ReplyChannel channel)
{
    if (m_options.mocks != nullptr && m_options.mocks->handle(request, channel))
        return;
    QObject *const context = channel.context(); // replies for a gone client are dropped
    const QUrl url = request.url();
    if (url.path() == QLatin1String("/SimpleNotificationService.pem") && !m_options.signingCertificatePem.empty() &&
        (request.method() == "GET" || request.method() == "HEAD")) {
        channel.send(HttpReply{200, "application/x-pem-file", {},
                               QByteArray::fromStdString(m_options.signingCertificatePem)});
        return;
    }
    if (url.path() == QLatin1String("/health") && m_options.health != nullptr) {
        channel.send(m_options.health->reply(request.method().toStdString()));
        return;
    }
    if (url.path() == QLatin1String("/metrics")) {
        answerPrometheus(m_engine, request.method(), std::move(channel));
        return;
    }
    // Replies name queues by the host the client used (unless advertised).
    const std::optional<BrokerIdentity> forHost =
        identityForHost(m_identity, m_options.advertisedEndpoint, request.value("host"));
    const BrokerIdentity &identity = forHost ? *forHost : m_identity;
    const bool tooLarge = request.bodyTooLarge() || static_cast<std::size_t>(request.body().size()) > kMaxBodyBytes;
    const WireError tooLargeError =
        WireError::bodyTooLarge("The request body is larger than " + std::to_string(kMaxBodyBytes) + " bytes.");

    const QByteArray target = request.value("x-amz-target");
    if (!target.isEmpty()) {
        if (tooLarge)
            channel.send(sqsJsonErrorReply(tooLargeError, newRequestId()));
        else
            answerSqsJson(target, request.body(), SqsActionContext{m_service, identity, context}, channel);
        return;
    }

    if (url.path() == QLatin1String("/api/v1") || url.path().startsWith(QLatin1String("/api/v1/"))) {
        if (tooLarge) {
            channel.send(nativeErrorReply(tooLargeError));
            return;
        }
        auto parsed = readNativeRequest(request.method(), url, request.body());
        if (const std::string *problem = std::get_if<std::string>(&parsed))
            channel.send(nativeErrorReply(WireError::malformedRequest(*problem)));
        else
            answerNative(std::get<NativeRequest>(parsed), NativeContext{m_engine, m_service, identity, context, m_options.mocks,
                                                                       &m_options.signingCertificatePem}, channel);
        return;
    }
    const bool form = request.method() == "POST" &&
                      request.value("content-type").startsWith("application/x-www-form-urlencoded");
    const bool queryGet = request.method() == "GET" &&
                          QUrlQuery(url).hasQueryItem(QStringLiteral("Action"));
    if (form || queryGet) {
        if (tooLarge) {
            channel.send(sqsQueryErrorReply(tooLargeError, newRequestId()));
            return;
        }
        const SqsActionContext sqs{m_service, identity, context};
        const SnsActionContext sns{m_service, identity, context, m_options.autoConfirm};
        const QByteArray parameters = form ? request.body() : url.query(QUrl::FullyEncoded).toUtf8();
        answerQuery(parameters, url.path().toUtf8(), request.value("authorization"), sqs, sns, channel);
        return;
    }

    channel.send(nativeErrorReply(
        {"NotFound", "NotFound", 404, true, "No resource at " + request.url().path().toStdString() + "."}));
}

} // namespace relaydesk
