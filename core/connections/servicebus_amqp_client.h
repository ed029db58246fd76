// SPDX-License-Identifier: MIT
#pragma once

#include "connections/connection_error.h"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

struct pn_connection_t;
struct pn_delivery_t;
struct pn_link_t;
struct pn_message_t;
struct pn_proactor_t;
struct pn_session_t;
struct pn_event_t;

namespace relaydesk {

// Where a Service Bus namespace's AMQP listens and how to prove the right to
// it: the connection string's host and port (5671 with TLS, 5672 plain for
// the emulator), its key, and a CA file trusted besides the system's.
struct ServiceBusAmqpTarget {
    std::string host;
    int port = 5671;
    bool tls = true;
    std::string caFile;   // empty: the system trust store only
    std::string keyName;
    std::string key;
};

// A message received in peek-lock: its encoded bytes and its lock token (the
// delivery tag, as the service sends it), held until settled.
struct AmqpReceived {
    std::vector<char> bytes;
    std::string lockToken;
};

// One AMQP 1.0 connection to a Service Bus namespace, driven by Qpid Proton's
// proactor on a thread of its own (docs/architecture.md §10): the window's
// thread never waits on it. Work is posted as jobs that run there one at a
// time; a job speaks through AmqpSession, whose calls block that thread only.
//
//  - Connects on the first job (SASL ANONYMOUS, TLS unless the emulator), and
//    again after the connection failed or a job was cancelled.
//  - Authorizes each entity by a CBS put-token on $cbs (a Shared Access
//    Signature for sb://HOST/ENTITY, an hour), once per connection.
//  - Links are kept by address: a peek-lock receiver keeps its unsettled
//    deliveries (their locks) until settled or the connection ends.
// Every wait ends at the service's answer, a cancel (the job's flag, set from
// any thread, then interrupt()) or 30 s.
class AmqpSession;
class ServiceBusAmqpClient final {
public:
    using Job = std::function<void(AmqpSession &)>;

    explicit ServiceBusAmqpClient(ServiceBusAmqpTarget target);
    ~ServiceBusAmqpClient();   // ends the connection and joins the thread; jobs not run are dropped
    ServiceBusAmqpClient(const ServiceBusAmqpClient &) = delete;
    ServiceBusAmqpClient &operator=(const ServiceBusAmqpClient &) = delete;

    // Thread-safe.
    void post(Job job);
    // Thread-safe: wakes a waiting job so it sees its cancel flag.
    void interrupt();

private:
    void run();

    std::unique_ptr<AmqpSession> m_session;
    pn_proactor_t *m_proactor = nullptr;
    std::mutex m_mutex;
    std::deque<Job> m_jobs;
    bool m_stopping = false;
    std::thread m_thread;
};

// What a job may do on the connection (the client's thread only). Each call
// answers an error in the service's words (service "Service Bus", the AMQP
// condition as code) or nothing/the value.
class AmqpSession final {
public:
    using Cancel = std::shared_ptr<std::atomic_bool>;

    AmqpSession(pn_proactor_t *proactor, ServiceBusAmqpTarget target);
    ~AmqpSession();

    // The job's cancel flag, checked by every wait.
    void setCancel(Cancel cancel) { m_cancel = std::move(cancel); }
    // Thread-safe: every wait ends (cancelled) from now on; the client is going.
    void stop() { m_stop = true; }
    // After a cancel or a failure: drop the connection (the next call reconnects).
    void reset();

    // Sends one encoded message to ADDRESS; waits for the service's outcome.
    std::optional<ConnectionError> send(const std::string &address, const std::vector<char> &message);
    // A request to ADDRESS's request-response node (`$cbs` or ENTITY/$management):
    // `request` has operation, body, …; reply-to and message id are set here.
    // The answer's encoded message, or its status error.
    std::optional<ConnectionError> request(const std::string &entity, const std::string &node, pn_message_t *request,
                                           pn_message_t *answer);
    // Up to `count` messages of ADDRESS, draining the link's credit: peek-lock
    // (kept until settle) or receive-and-delete.
    std::optional<ConnectionError> receive(const std::string &address, int count, bool peekLock,
                                           std::vector<AmqpReceived> &received);
    // Settles a message this connection holds locked: PN_ACCEPTED (complete),
    // PN_MODIFIED (abandon), PN_REJECTED (dead-letter, with `deadLetterReason`
    // as the condition's DeadLetterReason unless empty); waits for the service's answer.
    std::optional<ConnectionError> settle(const std::string &lockToken, std::uint64_t outcome,
                                          const std::string &deadLetterReason = {});
    // The bytes of a message this connection holds locked, or null.
    const std::vector<char> *lockedBytes(const std::string &lockToken) const;

    // The proactor's events, for ServiceBusAmqpClient: handles one.
    void handle(pn_event_t *event);

private:
    struct Inbox {
        std::vector<std::pair<pn_delivery_t *, std::vector<char>>> deliveries;
    };
    struct Locked {
        pn_delivery_t *delivery = nullptr;
        std::vector<char> bytes;
    };
    using Done = std::function<bool()>;
    std::optional<ConnectionError> open();
    std::optional<ConnectionError> authorize(const std::string &entity);
    std::optional<ConnectionError> wait(const Done &done);
    // Waits until `done`, the link's detach or the connection's end; the
    // wait's, the connection's or the link's error.
    std::optional<ConnectionError> waitOn(pn_link_t *link, const Done &done);
    std::optional<ConnectionError> linkFor(const std::string &key, bool sender, const std::string &source,
                                           const std::string &target, bool settled, pn_link_t **link);
    std::optional<ConnectionError> linkError(pn_link_t *link) const;
    void flush();
    static bool remotelyClosed(pn_link_t *link);

    pn_proactor_t *m_proactor;
    ServiceBusAmqpTarget m_target;
    Cancel m_cancel;
    std::atomic_bool m_stop{false};
    pn_connection_t *m_connection = nullptr;
    pn_session_t *m_session = nullptr;
    std::optional<ConnectionError> m_failed;   // the connection's end, in the service's words
    bool m_timedOut = false;
    std::map<std::string, pn_link_t *> m_links;
    std::map<pn_link_t *, Inbox> m_inboxes;
    std::map<std::string, Locked> m_locked;
    std::set<std::string> m_authorized;
    std::uint64_t m_next = 0;
};

} // namespace relaydesk
