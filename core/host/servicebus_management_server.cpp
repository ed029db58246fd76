// SPDX-License-Identifier: MIT
#include "host/servicebus_management_server.h"

#include "api/servicebus/management/management_api.h"
#include "http/http_request.h"

#include <QDateTime>

namespace relaydesk {

namespace {

Http1Server::Options transport(std::shared_ptr<const TlsServerContext> tls)
{
    Http1Server::Options options;
    options.connection.limits.maxBodyBytes = ServiceBusManagementServer::kMaxBodyBytes;
    options.connection.tls = std::move(tls);   // null: plain HTTP only; else TLS or plain by the first byte
    return options;
}

} // namespace

ServiceBusManagementServer::ServiceBusManagementServer(BrokerService &service, Options options)
    : m_service(service), m_options(std::move(options)),
      m_http(transport(m_options.tls), [this](const HttpRequest &request, ReplyChannel channel) {
          handleRequest(request, std::move(channel));
      }, this)
{
}

std::variant<std::unique_ptr<ServiceBusManagementServer>, QString>
ServiceBusManagementServer::start(BrokerService &service, const QHostAddress &bind, quint16 port, Options options)
{
    auto listener = std::make_unique<HttpListener>();
    listener->setListenBacklogSize(Http1Server::kListenBacklog);
    if (!listener->listen(bind, port))
        return QStringLiteral("--sb-management-port: cannot listen on %1:%2: %3")
            .arg(bind.toString())
            .arg(port)
            .arg(listener->errorString());
    std::unique_ptr<ServiceBusManagementServer> server(new ServiceBusManagementServer(service, std::move(options)));
    server->m_port = listener->serverPort();
    server->m_http.bind(listener.release());
    if (bind == QHostAddress(QHostAddress::LocalHost)) {
        auto ipv6 = std::make_unique<HttpListener>();
        ipv6->setListenBacklogSize(Http1Server::kListenBacklog);
        if (ipv6->listen(QHostAddress::LocalHostIPv6, server->m_port)) {
            ServiceBusManagementServer *const self = server.get();
            server->m_ipv6 = std::make_unique<Http1Server>(transport(self->m_options.tls), [self](const HttpRequest &request, ReplyChannel channel) {
                self->handleRequest(request, std::move(channel));
            });
            server->m_ipv6->bind(ipv6.release());
        }
    }
    return server;
}

void ServiceBusManagementServer::stopAccepting()
{
    m_http.stopAccepting();
    if (m_ipv6)
        m_ipv6->stopAccepting();
}

std::size_t ServiceBusManagementServer::owedAnswers() const
{
    return m_http.owedAnswers() + (m_ipv6 ? m_ipv6->owedAnswers() : 0);
}

void ServiceBusManagementServer::handleRequest(const HttpRequest &request, ReplyChannel channel)
{
    if (const std::optional<WireError> refused = m_options.boundary.check(request))
        return channel.send(managementErrorReply(refused->httpStatus, QString::fromStdString(refused->message)));
    if (const std::optional<WireError> refused =
            m_options.credentials.checkSharedAccessSignature(request, QDateTime::currentSecsSinceEpoch())) {
        HttpReply reply = managementErrorReply(401, QString::fromStdString(refused->message));
        reply.headers.emplace_back("WWW-Authenticate", "SharedAccessSignature");
        return channel.send(reply);
    }
    QObject *const context = channel.context();   // a reply for a gone client is dropped
    answerManagementRequest(m_service, request, context,
                            [channel](HttpReply reply) mutable { channel.send(reply); });
}

} // namespace relaydesk
