// SPDX-License-Identifier: MIT
#include "api/servicebus/servicebus_endpoint.h"

#include "api/servicebus/amqp_connection.h"
#include "api/servicebus/amqp_sasl.h"

#include <proton/connection.h>
#include <proton/event.h>
#include <proton/listener.h>
#include <proton/netaddr.h>
#include <proton/proactor.h>
#include <proton/transport.h>

#include <atomic>
#include <map>

namespace relaydesk {

struct ServiceBusEndpoint::Loop {
    explicit Loop(BrokerService &serviceRef) : service(serviceRef), proactor(pn_proactor()) {}
    ~Loop() { pn_proactor_free(proactor); }

    void accept(pn_listener_t *listener)
    {
        pn_transport_t *transport = pn_transport();
        pn_transport_set_server(transport);
        acceptAnonymousAndPlain(transport);
        pn_connection_t *connection = pn_connection();
        connections[connection] = std::make_shared<AmqpConnection>(service, connection);
        pn_listener_accept2(listener, connection, transport);
    }

    // One event; false once the proactor has nothing left after a stop.
    bool handle(pn_event_t *event)
    {
        switch (pn_event_type(event)) {
        case PN_LISTENER_ACCEPT:
            if (!stopping)
                accept(pn_event_listener(event));
            return true;
        case PN_PROACTOR_INTERRUPT:
            stopping = true;
            if (listener)
                pn_listener_close(listener);
            listener = nullptr;
            pn_proactor_disconnect(proactor, nullptr);
            return true;
        case PN_PROACTOR_INACTIVE:
            return !stopping;
        case PN_TRANSPORT_CLOSED:
            if (pn_connection_t *connection = pn_event_connection(event)) {
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

    BrokerService &service;
    pn_proactor_t *proactor = nullptr;
    pn_listener_t *listener = nullptr;
    std::map<pn_connection_t *, std::shared_ptr<AmqpConnection>> connections;
    bool stopping = false;
};

std::variant<std::unique_ptr<ServiceBusEndpoint>, QString> ServiceBusEndpoint::start(BrokerService &service,
                                                                                    const QHostAddress &address,
                                                                                    quint16 port)
{
    std::unique_ptr<ServiceBusEndpoint> endpoint(new ServiceBusEndpoint);
    endpoint->m_loop = std::make_unique<Loop>(service);
    Loop &loop = *endpoint->m_loop;
    char text[PN_MAX_ADDR];
    const QByteArray host = address.toString().toUtf8();
    pn_proactor_addr(text, sizeof text, host.constData(), QByteArray::number(port).constData());
    loop.listener = pn_listener();
    pn_proactor_listen(loop.proactor, loop.listener, text, 16);
    // Wait here for the listener's answer: open (its port) or closed (why).
    for (bool answered = false; !answered;) {
        pn_event_batch_t *batch = pn_proactor_wait(loop.proactor);
        while (pn_event_t *event = pn_event_batch_next(batch)) {
            if (pn_event_type(event) == PN_LISTENER_OPEN) {
                char boundHost[PN_MAX_ADDR];
                char boundPort[16];
                pn_netaddr_host_port(pn_listener_addr(loop.listener), boundHost, sizeof boundHost, boundPort,
                                     sizeof boundPort);
                endpoint->m_port = static_cast<quint16>(QByteArray(boundPort).toUInt());
                answered = true;
            } else if (pn_event_type(event) == PN_LISTENER_CLOSE) {
                pn_condition_t *condition = pn_listener_condition(loop.listener);
                const char *why = pn_condition_get_description(condition);
                pn_proactor_done(loop.proactor, batch);
                return QStringLiteral("cannot listen for AMQP on %1:%2: %3")
                    .arg(address.toString())
                    .arg(port)
                    .arg(QString::fromUtf8(why ? why : "unknown error"));
            }
        }
        pn_proactor_done(loop.proactor, batch);
    }
    endpoint->m_thread = std::thread([&loop] { loop.run(); });
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
