// SPDX-License-Identifier: MIT
#include "api/servicebus/amqp_connection.h"

#include "api/servicebus/amqp_limits.h"
#include "api/servicebus/amqp_message.h"
#include "api/servicebus/amqp_message_facts.h"
#include "api/servicebus/amqp_rule_copy.h"
#include "broker/queues/servicebus_queue.h"
#include "broker/servicebus/servicebus_topic.h"
#include "engine/broker_service.h"

#include <proton/condition.h>
#include <proton/connection.h>
#include <proton/delivery.h>
#include <proton/disposition.h>
#include <proton/event.h>
#include <proton/link.h>
#include <proton/proactor.h>
#include <proton/session.h>
#include <proton/terminus.h>
#include <proton/transport.h>

#include <QCoreApplication>
#include <QDateTime>
#include <QObject>
#include <QThread>
#include <QUuid>

#include <algorithm>
#include <cctype>
#include <cstring>

namespace relaydesk {

namespace {

constexpr int kSendCredit = 100;                 // transfers a sender may have in flight
constexpr int kMaxReceiveBatch = 10;             // one broker receive
constexpr int kReceiveWaitSeconds = 20;          // one broker long poll (clock time); then again

const char *const kEntityNotFound = "com.microsoft:entity-not-found";
// A link attached to no entity is detached as the service does it, with
// amqp:not-found and "The messaging entity 'X' could not be found.": the Python
// and Java SDKs know only that condition (MessagingEntityNotFoundError,
// MESSAGING_ENTITY_NOT_FOUND), the JavaScript SDK reads the description.
const char *const kLinkEntityNotFound = "amqp:not-found";
const char *const kLockLost = "com.microsoft:message-lock-lost";

bool endsWith(std::string_view text, std::string_view end)
{
    return text.size() >= end.size() && text.substr(text.size() - end.size()) == end;
}

// Spells every occurrence of `segment` in `path`, in any case, as `segment`.
void spellSegment(std::string &path, std::string_view segment)
{
    const auto lower = [](std::string text) {
        std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
        return text;
    };
    const std::string lowerPath = lower(path);
    const std::string lowerSegment = lower(std::string(segment));
    for (std::size_t at = lowerPath.find(lowerSegment); at != std::string::npos; at = lowerPath.find(lowerSegment, at + 1))
        path.replace(at, segment.size(), segment);
}

// A link's entity path. azure-servicebus attaches its senders and receivers to
// the whole URL, amqps://HOST:PORT/PATH (the service takes both forms), so a
// scheme and host in front of the path are dropped. The service reads the
// sub-paths in any case, and azure-messaging-servicebus (Java) writes them in
// lower case ("/subscriptions/", "/$deadletterqueue"): they are read as the
// broker spells them.
std::string address(pn_terminus_t *terminus)
{
    const char *text = pn_terminus_get_address(terminus);
    std::string path = text ? std::string(text) : std::string();
    for (const char *scheme : {"amqps://", "amqp://", "sb://"}) {
        if (path.rfind(scheme, 0) == 0) {
            const std::size_t slash = path.find('/', std::strlen(scheme));
            path = slash == std::string::npos ? std::string() : path.substr(slash + 1);
            break;
        }
    }
    spellSegment(path, kServiceBusSubscriptionsPath);
    spellSegment(path, kServiceBusDeadLetterSuffix);
    return path;
}

void setCondition(pn_condition_t *condition, const char *name, const std::string &description)
{
    pn_condition_set_name(condition, name);
    pn_condition_set_description(condition, description.c_str());
}

// `session`: the error of a link that holds a session, whose lock is the
// session's.
const char *conditionOf(const BrokerError &error, bool session = false)
{
    switch (error.code) {
    case BrokerErrorCode::QueueDoesNotExist:
        return kEntityNotFound;
    case BrokerErrorCode::MessageNotInflight:
        return session ? "com.microsoft:session-lock-lost" : kLockLost;
    case BrokerErrorCode::ReceiptHandleIsInvalid:
        return kLockLost;
    case BrokerErrorCode::InvalidParameterValue:
    case BrokerErrorCode::InvalidMessageContents:
        return "amqp:invalid-field";
    default:
        return "amqp:internal-error";
    }
}

// A dead-letter request's reason and description (the rejected outcome's
// error info: DeadLetterReason, DeadLetterErrorDescription).
ServiceBusSettlement deadLetterOf(pn_delivery_t *delivery)
{
    ServiceBusSettlement settlement;
    settlement.kind = ServiceBusSettlement::Kind::DeadLetter;
    pn_data_t *info = pn_condition_info(pn_disposition_condition(pn_delivery_remote(delivery)));
    if (!info)
        return settlement;
    pn_data_rewind(info);
    if (!pn_data_next(info) || pn_data_type(info) != PN_MAP)
        return settlement;
    pn_data_enter(info);
    while (pn_data_next(info)) {
        std::string key;
        if (pn_data_type(info) == PN_STRING || pn_data_type(info) == PN_SYMBOL) {
            const pn_bytes_t bytes =
                pn_data_type(info) == PN_STRING ? pn_data_get_string(info) : pn_data_get_symbol(info);
            key.assign(bytes.start, bytes.size);
        }
        if (!pn_data_next(info))
            break;
        if (pn_data_type(info) != PN_STRING)
            continue;
        const pn_bytes_t value = pn_data_get_string(info);
        if (key == "DeadLetterReason")
            settlement.deadLetterReason.assign(value.start, value.size);
        else if (key == "DeadLetterErrorDescription")
            settlement.deadLetterDescription.assign(value.start, value.size);
    }
    pn_data_exit(info);
    return settlement;
}

// The 16 bytes of a lock token, and the same token in the byte order of a
// .NET Guid (the SDKs hand lock tokens back to $management either way).
std::string tokenBytes(const QUuid &uuid) { return uuid.toRfc4122().toStdString(); }
std::string guidOrder(const std::string &bytes)
{
    if (bytes.size() != 16)
        return bytes;
    std::string swapped = bytes;
    std::reverse(swapped.begin(), swapped.begin() + 4);
    std::reverse(swapped.begin() + 4, swapped.begin() + 6);
    std::reverse(swapped.begin() + 6, swapped.begin() + 8);
    return swapped;
}

} // namespace

void ConnectionMailbox::post(std::function<void()> work)
{
    const std::lock_guard lock(m_mutex);
    if (!m_connection)
        return;
    m_work.push_back(std::move(work));
    pn_connection_wake(m_connection);
}

std::deque<std::function<void()>> ConnectionMailbox::take()
{
    const std::lock_guard lock(m_mutex);
    return std::exchange(m_work, {});
}

void ConnectionMailbox::close()
{
    const std::lock_guard lock(m_mutex);
    m_connection = nullptr;
    m_work.clear();
}

AmqpConnection::AmqpConnection(BrokerService &service, pn_connection_t *connection,
                               std::shared_ptr<const SharedAccessSignatureCheck> sharedAccess)
    : m_service(service), m_connection(connection), m_mailbox(std::make_shared<ConnectionMailbox>(connection)),
      m_claims(std::move(sharedAccess))
{
}

AmqpConnection::~AmqpConnection() { closed(); }

void AmqpConnection::closed()
{
    m_mailbox->close();
    for (auto &[pn, link] : m_links) {
        releaseSession(link);
        link->closed = true;
        if (link->pendingReceive)
            link->pendingReceive->deleteLater();   // withdraws a waiting receive
        link->pendingReceive = nullptr;
    }
    m_links.clear();
}

AmqpConnection::LinkPtr AmqpConnection::linkOf(pn_link_t *link) const
{
    const auto found = m_links.find(link);
    return found == m_links.end() ? nullptr : found->second;
}

void AmqpConnection::handle(pn_event_t *event)
{
    switch (pn_event_type(event)) {
    case PN_CONNECTION_REMOTE_OPEN:
        pn_connection_set_container(m_connection, "relaydesk");
        pn_connection_open(m_connection);
        break;
    case PN_CONNECTION_REMOTE_CLOSE:
        pn_connection_close(m_connection);
        break;
    case PN_SESSION_REMOTE_OPEN:
        if (withinLimitBeforeToken(m_sessionsBeforeToken, amqp_limits::kMaxSessionsBeforeToken, "sessions"))
            pn_session_open(pn_event_session(event));
        break;
    case PN_SESSION_REMOTE_CLOSE:
        pn_session_close(pn_event_session(event));
        break;
    case PN_LINK_REMOTE_OPEN:
        onLinkOpen(pn_event_link(event));
        break;
    case PN_LINK_REMOTE_CLOSE:
    case PN_LINK_REMOTE_DETACH:
        if (LinkPtr link = linkOf(pn_event_link(event))) {
            releaseSession(link);
            link->closed = true;
            if (link->pendingReceive)
                link->pendingReceive->deleteLater();
            link->pendingReceive = nullptr;
        }
        pn_link_close(pn_event_link(event));
        break;
    case PN_LINK_FINAL:
        if (LinkPtr link = linkOf(pn_event_link(event))) {
            link->closed = true;
            m_links.erase(pn_event_link(event));
        }
        break;
    case PN_LINK_FLOW:
        if (LinkPtr link = linkOf(pn_event_link(event)); link && link->role == AmqpLink::Role::Receive)
            pump(link);
        break;
    case PN_DELIVERY:
        onDelivery(pn_event_delivery(event));
        break;
    case PN_TRANSPORT_HEAD_CLOSED:   // the close is written: a connection past its limits is read no more
        if (m_readUntilClosed)
            pn_transport_close_tail(pn_event_transport(event));
        break;
    case PN_CONNECTION_WAKE:
        for (auto &work : m_mailbox->take())
            work();
        break;
    default:
        break;
    }
}

bool AmqpConnection::withinLimitBeforeToken(int &begun, int limit, const char *what)
{
    if (!m_claims.required() || m_claims.everAccepted() || ++begun <= limit)
        return true;
    if (pn_connection_state(m_connection) & PN_LOCAL_ACTIVE) {
        setCondition(pn_connection_condition(m_connection), "amqp:resource-limit-exceeded",
                     "A connection may begin at most " + std::to_string(limit) + " " + what
                         + " before a SAS token of a known key name is put on $cbs.");
        pn_connection_close(m_connection);
        m_readUntilClosed = true;
    }
    return false;
}

void AmqpConnection::onLinkOpen(pn_link_t *pn)
{
    if (!withinLimitBeforeToken(m_linksBeforeToken, amqp_limits::kMaxLinksBeforeToken, "links"))
        return;
    auto link = std::make_shared<AmqpLink>();
    link->link = pn;
    m_links[pn] = link;
    pn_terminus_copy(pn_link_source(pn), pn_link_remote_source(pn));
    pn_terminus_copy(pn_link_target(pn), pn_link_remote_target(pn));
    pn_link_set_snd_settle_mode(pn, pn_link_remote_snd_settle_mode(pn));
    pn_link_set_rcv_settle_mode(pn, pn_link_remote_rcv_settle_mode(pn));
    const bool clientSends = pn_link_is_receiver(pn);
    link->address = address(clientSends ? pn_link_remote_target(pn) : pn_link_remote_source(pn));
    link->maxMessageSize = amqp_limits::kMaxMessageSize;
    if (link->address == "$cbs") {
        link->role = clientSends ? AmqpLink::Role::Cbs : AmqpLink::Role::Replies;
        link->maxMessageSize = amqp_limits::kMaxTokenRequestSize;
        attach(link, ServiceBusEntity{});
        return;
    }
    if (!m_claims.covers(link->address, QDateTime::currentSecsSinceEpoch())) {
        refuse(link, "amqp:unauthorized-access",
               "This broker requires credentials: put an unexpired SAS token whose resource covers " + link->address +
                   " on $cbs before attaching it.");
        return;
    }
    const std::string management = "/$management";
    std::string entityAddress = link->address;
    if (endsWith(entityAddress, management)) {
        link->role = clientSends ? AmqpLink::Role::Management : AmqpLink::Role::Replies;
        entityAddress.resize(entityAddress.size() - management.size());
    } else {
        link->role = clientSends ? AmqpLink::Role::Send : AmqpLink::Role::Receive;
        link->receiveAndDelete = !clientSends && pn_link_remote_snd_settle_mode(pn) == PN_SND_SETTLED;
    }
    m_service.findServiceBusEntity(entityAddress, nullptr,
                                   later<Result<ServiceBusEntity>>([link](const auto &self, Result<ServiceBusEntity> found) {
                                       self->attach(link, std::move(found));
                                   }));
}

void AmqpConnection::attach(const LinkPtr &link, Result<ServiceBusEntity> entity)
{
    if (link->closed)
        return;
    if (!entity) {
        refuse(link, entity.error().code == BrokerErrorCode::QueueDoesNotExist ? kLinkEntityNotFound : conditionOf(entity.error()),
               entity.error().message);
        return;
    }
    link->entity = std::move(*entity);
    if (link->role == AmqpLink::Role::Send && link->entity.deadLetterQueue) {
        refuse(link, "amqp:not-allowed", "Cannot send to a dead-letter sub-queue.");
        return;
    }
    if (link->role == AmqpLink::Role::Receive && link->entity.topic) {
        refuse(link, "amqp:not-allowed", "Cannot receive from a topic: receive from one of its subscriptions.");
        return;
    }
    if (link->role == AmqpLink::Role::Receive && link->entity.properties.requiresSession
        && !link->entity.deadLetterQueue) {
        acceptSession(link);   // opened once its session is locked
        return;
    }
    openLink(link);
}

void AmqpConnection::openLink(const LinkPtr &link)
{
    pn_link_set_max_message_size(link->link, link->maxMessageSize);
    pn_link_open(link->link);
    if (pn_link_is_receiver(link->link))
        topUpCredit(link->link);
    else if (link->role == AmqpLink::Role::Receive)
        pump(link);
}

// As the service: the attach is answered, then detached with the error.
void AmqpConnection::refuse(const LinkPtr &link, const char *condition, const std::string &description)
{
    link->closed = true;
    if (pn_link_is_receiver(link->link))
        pn_terminus_set_type(pn_link_target(link->link), PN_UNSPECIFIED);
    else
        pn_terminus_set_type(pn_link_source(link->link), PN_UNSPECIFIED);
    pn_link_open(link->link);
    detach(link, condition, description);
}

void AmqpConnection::detach(const LinkPtr &link, const char *condition, const std::string &description)
{
    link->closed = true;
    setCondition(pn_link_condition(link->link), condition, description);
    pn_link_close(link->link);
}

void AmqpConnection::topUpCredit(pn_link_t *link)
{
    const int credit = pn_link_credit(link);
    if (credit < kSendCredit / 2)
        pn_link_flow(link, kSendCredit - credit);
}

void AmqpConnection::onDelivery(pn_delivery_t *delivery)
{
    pn_link_t *pn = pn_delivery_link(delivery);
    LinkPtr link = linkOf(pn);
    if (pn_link_is_sender(pn)) {
        if (link && pn_delivery_updated(delivery))
            onSettle(link, delivery);
        return;
    }
    if (!pn_delivery_readable(delivery))
        return;
    const bool partial = pn_delivery_partial(delivery);
    // A delivery is held whole until its last frame, so its size is checked
    // at every frame: the one past the link's limit detaches the link.
    if (link && !link->closed && pn_delivery_pending(delivery) > link->maxMessageSize)
        detach(link, "amqp:link:message-size-exceeded",
               "The received message (at least " + std::to_string(pn_delivery_pending(delivery))
                   + " bytes) exceeds the limit (" + std::to_string(link->maxMessageSize)
                   + " bytes) currently allowed on the link.");
    if (!link || link->closed) {   // what comes on a closed link is read and dropped
        char dropped[4096];
        while (pn_link_recv(pn, dropped, sizeof dropped) > 0) {
        }
        if (!partial) {
            pn_link_advance(pn);
            pn_delivery_update(delivery, PN_RELEASED);
            pn_delivery_settle(delivery);
        }
        return;
    }
    if (partial)
        return;
    std::vector<char> bytes(pn_delivery_pending(delivery));
    const ssize_t read = pn_link_recv(pn, bytes.data(), bytes.size());
    bytes.resize(read > 0 ? static_cast<std::size_t>(read) : 0);
    pn_link_advance(pn);
    if (link->role == AmqpLink::Role::Cbs || link->role == AmqpLink::Role::Management)
        onRequest(link, delivery, bytes);
    else
        onTransfer(link, delivery, std::move(bytes));
    topUpCredit(pn);
}

// A message (or a batch) sent to the entity: stored in one unit, accepted
// after its commit; refused whole with the service's condition otherwise.
void AmqpConnection::onTransfer(const LinkPtr &link, pn_delivery_t *delivery, std::vector<char> bytes)
{
    auto reject = [delivery](const BrokerError &error) {
        setCondition(pn_disposition_condition(pn_delivery_local(delivery)), conditionOf(error), error.message);
        pn_delivery_update(delivery, PN_REJECTED);
        pn_delivery_settle(delivery);
    };
    Result<std::vector<amqp_message::Bytes>> messages = amqp_message::splitTransfer(bytes);
    if (!messages) {
        reject(messages.error());
        return;
    }
    std::vector<SendRequest> requests;
    std::vector<ServiceBusMessageFacts> facts;   // a topic's subscription rules look at them
    for (const auto &message : *messages) {
        Result<SendRequest> request = amqp_message::sendRequest(message);
        if (!request) {
            reject(request.error());
            return;
        }
        requests.push_back(std::move(*request));
        if (link->entity.topic) {
            Result<ServiceBusMessageFacts> described = amqp_message::filterFacts(message);
            if (!described) {
                reject(described.error());
                return;
            }
            facts.push_back(std::move(*described));
        }
    }
    auto answer = later<Status>([link, delivery, reject](const auto &, Status sent) {
                                         if (link->closed)
                                             return;   // the link went: the sender learns nothing, as on a lost connection
                                         if (!sent) {
                                             reject(sent.error());
                                             return;
                                         }
                                         pn_delivery_update(delivery, PN_ACCEPTED);
                                         pn_delivery_settle(delivery);
                                     });
    if (link->entity.topic)
        m_service.publishServiceBusMessages(link->entity.queueName, std::move(requests), std::move(facts),
                                            amqp_message::withPropertyChanges, nullptr, std::move(answer));
    else
        m_service.sendServiceBusMessages(link->entity.queueName, std::move(requests), nullptr, std::move(answer));
}

// Credit on a receive link: one broker receive at a time, for up to the
// credit; an empty answer after its wait (clock time) starts the next. A
// drain ends the waiting receive and answers at once.
void AmqpConnection::pump(const LinkPtr &link)
{
    if (link->closed || link->role != AmqpLink::Role::Receive || link->entity.queueName.empty())
        return;
    pn_link_t *pn = link->link;
    const int credit = pn_link_credit(pn);
    const bool drain = pn_link_get_drain(pn);
    if (link->pendingReceive) {
        if (!drain)
            return;
        link->pendingReceive->deleteLater();   // withdrawn: its answer is dropped
        link->pendingReceive = nullptr;
    }
    if (credit <= 0) {
        if (drain)
            pn_link_drained(pn);
        return;
    }
    ReceiveRequest request;
    request.maxNumberOfMessages = std::min(credit, kMaxReceiveBatch);
    request.visibilityTimeout = static_cast<int>(link->entity.properties.lockDuration);
    request.waitTimeSeconds = drain ? 0 : kReceiveWaitSeconds;
    request.session = link->session;
    // The receive's lifetime token lives on the main thread, where the
    // broker's reply comes; deleting it withdraws the receive.
    auto *token = new QObject;
    token->moveToThread(QCoreApplication::instance()->thread());
    link->pendingReceive = token;
    auto reply = later<Result<ReceiveResult>>([link, token](const auto &self, Result<ReceiveResult> received) {
        if (link->pendingReceive != token)
            return;
        link->pendingReceive = nullptr;
        token->deleteLater();
        self->onReceived(link, std::move(received));
    });
    m_service.receiveMessage(link->entity.queueName, request, token, std::move(reply));
}

void AmqpConnection::onReceived(const LinkPtr &link, Result<ReceiveResult> result)
{
    if (!result) {
        if (!link->closed)
            refuse(link, conditionOf(result.error(), link->session.has_value()), result.error().message);
        return;
    }
    const std::string queue = link->entity.queueName;
    for (ReceivedMessage &message : result->messages) {
        Result<amqp_message::Bytes> bytes = amqp_message::deliveryBytes(message, !link->receiveAndDelete);
        const bool deliverable = !link->closed && pn_link_credit(link->link) > 0 && bytes;
        if (!deliverable) {
            m_service.settleServiceBusMessage(queue, message.receiptHandle,
                                              ServiceBusSettlement{ServiceBusSettlement::Kind::Release, {}, {}, {}},
                                              nullptr, [](Result<ClockTime>) {});
            continue;
        }
        if (!link->receiveAndDelete) {
            deliver(link, *bytes, message.receiptHandle);
            continue;
        }
        // Receive-and-delete: removed from the store first, then sent settled.
        m_service.settleServiceBusMessage(
            queue, message.receiptHandle, ServiceBusSettlement{}, nullptr,
            later<Result<ClockTime>>([link, bytes = *bytes](const auto &self, Result<ClockTime> removed) {
                if (removed && !link->closed)
                    self->deliver(link, bytes, {});
            }));
    }
    if (link->closed)
        return;
    if (result->messages.empty() && pn_link_get_drain(link->link)) {
        pn_link_drained(link->link);
        return;
    }
    pump(link);
}

void AmqpConnection::deliver(const LinkPtr &link, const std::vector<char> &bytes, const std::string &receiptHandle)
{
    const std::string token = tokenBytes(QUuid::createUuid());
    pn_delivery_t *delivery = pn_delivery(link->link, pn_dtag(token.data(), token.size()));
    pn_link_send(link->link, bytes.data(), bytes.size());
    pn_link_advance(link->link);
    if (receiptHandle.empty()) {
        pn_delivery_settle(delivery);
        return;
    }
    link->locks[delivery] = AmqpLink::Lock{receiptHandle, token};
    rememberLock(token, link->entity.queueName, receiptHandle);
}

std::string AmqpConnection::rememberLock(std::string token, const std::string &queue, const std::string &receiptHandle)
{
    if (token.empty())
        token = tokenBytes(QUuid::createUuid());
    m_lockTokens[token] = {queue, receiptHandle};
    m_lockTokens[guidOrder(token)] = {queue, receiptHandle};
    return token;
}

// A receiver's disposition of a locked message: accepted = complete,
// released or modified = abandon (modified undeliverable-here = defer),
// rejected = dead-letter; answered with the
// same outcome after the commit, or rejected with message-lock-lost.
void AmqpConnection::onSettle(const LinkPtr &link, pn_delivery_t *delivery)
{
    const auto lock = link->locks.find(delivery);
    if (lock == link->locks.end()) {
        if (pn_delivery_settled(delivery))
            pn_delivery_settle(delivery);
        return;
    }
    const std::string receiptHandle = lock->second.receiptHandle;
    m_lockTokens.erase(lock->second.token);
    m_lockTokens.erase(guidOrder(lock->second.token));
    link->locks.erase(lock);
    const std::uint64_t outcome = pn_delivery_remote_state(delivery);
    ServiceBusSettlement settlement;
    settlement.session = link->session;
    switch (outcome) {
    case PN_ACCEPTED:
        settlement.kind = ServiceBusSettlement::Kind::Complete;
        break;
    case PN_REJECTED:
        settlement = deadLetterOf(delivery);
        settlement.session = link->session;
        break;
    case PN_MODIFIED:
        // Undeliverable here is the SDKs' defer.
        settlement.kind = pn_disposition_is_undeliverable(pn_delivery_remote(delivery))
                              ? ServiceBusSettlement::Kind::Defer
                              : ServiceBusSettlement::Kind::Abandon;
        break;
    default:
        settlement.kind = ServiceBusSettlement::Kind::Abandon;
        break;
    }
    m_service.settleServiceBusMessage(
        link->entity.queueName, receiptHandle, settlement, nullptr,
        later<Result<ClockTime>>([link, delivery, outcome](const auto &, Result<ClockTime> settled) {
            if (link->closed)
                return;
            if (!settled) {
                setCondition(pn_disposition_condition(pn_delivery_local(delivery)),
                             conditionOf(settled.error(), link->session.has_value()), settled.error().message);
                pn_delivery_update(delivery, PN_REJECTED);
            } else {
                pn_delivery_update(delivery, outcome);
            }
            pn_delivery_settle(delivery);
        }));
}

} // namespace relaydesk
