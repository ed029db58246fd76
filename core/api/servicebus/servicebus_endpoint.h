// SPDX-License-Identifier: MIT
#pragma once

#include <QHostAddress>
#include <QString>

#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <thread>
#include <variant>

namespace relaydesk {

class BrokerService;
class SharedAccessSignatureCheck;

// The Azure Service Bus endpoint: AMQP 1.0 on its own port (docs/behaviour.md §8.6).
// Qpid Proton's proactor runs the transport (framing, SASL ANONYMOUS,
// sessions, links, flow control, heartbeats) on a thread of its own; each
// connection's Service Bus meaning is an AmqpConnection there. Broker work
// goes to BrokerService (the broker thread stays the only writer) and its
// replies come back through the connection's mailbox (pn_connection_wake).
// The same connections are served on a second port over TLS (AMQPS,
// docs/behaviour.md §8.7): Proton's SSL layer (OpenSSL) on each accepted
// transport, under the same limits (amqp_limits.h) and the same SAS checks.
// A peer holds a connection only within Ports::maxConnections and, until
// its AMQP open, Ports::openTimeout.
// Why Proton's C API rather than its C++ messaging handler: docs/architecture.md §3.
//
// Ownership: borrows the service, which must outlive it. Thread: made and
// destroyed on the thread of the Qt event loop (replies to waiting receives
// pass through it); the destructor closes every connection and joins the
// proactor thread.
class ServiceBusEndpoint final {
public:
    // Listens on `address`:`port` (0: a free port); the message when it cannot.
    // `sharedAccess` (serve --credentials): the check of a $cbs put-token's
    // Shared Access Signature; a connection then attaches an entity link only
    // under an accepted, unexpired token whose resource covers the entity.
    // Null: every token is taken, none is needed.
    static std::variant<std::unique_ptr<ServiceBusEndpoint>, QString>
    start(BrokerService &service, const QHostAddress &address, quint16 port,
          std::shared_ptr<const SharedAccessSignatureCheck> sharedAccess = nullptr);
    // The ports to open on one address: plain AMQP and AMQP over TLS, each
    // optional (0: a free port), the TLS one presenting `tls` (PEM files).
    // `freePortWhenTaken`: a port that is taken is replaced by a free one (the window).
    struct Ports {
        std::optional<quint16> amqp;
        std::optional<quint16> amqps;
        QString certificateFile;
        QString keyFile;
        bool freePortWhenTaken = false;
        // Connections open at once on both ports together (docs/reliability.md
        // "AMQP port"); past it a new connection is closed as soon as it is
        // accepted. 0: a quarter of the soft descriptor limit, at least 16,
        // so a flood of AMQP connections leaves the HTTP ports descriptors.
        std::size_t maxConnections = 0;
        // From a connection's accept to the peer's AMQP open (TLS handshake,
        // SASL and both protocol headers included): a connection without its
        // open by then is closed. Bytes that trickle in do not extend it.
        std::chrono::milliseconds openTimeout = std::chrono::seconds(30);
    };
    static std::variant<std::unique_ptr<ServiceBusEndpoint>, QString>
    start(BrokerService &service, const QHostAddress &address, const Ports &ports,
          std::shared_ptr<const SharedAccessSignatureCheck> sharedAccess = nullptr);
    ~ServiceBusEndpoint();
    ServiceBusEndpoint(const ServiceBusEndpoint &) = delete;
    ServiceBusEndpoint &operator=(const ServiceBusEndpoint &) = delete;

    quint16 port() const { return m_port; }          // 0: no plain AMQP port
    quint16 tlsPort() const { return m_tlsPort; }    // 0: no AMQPS port

    struct Loop;

private:
    ServiceBusEndpoint() = default;

    std::unique_ptr<Loop> m_loop;
    std::thread m_thread;
    quint16 m_port = 0;
    quint16 m_tlsPort = 0;
};

} // namespace relaydesk
