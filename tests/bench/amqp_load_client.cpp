// SPDX-License-Identifier: MIT
// amqp_load_client (a benchmark, not a test): the AMQP 1.0 load generator, the
// counterpart of http_load_client for the Service Bus endpoint of a running
// `relaydesk serve`. N connections on one Proton proactor thread, each with one
// session and one link to the queue; 256-byte bodies (loadBody, as the HTTP
// client). SASL ANONYMOUS: serve without --credentials asks for no $cbs
// put-token (amqp_connection.cpp), so links attach at once.
//
//   amqp_load_client HOST PORT send|receive --queue NAME [--connections N]
//                    [--duration SECONDS] [--in-flight K] [--tls CAFILE]
//   --tls: TLS (AMQPS) trusting the CA certificate in CAFILE, the peer's name checked.
//   send: up to K unsettled transfers per link (K = 1: one message at a time,
//         as the SDK's sendMessages awaited); one counts when the broker's
//         disposition (accepted, settled) comes, which serve sends only after
//         the commit: a durable send.
//   receive: peek-lock with K credit per link; each message is accepted without
//         settling and counts when the broker settles it (after the complete's
//         commit), then its credit is given back. Ends when no message came for
//         1 s (the queue is drained; that second is not counted) or at the duration.
//
// The clock starts once every link is attached. Proton's proactor lets a
// connection be touched only in its own event batch: what one connection's
// event decides for the others (start, close) reaches them as a wake. Prints one line: messages/s,
// errors, load average. The queue must exist.
//
// Written on Proton's C proactor (the layer serve itself uses): Proton C++
// settles a delivery whenever it sets its outcome, so a receiver written with
// it could not wait for the broker's settlement. Bodies are encoded with
// proton::message.

#include "http_load_wire.h"

#include <proton/condition.h>
#include <proton/connection.h>
#include <proton/delivery.h>
#include <proton/disposition.h>
#include <proton/event.h>
#include <proton/link.h>
#include <proton/message.hpp>
#include <proton/proactor.h>
#include <proton/sasl.h>
#include <proton/ssl.h>
#include <proton/session.h>
#include <proton/terminus.h>
#include <proton/transport.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <unordered_map>
#include <vector>

using namespace relaydesk::bench;

namespace {

constexpr std::int64_t kIdleNs = 1'000'000'000;    // receive: no message for this long = drained
constexpr std::int64_t kGraceNs = 5'000'000'000;   // after the end: outstanding messages may still settle
constexpr int kTickMs = 50;

struct Options {
    std::string host;
    std::string port;
    std::string action;
    std::string queue;
    int connections = 16;
    double duration = 10;
    int inFlight = 1;
    std::string tlsAuthority;   // empty: plain AMQP
};

bool parseOptions(int argc, char **argv, Options &options)
{
    if (argc < 4)
        return false;
    options.host = argv[1];
    options.port = argv[2];
    options.action = argv[3];
    for (int i = 4; i + 1 < argc; i += 2) {
        const std::string name = argv[i];
        const char *value = argv[i + 1];
        if (readLoadOption(name, value, options.queue, options.connections, options.duration))
            continue;
        if (name == "--in-flight")
            options.inFlight = std::atoi(value);
        else if (name == "--tls")
            options.tlsAuthority = value;
        else
            return false;
    }
    return (options.action == "send" || options.action == "receive") && !options.queue.empty() &&
           options.connections > 0 && options.inFlight > 0;
}

std::string describe(pn_condition_t *condition)
{
    if (!condition || !pn_condition_is_set(condition))
        return "(no condition)";
    const char *name = pn_condition_get_name(condition);
    const char *description = pn_condition_get_description(condition);
    return std::string(name ? name : "") + ": " + (description ? description : "");
}

class LoadRun final {
public:
    explicit LoadRun(Options options) : m_options(std::move(options)), m_sending(m_options.action == "send") {}
    int run();

private:
    void handle(pn_event_t *event);
    void openLink(pn_connection_t *connection);
    void begin();
    void wakeAll();
    void onWake(pn_connection_t *connection);
    void sendMore(pn_link_t *link);
    void onDelivery(pn_delivery_t *delivery);
    void counted(pn_delivery_t *delivery);
    void tick();
    void finish();   // no new messages; closes once the outstanding ones settled
    void closeAll();
    void error(const std::string &what);
    bool wantMore() const { return m_started && !m_finishing; }

    Options m_options;
    bool m_sending;
    pn_proactor_t *m_proactor = nullptr;
    std::vector<pn_connection_t *> m_connections;
    std::unordered_map<pn_connection_t *, pn_link_t *> m_links;
    std::unordered_map<pn_link_t *, bool> m_linkStarted;
    std::unordered_map<pn_connection_t *, bool> m_gone;   // its transport closed: the proactor frees it
    std::unordered_map<pn_link_t *, int> m_unsettled;   // per link: sent or accepted, not yet settled by the broker
    long m_outstanding = 0;                            // the sum of m_unsettled
    std::vector<char> m_encoded;
    std::uint64_t m_serial = 0;
    int m_attached = 0;
    int m_transportsClosed = 0;
    bool m_started = false;
    bool m_finishing = false;
    bool m_closing = false;
    std::int64_t m_beginNs = 0;
    std::int64_t m_deadlineNs = 0;
    std::int64_t m_finishNs = 0;
    std::int64_t m_lastNs = 0;   // the last counted message (receive: or the start)
    long m_messages = 0;
    long m_errors = 0;
};

void LoadRun::error(const std::string &what)
{
    if (m_errors++ < 3)
        std::fprintf(stderr, "amqp_load_client: %s\n", what.c_str());
}

void LoadRun::openLink(pn_connection_t *connection)
{
    pn_connection_open(connection);
    pn_session_t *session = pn_session(connection);
    pn_session_open(session);
    const std::string name = "amqp-bench-" + std::to_string(m_links.size());
    pn_link_t *link = m_sending ? pn_sender(session, name.c_str()) : pn_receiver(session, name.c_str());
    pn_terminus_set_address(m_sending ? pn_link_target(link) : pn_link_source(link), m_options.queue.c_str());
    pn_link_set_snd_settle_mode(link, PN_SND_UNSETTLED);   // peek-lock / acknowledged sends
    pn_link_open(link);
    m_links[connection] = link;
    m_unsettled[link] = 0;
}

// Every link attached: the clock starts, each link gets its K on its wake.
void LoadRun::begin()
{
    m_started = true;
    m_beginNs = nowNs();
    m_lastNs = m_beginNs;
    m_deadlineNs = m_beginNs + std::int64_t(m_options.duration * 1e9);
    wakeAll();
}

void LoadRun::wakeAll()
{
    for (pn_connection_t *connection : m_connections)
        if (!m_gone[connection])
            pn_connection_wake(connection);
}

void LoadRun::onWake(pn_connection_t *connection)
{
    if (m_closing) {
        if (!(pn_connection_state(connection) & PN_LOCAL_CLOSED))
            pn_connection_close(connection);
        return;
    }
    pn_link_t *link = m_links[connection];
    if (!m_started || m_linkStarted[link])
        return;
    m_linkStarted[link] = true;
    if (m_sending)
        sendMore(link);
    else
        pn_link_flow(link, m_options.inFlight);
}

void LoadRun::sendMore(pn_link_t *link)
{
    int &unsettled = m_unsettled[link];
    while (wantMore() && m_linkStarted[link] && unsettled < m_options.inFlight && pn_link_credit(link) > 0) {
        const std::uint64_t serial = m_serial++;
        proton::message message;
        message.body(loadBody(serial));
        message.encode(m_encoded);
        pn_delivery(link, pn_dtag(reinterpret_cast<const char *>(&serial), sizeof serial));
        pn_link_send(link, m_encoded.data(), m_encoded.size());
        pn_link_advance(link);
        ++unsettled;
        ++m_outstanding;
    }
}

// The broker settled a delivery of ours (a send's answer, a complete's commit).
void LoadRun::counted(pn_delivery_t *delivery)
{
    pn_link_t *link = pn_delivery_link(delivery);
    if (pn_delivery_remote_state(delivery) == PN_ACCEPTED) {
        ++m_messages;
        m_lastNs = nowNs();
    } else {
        error("outcome " + std::string(pn_disposition_type_name(pn_delivery_remote_state(delivery))) + " " +
              describe(pn_disposition_condition(pn_delivery_remote(delivery))));
    }
    pn_delivery_settle(delivery);
    --m_unsettled[link];
    --m_outstanding;
    if (m_sending)
        sendMore(link);
    else if (wantMore())
        pn_link_flow(link, 1);   // its credit back
    if (m_finishing && m_outstanding == 0)
        closeAll();
}

void LoadRun::onDelivery(pn_delivery_t *delivery)
{
    pn_link_t *link = pn_delivery_link(delivery);
    if (m_sending) {
        if (pn_delivery_settled(delivery))
            counted(delivery);
        return;
    }
    if (pn_delivery_readable(delivery) && !pn_delivery_partial(delivery) && pn_delivery_local_state(delivery) == 0) {
        std::vector<char> bytes(pn_delivery_pending(delivery));
        pn_link_recv(link, bytes.data(), bytes.size());
        pn_link_advance(link);
        if (!wantMore()) {   // came after the end: back to the queue
            pn_delivery_update(delivery, PN_RELEASED);
            pn_delivery_settle(delivery);
            return;
        }
        m_lastNs = nowNs();
        pn_delivery_update(delivery, PN_ACCEPTED);   // complete; the broker settles after its commit
        ++m_unsettled[link];
        ++m_outstanding;
        return;
    }
    if (pn_delivery_settled(delivery) && pn_delivery_local_state(delivery) == PN_ACCEPTED)
        counted(delivery);
}

void LoadRun::tick()
{
    const std::int64_t now = nowNs();
    if (m_started && !m_finishing && (now >= m_deadlineNs || (!m_sending && now - m_lastNs >= kIdleNs)))
        finish();
    if (m_finishing && !m_closing && now - m_finishNs >= kGraceNs) {
        error(std::to_string(m_outstanding) + " messages not settled " + std::to_string(kGraceNs / 1'000'000'000) +
              " s after the end");
        closeAll();
    }
}

void LoadRun::finish()
{
    m_finishing = true;
    m_finishNs = nowNs();
    if (m_outstanding == 0)
        closeAll();
}

void LoadRun::closeAll()
{
    if (m_closing)
        return;
    m_closing = true;
    wakeAll();
}

void LoadRun::handle(pn_event_t *event)
{
    switch (pn_event_type(event)) {
    case PN_CONNECTION_INIT:
        openLink(pn_event_connection(event));
        break;
    case PN_LINK_REMOTE_OPEN:
        if (++m_attached == m_options.connections)
            begin();
        break;
    case PN_CONNECTION_WAKE:
        onWake(pn_event_connection(event));
        break;
    case PN_LINK_FLOW:
        if (m_sending)
            sendMore(pn_event_link(event));
        break;
    case PN_DELIVERY:
        onDelivery(pn_event_delivery(event));
        break;
    case PN_LINK_REMOTE_CLOSE:
    case PN_LINK_REMOTE_DETACH:
        if (!m_closing) {
            error("link closed by the broker: " + describe(pn_link_remote_condition(pn_event_link(event))));
            m_finishing = true;
            closeAll();
        }
        break;
    case PN_CONNECTION_REMOTE_CLOSE:
        if (!m_closing) {
            error("connection closed by the broker: " +
                  describe(pn_connection_remote_condition(pn_event_connection(event))));
            m_finishing = true;
            closeAll();
        }
        break;
    case PN_TRANSPORT_CLOSED:
        if (!m_closing) {
            error("transport closed: " + describe(pn_transport_condition(pn_event_transport(event))));
            m_finishing = true;
            closeAll();
        }
        ++m_transportsClosed;
        m_gone[pn_event_connection(event)] = true;
        break;
    case PN_PROACTOR_TIMEOUT:
        tick();
        pn_proactor_set_timeout(m_proactor, kTickMs);
        break;
    default:
        break;
    }
}

int LoadRun::run()
{
    m_proactor = pn_proactor();
    char address[PN_MAX_ADDR];
    pn_proactor_addr(address, sizeof address, m_options.host.c_str(), m_options.port.c_str());
    pn_ssl_domain_t *tls = nullptr;
    if (!m_options.tlsAuthority.empty()) {
        tls = pn_ssl_domain(PN_SSL_MODE_CLIENT);
        if (!tls || pn_ssl_domain_set_trusted_ca_db(tls, m_options.tlsAuthority.c_str()) != 0 ||
            pn_ssl_domain_set_peer_authentication(tls, PN_SSL_VERIFY_PEER_NAME, nullptr) != 0) {
            error("cannot use " + m_options.tlsAuthority + " for TLS");
            return 3;
        }
    }
    for (int i = 0; i < m_options.connections; ++i) {
        pn_connection_t *connection = pn_connection();
        pn_connection_set_container(connection, ("amqp-load-client-" + std::to_string(i)).c_str());
        pn_connection_set_hostname(connection, m_options.host.c_str());
        pn_transport_t *transport = pn_transport();
        if (tls)
            pn_ssl_init(pn_ssl(transport), tls, m_options.host.c_str());
        pn_sasl_allowed_mechs(pn_sasl(transport), "ANONYMOUS");
        m_connections.push_back(connection);
        pn_proactor_connect2(m_proactor, connection, transport, address);
    }
    pn_proactor_set_timeout(m_proactor, kTickMs);
    const std::int64_t connectDeadline = nowNs() + 10'000'000'000;
    while (m_transportsClosed < m_options.connections) {
        pn_event_batch_t *batch = pn_proactor_wait(m_proactor);
        while (pn_event_t *event = pn_event_batch_next(batch))
            handle(event);
        pn_proactor_done(m_proactor, batch);
        if (!m_started && !m_closing && nowNs() > connectDeadline) {
            error("links not attached within 10 s");
            closeAll();
        }
    }
    pn_proactor_free(m_proactor);
    if (tls)
        pn_ssl_domain_free(tls);
    const double seconds = m_started ? double(m_lastNs - m_beginNs) / 1e9 : 0;
    std::printf("%s %s: %d connections, %d in flight: %.0f msg/s (%ld messages in %.2f s), errors %ld | load %s\n",
                tls ? "amqps" : "amqp", m_options.action.c_str(), m_options.connections, m_options.inFlight,
                seconds > 0 ? double(m_messages) / seconds : 0.0, m_messages, seconds, m_errors, loadAverage().c_str());
    return m_errors == 0 && m_started ? 0 : 3;
}

} // namespace

int main(int argc, char **argv)
{
    Options options;
    if (!parseOptions(argc, argv, options)) {
        std::fprintf(stderr, "usage: amqp_load_client HOST PORT send|receive --queue NAME [--connections N] "
                             "[--duration SECONDS] [--in-flight K] [--tls CAFILE]\n");
        return 2;
    }
    LoadRun run(std::move(options));
    return run.run();
}
