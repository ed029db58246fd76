// SPDX-License-Identifier: MIT
#include "api/servicebus/servicebus_endpoint.h"

#include "api/servicebus/amqp_connection.h"
#include "api/servicebus/amqp_limits.h"
#include "api/servicebus/amqp_sasl.h"

#include <proton/connection.h>
#include <proton/event.h>
#include <proton/listener.h>
#include <proton/netaddr.h>
#include <proton/proactor.h>
#include <proton/ssl.h>
#include <proton/transport.h>

#include <pthread.h>
#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <optional>
#include <set>
#include <variant>
#include <vector>

namespace relaydesk {

namespace {

using SteadyClock = std::chrono::steady_clock;

// Ports::maxConnections when it is 0: a quarter of the soft descriptor limit, at least 16.
std::size_t defaultMaxConnections()
{
    rlimit limit{};
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY)
        return 1024;
    return std::max<std::size_t>(16, static_cast<std::size_t>(limit.rlim_cur / 4));
}

} // namespace

struct ServiceBusEndpoint::Loop {
    Loop(BrokerService &serviceRef, std::shared_ptr<const SharedAccessSignatureCheck> check, const Ports &ports)
        : service(serviceRef), sharedAccess(std::move(check)), proactor(pn_proactor()),
          maxConnections(ports.maxConnections ? ports.maxConnections : defaultMaxConnections()),
          openTimeout(ports.openTimeout)
    {
    }
    ~Loop()
    {
        pn_proactor_free(proactor);
        if (tlsDomain)
            pn_ssl_domain_free(tlsDomain);
    }

    // The certificate TLS listeners present; the error in words, or empty.
    QString useCertificate(const QString &certificateFile, const QString &keyFile)
    {
        tlsDomain = pn_ssl_domain(PN_SSL_MODE_SERVER);
        if (!tlsDomain)
            return QStringLiteral("Qpid Proton has no TLS (SSL) support");
        if (pn_ssl_domain_set_credentials(tlsDomain, certificateFile.toLocal8Bit().constData(),
                                          keyFile.toLocal8Bit().constData(), nullptr) != 0)
            return QStringLiteral("cannot use %1 and %2 for TLS").arg(certificateFile, keyFile);
        pn_ssl_domain_set_protocols(tlsDomain, "TLSv1.2 TLSv1.3");
        return {};
    }

    void accept(pn_listener_t *listener)
    {
        pn_transport_t *transport = pn_transport();
        pn_transport_set_server(transport);
        // Announced in the open and enforced from each frame's header on,
        // SASL included: Proton's input buffer grows to this and no further.
        pn_transport_set_max_frame(transport, amqp_limits::kMaxFrameSize);
        if (tlsListeners.count(listener) > 0)
            pn_ssl_init(pn_ssl(transport), tlsDomain, nullptr);
        acceptAnonymousAndPlain(transport);
        pn_connection_t *connection = pn_connection();
        const bool full = connections.size() - closing.size() >= maxConnections;
        connections[connection] = std::make_shared<AmqpConnection>(service, connection, sharedAccess);
        pn_listener_accept2(listener, connection, transport);
        if (full) {
            closing.insert(connection);   // closed in its first batch (PN_CONNECTION_BOUND)
            return;
        }
        awaitingOpen[connection] = SteadyClock::now() + openTimeout;
        if (awaitingOpen.size() == 1)
            armOpenTimer();
    }

    // The proactor's one timer, at the earliest open deadline.
    void armOpenTimer()
    {
        SteadyClock::time_point earliest = SteadyClock::time_point::max();
        for (const auto &[connection, deadline] : awaitingOpen)
            earliest = std::min(earliest, deadline);
        const auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(earliest - SteadyClock::now());
        pn_proactor_set_timeout(proactor, static_cast<pn_millis_t>(std::max<std::int64_t>(1, wait.count())));
    }

    // Connections past their open deadline are woken to be closed in their own batch.
    void expireUnopened()
    {
        const SteadyClock::time_point now = SteadyClock::now();
        for (auto it = awaitingOpen.begin(); it != awaitingOpen.end();) {
            if (it->second > now) {
                ++it;
                continue;
            }
            closing.insert(it->first);
            pn_connection_wake(it->first);
            it = awaitingOpen.erase(it);
        }
        if (!awaitingOpen.empty())
            armOpenTimer();
    }

    // Ends the transport of a connection marked for closing, from an event of its own batch.
    void closeIfMarked(pn_event_t *event)
    {
        pn_connection_t *connection = pn_event_connection(event);
        if (!connection || closing.count(connection) == 0)
            return;
        if (pn_transport_t *transport = pn_event_transport(event)) {
            pn_transport_close_tail(transport);
            pn_transport_close_head(transport);
        }
    }

    // One event; false once the proactor has nothing left after a stop.
    bool handle(pn_event_t *event)
    {
        switch (pn_event_type(event)) {
        case PN_LISTENER_ACCEPT:
            if (!stopping)
                accept(pn_event_listener(event));
            return true;
        case PN_PROACTOR_TIMEOUT:
            if (!stopping)
                expireUnopened();
            return true;
        case PN_CONNECTION_BOUND:
        case PN_CONNECTION_WAKE:
            closeIfMarked(event);
            break;
        case PN_CONNECTION_REMOTE_OPEN:
            awaitingOpen.erase(pn_event_connection(event));
            break;
        case PN_PROACTOR_INTERRUPT:
            stopping = true;
            pn_proactor_cancel_timeout(proactor);
            for (pn_listener_t *open : listeners)
                pn_listener_close(open);
            listeners.clear();
            tlsListeners.clear();
            pn_proactor_disconnect(proactor, nullptr);
            return true;
        case PN_PROACTOR_INACTIVE:
            return !stopping;
        case PN_TRANSPORT_CLOSED:
            if (pn_connection_t *connection = pn_event_connection(event)) {
                awaitingOpen.erase(connection);
                closing.erase(connection);
                if (const auto found = connections.find(connection); found != connections.end()) {
                    found->second->closed();
                    connections.erase(found);
                }
            }
            return true;
        default:
            break;
        }
        if (pn_connection_t *connection = pn_event_connection(event)) {
            if (const auto found = connections.find(connection); found != connections.end())
                found->second->handle(event);
        }
        return true;
    }

    void run()
    {
        bool running = true;
        while (running) {
            pn_event_batch_t *batch = pn_proactor_wait(proactor);
            while (pn_event_t *event = pn_event_batch_next(batch))
                running = handle(event) && running;
            pn_proactor_done(proactor, batch);
        }
        for (auto &[pn, connection] : connections)
            connection->closed();
        connections.clear();
    }

    // Listens on `host`:`port`; the port it got, or why not. Events of
    // listeners already open that come meanwhile are handled as usual.
    std::variant<quint16, QString> listen(const QByteArray &host, quint16 port, bool tls = false)
    {
        char text[PN_MAX_ADDR];
        pn_proactor_addr(text, sizeof text, host.constData(), QByteArray::number(port).constData());
        pn_listener_t *listener = pn_listener();
        pn_proactor_listen(proactor, listener, text, kListenBacklog);
        std::optional<std::variant<quint16, QString>> answer;
        while (!answer) {
            pn_event_batch_t *batch = pn_proactor_wait(proactor);
            while (pn_event_t *event = pn_event_batch_next(batch)) {
                const bool ours = pn_event_listener(event) == listener;
                if (ours && pn_event_type(event) == PN_LISTENER_OPEN) {
                    char boundHost[PN_MAX_ADDR];
                    char boundPort[16];
                    pn_netaddr_host_port(pn_listener_addr(listener), boundHost, sizeof boundHost, boundPort,
                                         sizeof boundPort);
                    listeners.push_back(listener);
                    if (tls)
                        tlsListeners.insert(listener);
                    answer = static_cast<quint16>(QByteArray(boundPort).toUInt());
                } else if (ours && pn_event_type(event) == PN_LISTENER_CLOSE) {
                    const char *why = pn_condition_get_description(pn_listener_condition(listener));
                    answer = QString::fromUtf8(why ? why : "unknown error");
                } else if (!ours) {
                    handle(event);
                }
            }
            pn_proactor_done(proactor, batch);
        }
        return *answer;
    }

    BrokerService &service;
    std::shared_ptr<const SharedAccessSignatureCheck> sharedAccess;
    pn_proactor_t *proactor = nullptr;
    std::vector<pn_listener_t *> listeners; // open ones
    std::set<pn_listener_t *> tlsListeners; // those of them whose connections speak TLS
    pn_ssl_domain_t *tlsDomain = nullptr;
    std::map<pn_connection_t *, std::shared_ptr<AmqpConnection>> connections;
    const std::size_t maxConnections;
    const std::chrono::milliseconds openTimeout;
    std::map<pn_connection_t *, SteadyClock::time_point> awaitingOpen; // accepted, no AMQP open yet: its deadline
    std::set<pn_connection_t *> closing; // past the cap or the deadline: closed in their own batch
    bool stopping = false;
    // As the HTTP ports': a client connecting in a loop is not dropped by the kernel.
    static constexpr int kListenBacklog = 1024;
};

std::variant<std::unique_ptr<ServiceBusEndpoint>, QString> ServiceBusEndpoint::start(BrokerService &service,
                                                                                    const QHostAddress &address,
                                                                                    quint16 port,
                                                                                    std::shared_ptr<const SharedAccessSignatureCheck> sharedAccess)
{
    Ports ports;
    ports.amqp = port;
    return start(service, address, ports, std::move(sharedAccess));
}

namespace {

// Listens on `port` of `address` (and of ::1 beside the IPv4 loopback);
// the port, or why not.
std::variant<quint16, QString> listenOn(ServiceBusEndpoint::Loop &loop, const QHostAddress &address, quint16 port,
                                        bool tls, bool freePortWhenTaken)
{
    const QByteArray host = address.toString().toUtf8();
    std::variant<quint16, QString> opened = loop.listen(host, port, tls);
    if (std::holds_alternative<QString>(opened) && freePortWhenTaken && port != 0)
        opened = loop.listen(host, 0, tls);
    if (const QString *why = std::get_if<QString>(&opened))
        return QStringLiteral("cannot listen for %1 on %2:%3: %4")
            .arg(tls ? QStringLiteral("AMQPS") : QStringLiteral("AMQP"), address.toString())
            .arg(port)
            .arg(*why);
    // The connection string names "localhost", which a client may resolve to
    // ::1 first (node 18 does, and tries nothing else): on the IPv4 loopback
    // the same port is also opened on the IPv6 one, when the machine has it.
    if (address == QHostAddress(QHostAddress::LocalHost))
        (void)loop.listen(QByteArrayLiteral("::1"), std::get<quint16>(opened), tls);
    return opened;
}

} // namespace

std::variant<std::unique_ptr<ServiceBusEndpoint>, QString> ServiceBusEndpoint::start(BrokerService &service,
                                                                                    const QHostAddress &address,
                                                                                    const Ports &ports,
                                                                                    std::shared_ptr<const SharedAccessSignatureCheck> sharedAccess)
{
    std::unique_ptr<ServiceBusEndpoint> endpoint(new ServiceBusEndpoint);
    endpoint->m_loop = std::make_unique<Loop>(service, std::move(sharedAccess), ports);
    Loop &loop = *endpoint->m_loop;
    if (ports.amqp) {
        const std::variant<quint16, QString> opened = listenOn(loop, address, *ports.amqp, false, ports.freePortWhenTaken);
        if (const QString *why = std::get_if<QString>(&opened))
            return *why;
        endpoint->m_port = std::get<quint16>(opened);
    }
    if (ports.amqps) {
        if (const QString why = loop.useCertificate(ports.certificateFile, ports.keyFile); !why.isEmpty())
            return why;
        const std::variant<quint16, QString> opened = listenOn(loop, address, *ports.amqps, true, ports.freePortWhenTaken);
        if (const QString *why = std::get_if<QString>(&opened))
            return *why;
        endpoint->m_tlsPort = std::get<quint16>(opened);
    }
    endpoint->m_thread = std::thread([&loop] {
        // Named like the broker thread, for per-thread CPU figures and debuggers (15 characters at most).
        pthread_setname_np(pthread_self(), "relaydesk-amqp");
        loop.run();
    });
    return endpoint;
}

ServiceBusEndpoint::~ServiceBusEndpoint()
{
    if (m_thread.joinable()) {
        pn_proactor_interrupt(m_loop->proactor);
        m_thread.join();
    }
}

} // namespace relaydesk
