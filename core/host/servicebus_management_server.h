// SPDX-License-Identifier: MIT
#pragma once

#include "host/broker_credentials.h"
#include "host/request_boundary.h"
#include "http/http1_server.h"
#include "http/tls_server_context.h"

#include <QHostAddress>
#include <QObject>
#include <QString>

#include <memory>
#include <variant>

namespace relaydesk {

class BrokerService;

// The Service Bus management port (`serve --sb-management-port`,
// docs/api.md "Service Bus management"): HTTP/1.1 on Http1Server, over TLS
// or plain as each connection's first byte chooses (Options::tls);
// each request passes the browser boundary (a foreign Host or Origin) and,
// with --credentials, the Shared Access Signature check
// (RequestCredentials::checkSharedAccessSignature: 401), both answered in
// the service's XML error shape, then goes to answerManagementRequest
// (api/servicebus/management/management_api.h), which knows no transport.
// start() is the one place the port is listened on: on the IPv4 loopback
// the same port is also opened on the IPv6 one when the machine has it (the
// connection string names "localhost", which node resolves to ::1 first).
// Ownership: borrows the service, which must outlive it; owns the
// listener and connections. Thread: the thread it was made on.
class ServiceBusManagementServer final : public QObject {
    Q_OBJECT

public:
    // A description is small: 256 KiB is far past any the SDKs send.
    static constexpr std::size_t kMaxBodyBytes = 256 * 1024;

    struct Options {
        RequestBoundary boundary;
        RequestCredentials credentials;
        // The certificate the port presents to a client that starts with a TLS
        // handshake (docs/behaviour.md §8.7); null: plain HTTP only.
        std::shared_ptr<const TlsServerContext> tls;
    };

    // Listens on `bind`:`port` (0: a free port); why not, in words.
    static std::variant<std::unique_ptr<ServiceBusManagementServer>, QString>
    start(BrokerService &service, const QHostAddress &bind, quint16 port, Options options);

    quint16 port() const { return m_port; }
    void stopAccepting();
    std::size_t owedAnswers() const;

private:
    ServiceBusManagementServer(BrokerService &service, Options options);
    void handleRequest(const HttpRequest &request, ReplyChannel channel);

    BrokerService &m_service;
    const Options m_options;
    Http1Server m_http;
    std::unique_ptr<Http1Server> m_ipv6;   // the same port on ::1; null when not opened
    quint16 m_port = 0;
};

} // namespace relaydesk
