// SPDX-License-Identifier: MIT
#pragma once

#include "api/servicebus/cbs_claims.h"
#include "broker/queues/servicebus_queue.h"
#include "broker/queues/servicebus_session.h"
#include "broker/result.h"

#include <proton/event.h>
#include <proton/types.h>

#include <any>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

class QObject;

namespace proton {
class message;
}

namespace relaydesk {

class BrokerService;
struct ReceiveResult;

// Work for one AMQP connection from other threads (the broker's replies):
// post() queues it and wakes the connection; the proactor thread runs it on
// PN_CONNECTION_WAKE. Once the transport closed, posts are dropped. Any
// thread.
class ConnectionMailbox final {
public:
    explicit ConnectionMailbox(pn_connection_t *connection) : m_connection(connection) {}
    void post(std::function<void()> work);
    std::deque<std::function<void()>> take();
    void close();

private:
    std::mutex m_mutex;
    pn_connection_t *m_connection = nullptr;
    std::deque<std::function<void()>> m_work;
};

// One link of a connection as the endpoint sees it.
struct AmqpLink {
    enum class Role {
        Pending,      // its entity is being looked up
        Cbs,          // the client sends put-token requests ($cbs)
        Management,   // the client sends management requests (ENTITY/$management)
        Replies,      // we answer $cbs / $management requests on it (keyed by the client's address)
        Send,         // the client sends messages to the entity
        Receive,      // we deliver the entity's messages
    };
    pn_link_t *link = nullptr;
    Role role = Role::Pending;
    bool closed = false;            // closed by either side: nothing more is started on it
    std::uint64_t maxMessageSize = 0;   // announced at attach (amqp_limits.h); enforced on what the client sends
    std::string address;            // the entity's address as attached
    ServiceBusEntity entity;        // Send, Receive, Management
    bool receiveAndDelete = false;  // Receive: the client settles nothing
    QObject *pendingReceive = nullptr;   // Receive: the lifetime token of the receive in flight
    struct Lock {
        std::string receiptHandle;
        std::string token;   // the delivery tag
    };
    std::map<pn_delivery_t *, Lock> locks;   // Receive: the unsettled deliveries
    // Receive on a queue with sessions: the session this link holds (from the
    // attach's answer on; amqp_sessions.cpp).
    std::optional<ServiceBusSessionHold> session;
};

// One AMQP connection of the Service Bus endpoint (docs/behaviour.md §8.6): its links,
// the Service Bus meaning of their attach, transfer and disposition frames,
// the $cbs and $management request-response nodes. Every broker operation
// goes through BrokerService; a send is accepted only after its commit.
// Ownership: borrows the service (must outlive it) and the pn objects (the
// proactor's). Thread: the proactor thread only.
class AmqpConnection final : public std::enable_shared_from_this<AmqpConnection> {
public:
    // `sharedAccess`: the check of a put-token's signature (null: any token, none needed;
    // servicebus_endpoint.h).
    AmqpConnection(BrokerService &service, pn_connection_t *connection,
                   std::shared_ptr<const SharedAccessSignatureCheck> sharedAccess = nullptr);
    ~AmqpConnection();

    void handle(pn_event_t *event);
    void closed();   // the transport closed: nothing more runs

private:
    using LinkPtr = std::shared_ptr<AmqpLink>;

    void onLinkOpen(pn_link_t *link);
    void attach(const LinkPtr &link, Result<ServiceBusEntity> entity);
    void openLink(const LinkPtr &link);
    void refuse(const LinkPtr &link, const char *condition, const std::string &description);
    void detach(const LinkPtr &link, const char *condition, const std::string &description);
    // Before the first accepted token (with --credentials): counts a session or
    // link begun; past its limit closes the connection (amqp_limits.h).
    bool withinLimitBeforeToken(int &begun, int limit, const char *what);
    void onDelivery(pn_delivery_t *delivery);
    void onTransfer(const LinkPtr &link, pn_delivery_t *delivery, std::vector<char> bytes);
    void onSettle(const LinkPtr &link, pn_delivery_t *delivery);
    void pump(const LinkPtr &link);
    void onReceived(const LinkPtr &link, Result<ReceiveResult> result);
    void deliver(const LinkPtr &link, const std::vector<char> &bytes, const std::string &receiptHandle);
    void topUpCredit(pn_link_t *link);
    // Keeps a lock token (16 bytes; a new one when empty) for $management,
    // in both byte orders the SDKs use; returns it.
    std::string rememberLock(std::string token, const std::string &queue, const std::string &receiptHandle);
    // amqp_management.cpp: the request-response nodes.
    void onRequest(const LinkPtr &link, pn_delivery_t *delivery, const std::vector<char> &bytes);
    void respond(const proton::message &request, int status, const std::string &description,
                 const std::string &condition, const std::function<void(proton::message &)> &fill = {});
    void renewLocks(const proton::message &request, const LinkPtr &link);
    void peekMessages(const proton::message &request, const LinkPtr &link);
    void scheduleMessages(const proton::message &request, const LinkPtr &link);
    void cancelScheduledMessages(const proton::message &request, const LinkPtr &link);
    void putToken(const proton::message &request);   // $cbs
    // amqp_sessions.cpp: the session of a receive link, the session operations.
    void acceptSession(const LinkPtr &link);
    void onSessionAccepted(const LinkPtr &link, const std::string &token, Result<std::any> accepted);
    void releaseSession(const LinkPtr &link);
    static bool isSessionOperation(const std::string &operation);
    void sessionRequest(const std::string &operation, const proton::message &request, const LinkPtr &link);
    // amqp_rules.cpp: a subscription's rules over $management.
    static bool isRuleOperation(const std::string &operation);
    void ruleRequest(const std::string &operation, const proton::message &request, const LinkPtr &link);
    void enumerateRules(const proton::message &request, const std::string &topic, const std::string &subscription);
    // amqp_deferred.cpp: deferred messages over $management.
    void receiveBySequenceNumbers(const proton::message &request, const LinkPtr &link);
    void updateDisposition(const proton::message &request, const LinkPtr &link);

    LinkPtr linkOf(pn_link_t *link) const;
    // Runs `work` on this connection's thread when the broker replies.
    template <class T>
    std::function<void(T)> later(std::function<void(const std::shared_ptr<AmqpConnection> &, T)> work);

    BrokerService &m_service;
    pn_connection_t *m_connection = nullptr;
    std::shared_ptr<ConnectionMailbox> m_mailbox;
    std::map<pn_link_t *, LinkPtr> m_links;
    std::map<std::string, std::pair<std::string, std::string>> m_lockTokens;   // token bytes -> queue, receipt handle
    std::uint64_t m_nextTag = 0;
    CbsClaims m_claims;   // the tokens put on $cbs (cbs_claims.h)
    int m_sessionsBeforeToken = 0;
    int m_linksBeforeToken = 0;
    bool m_readUntilClosed = false;   // closed past a limit: reading ends once the close is written
};

template <class T>
std::function<void(T)> AmqpConnection::later(std::function<void(const std::shared_ptr<AmqpConnection> &, T)> work)
{
    std::weak_ptr<AmqpConnection> self = weak_from_this();
    std::shared_ptr<ConnectionMailbox> mailbox = m_mailbox;
    return [self, mailbox, work = std::move(work)](T value) {
        auto shared = std::make_shared<T>(std::move(value));
        mailbox->post([self, work, shared] {
            if (auto alive = self.lock())
                work(alive, std::move(*shared));
        });
    };
}

} // namespace relaydesk
