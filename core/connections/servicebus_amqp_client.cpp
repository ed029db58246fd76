// SPDX-License-Identifier: MIT
#include "connections/servicebus_amqp_client.h"

#include "connections/servicebus_amqp_message.h"

#include <proton/condition.h>
#include <proton/connection.h>
#include <proton/delivery.h>
#include <proton/event.h>
#include <proton/link.h>
#include <proton/message.h>
#include <proton/proactor.h>
#include <proton/sasl.h>
#include <proton/session.h>
#include <proton/ssl.h>
#include <proton/transport.h>

#include <QFile>
#include <QUuid>

namespace relaydesk {

namespace {

constexpr pn_millis_t kWaitMillis = 30000;   // each wait's limit, as an HTTP request's transfer timeout
constexpr char kSystemTrustStore[] = "/etc/ssl/certs/ca-certificates.crt";

ConnectionError amqpError(pn_condition_t *condition, const char *fallbackName, const std::string &fallbackText)
{
    const bool set = condition && pn_condition_is_set(condition);
    const char *name = set ? pn_condition_get_name(condition) : nullptr;
    const char *description = set ? pn_condition_get_description(condition) : nullptr;
    return {QStringLiteral("Service Bus"), QString::fromUtf8(name ? name : fallbackName),
            QString::fromStdString(description ? std::string(description) : fallbackText), 0};
}

} // namespace

bool AmqpSession::remotelyClosed(pn_link_t *link) { return (pn_link_state(link) & PN_REMOTE_CLOSED) != 0; }

ServiceBusAmqpClient::ServiceBusAmqpClient(ServiceBusAmqpTarget target)
    : m_proactor(pn_proactor())
{
    m_session = std::make_unique<AmqpSession>(m_proactor, std::move(target));
    m_thread = std::thread([this] { run(); });
}

ServiceBusAmqpClient::~ServiceBusAmqpClient()
{
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_stopping = true;
        m_jobs.clear();
    }
    m_session->stop();
    pn_proactor_interrupt(m_proactor);
    m_thread.join();
    m_session.reset();
    pn_proactor_free(m_proactor);
}

void ServiceBusAmqpClient::post(Job job)
{
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_jobs.push_back(std::move(job));
    }
    pn_proactor_interrupt(m_proactor);
}

void ServiceBusAmqpClient::interrupt() { pn_proactor_interrupt(m_proactor); }

void ServiceBusAmqpClient::run()
{
    for (;;) {
        Job job;
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            if (m_stopping)
                return;
            if (!m_jobs.empty()) {
                job = std::move(m_jobs.front());
                m_jobs.pop_front();
            }
        }
        if (job) {
            job(*m_session);
            m_session->setCancel(nullptr);
            continue;
        }
        pn_event_batch_t *batch = pn_proactor_wait(m_proactor);
        while (pn_event_t *event = pn_event_batch_next(batch))
            m_session->handle(event);
        pn_proactor_done(m_proactor, batch);
    }
}

AmqpSession::AmqpSession(pn_proactor_t *proactor, ServiceBusAmqpTarget target)
    : m_proactor(proactor), m_target(std::move(target))
{
}

AmqpSession::~AmqpSession() { reset(); }

void AmqpSession::reset()
{
    if (m_connection) {
        pn_connection_close(m_connection);
        pn_connection_wake(m_connection);
    }
    m_connection = nullptr;
    m_session = nullptr;
    m_links.clear();
    m_inboxes.clear();
    m_locked.clear();
    m_authorized.clear();
}

void AmqpSession::flush()
{
    if (m_connection)
        pn_connection_wake(m_connection);   // the proactor writes what changed after the wake's batch
}

void AmqpSession::handle(pn_event_t *event)
{
    switch (pn_event_type(event)) {
    case PN_PROACTOR_TIMEOUT:
        m_timedOut = true;
        return;
    default:
        break;
    }
    pn_connection_t *connection = pn_event_connection(event);
    if (!connection || connection != m_connection)
        return;   // a connection already given up (reset) closing
    switch (pn_event_type(event)) {
    case PN_CONNECTION_REMOTE_CLOSE:
        if (!m_failed)
            m_failed = amqpError(pn_connection_remote_condition(connection), "amqp:connection:forced",
                                 "The service closed the connection.");
        pn_connection_close(connection);
        break;
    case PN_TRANSPORT_CLOSED:
        if (!m_failed)
            m_failed = amqpError(pn_transport_condition(pn_event_transport(event)), "amqp:connection:forced",
                                 "The connection ended.");
        m_connection = nullptr;   // the proactor frees it after this batch
        m_session = nullptr;
        m_links.clear();
        m_inboxes.clear();
        m_locked.clear();
        m_authorized.clear();
        break;
    case PN_LINK_REMOTE_CLOSE:
    case PN_LINK_REMOTE_DETACH:
        pn_link_close(pn_event_link(event));
        break;
    case PN_DELIVERY: {
        pn_delivery_t *delivery = pn_event_delivery(event);
        pn_link_t *link = pn_delivery_link(delivery);
        if (!pn_link_is_receiver(link) || !pn_delivery_readable(delivery) || pn_delivery_partial(delivery))
            break;
        std::vector<char> bytes(pn_delivery_pending(delivery));
        pn_link_recv(link, bytes.data(), bytes.size());
        pn_link_advance(link);
        m_inboxes[link].deliveries.emplace_back(delivery, std::move(bytes));
        break;
    }
    default:
        break;
    }
}

std::optional<ConnectionError> AmqpSession::wait(const Done &done)
{
    m_timedOut = false;
    pn_proactor_set_timeout(m_proactor, kWaitMillis);
    std::optional<ConnectionError> ended;
    for (;;) {
        if (done())
            break;
        if (m_stop || (m_cancel && *m_cancel)) {
            ended = ConnectionError::cancelled();
            break;
        }
        if (m_failed) {
            ended = m_failed;
            break;
        }
        if (m_timedOut) {
            ended = ConnectionError{QStringLiteral("network"), QStringLiteral("Timeout"),
                                    QStringLiteral("The service did not answer within 30 s."), 0};
            break;
        }
        pn_event_batch_t *batch = pn_proactor_wait(m_proactor);
        while (pn_event_t *event = pn_event_batch_next(batch))
            handle(event);
        pn_proactor_done(m_proactor, batch);
    }
    pn_proactor_cancel_timeout(m_proactor);
    return ended;
}

std::optional<ConnectionError> AmqpSession::open()
{
    if (m_connection)
        return std::nullopt;
    m_failed.reset();
    m_connection = pn_connection();
    const std::string container = QUuid::createUuid().toString(QUuid::WithoutBraces).toStdString();
    pn_connection_set_container(m_connection, container.c_str());
    pn_connection_set_hostname(m_connection, m_target.host.c_str());
    pn_transport_t *transport = pn_transport();
    pn_sasl_allowed_mechs(pn_sasl(transport), "ANONYMOUS");   // the right comes by CBS put-token
    if (m_target.tls) {
        pn_ssl_domain_t *domain = pn_ssl_domain(PN_SSL_MODE_CLIENT);
        if (QFile::exists(QString::fromLatin1(kSystemTrustStore)))
            pn_ssl_domain_set_trusted_ca_db(domain, kSystemTrustStore);
        if (!m_target.caFile.empty())
            pn_ssl_domain_set_trusted_ca_db(domain, m_target.caFile.c_str());
        pn_ssl_domain_set_peer_authentication(domain, PN_SSL_VERIFY_PEER_NAME, nullptr);
        pn_ssl_t *ssl = pn_ssl(transport);
        pn_ssl_init(ssl, domain, nullptr);
        pn_ssl_set_peer_hostname(ssl, m_target.host.c_str());
        pn_ssl_domain_free(domain);
    }
    pn_connection_open(m_connection);
    m_session = pn_session(m_connection);
    pn_session_open(m_session);
    char address[PN_MAX_ADDR];
    pn_proactor_addr(address, sizeof address, m_target.host.c_str(), std::to_string(m_target.port).c_str());
    pn_proactor_connect2(m_proactor, m_connection, transport, address);
    pn_connection_t *connection = m_connection;
    std::optional<ConnectionError> error = wait([this, connection] {
        return m_connection == connection && (pn_connection_state(connection) & PN_REMOTE_ACTIVE);
    });
    if (error)
        reset();
    return error;
}

std::optional<ConnectionError> AmqpSession::waitOn(pn_link_t *link, const Done &done)
{
    pn_connection_t *connection = m_connection;
    if (std::optional<ConnectionError> error =
            wait([&] { return m_connection != connection || remotelyClosed(link) || done(); }))
        return error;
    if (m_failed)
        return m_failed;
    if (m_connection != connection)
        return ConnectionError{QStringLiteral("Service Bus"), QStringLiteral("amqp:connection:forced"),
                               QStringLiteral("The connection ended."), 0};
    if (remotelyClosed(link))
        return linkError(link);
    return std::nullopt;
}

std::optional<ConnectionError> AmqpSession::linkError(pn_link_t *link) const
{
    return amqpError(pn_link_remote_condition(link), "amqp:link:detach-forced", "The service refused the link.");
}

std::optional<ConnectionError> AmqpSession::linkFor(const std::string &key, bool sender, const std::string &source,
                                                    const std::string &target, bool settled, pn_link_t **link)
{
    if (std::optional<ConnectionError> error = open())
        return error;
    const auto known = m_links.find(key);
    if (known != m_links.end() && !remotelyClosed(known->second)) {
        *link = known->second;
        return std::nullopt;
    }
    const std::string name = key + "-" + std::to_string(++m_next);
    pn_link_t *made = sender ? pn_sender(m_session, name.c_str()) : pn_receiver(m_session, name.c_str());
    if (!source.empty())
        pn_terminus_set_address(pn_link_source(made), source.c_str());
    if (!target.empty())
        pn_terminus_set_address(pn_link_target(made), target.c_str());
    pn_link_set_snd_settle_mode(made, settled ? PN_SND_SETTLED : PN_SND_UNSETTLED);
    pn_link_set_rcv_settle_mode(made, PN_RCV_FIRST);
    pn_link_open(made);
    flush();
    if (std::optional<ConnectionError> error = waitOn(made, [made, sender] {
            pn_terminus_t *remote = sender ? pn_link_remote_target(made) : pn_link_remote_source(made);
            return (pn_link_state(made) & PN_REMOTE_ACTIVE) && pn_terminus_get_type(remote) != PN_UNSPECIFIED;
        }))
        return error;
    m_links[key] = made;
    *link = made;
    return std::nullopt;
}

const std::vector<char> *AmqpSession::lockedBytes(const std::string &lockToken) const
{
    const auto found = m_locked.find(lockToken);
    return found == m_locked.end() ? nullptr : &found->second.bytes;
}

} // namespace relaydesk
