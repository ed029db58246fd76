// SPDX-License-Identifier: MIT
// AmqpConnection: the request-response nodes — $cbs (claims-based security:
// every token is taken, or with serve --credentials only a valid Shared
// Access Signature: cbs_claims.h) and ENTITY/$management (docs/behaviour.md §8.6).
#include "api/servicebus/amqp_connection.h"

#include "api/servicebus/amqp_message.h"
#include "engine/broker_service.h"

#include <proton/delivery.h>
#include <proton/error.hpp>
#include <proton/link.h>
#include <proton/binary.hpp>
#include <proton/map.hpp>
#include <proton/message.hpp>
#include <proton/message_id.hpp>
#include <proton/scalar.hpp>
#include <proton/terminus.h>
#include <proton/timestamp.hpp>
#include <proton/types.hpp>
#include <proton/uuid.hpp>
#include <proton/value.hpp>

#include <QDateTime>

#include <algorithm>

namespace relaydesk {

namespace {

std::string textProperty(const proton::message &message, const std::string &key)
{
    const proton::value value = message.properties().get(key);
    if (value.type() == proton::STRING)
        return proton::get<std::string>(value);
    if (value.type() == proton::SYMBOL)
        return proton::get<proton::symbol>(value);
    return {};
}

proton::value bodyEntry(const proton::message &message, const std::string &key)
{
    return amqp_message::requestBodyEntry(message, key);
}

} // namespace

void AmqpConnection::onRequest(const LinkPtr &link, pn_delivery_t *delivery, const std::vector<char> &bytes)
{
    Result<proton::message> decoded = amqp_message::decodeMessage(bytes);
    if (!decoded) {
        pn_delivery_update(delivery, PN_REJECTED);
        pn_delivery_settle(delivery);
        return;
    }
    proton::message &request = *decoded;
    // A request without reply-to (azure-servicebus's put-token) is answered on
    // the client's reply link of the same node, as the service does.
    if (request.reply_to().empty())
        request.reply_to(link->address);
    pn_delivery_update(delivery, PN_ACCEPTED);
    pn_delivery_settle(delivery);
    const std::string operation = textProperty(request, "operation");
    if (link->role == AmqpLink::Role::Cbs) {
        if (operation == "put-token")
            putToken(request);
        else
            respond(request, 400, "Unknown $cbs operation '" + operation + "'.", "amqp:not-implemented");
        return;
    }
    if (operation == "com.microsoft:renew-lock")
        renewLocks(request, link);
    else if (operation == "com.microsoft:peek-message")
        peekMessages(request, link);
    else if (operation == "com.microsoft:schedule-message")
        scheduleMessages(request, link);
    else if (operation == "com.microsoft:cancel-scheduled-message")
        cancelScheduledMessages(request, link);
    else if (isSessionOperation(operation))
        sessionRequest(operation, request, link);
    else if (operation == "com.microsoft:receive-by-sequence-number")
        receiveBySequenceNumbers(request, link);
    else if (operation == "com.microsoft:update-disposition")
        updateDisposition(request, link);
    else if (isRuleOperation(operation))
        ruleRequest(operation, request, link);
    else
        respond(request, 501, "The operation '" + operation + "' is not supported by Relaydesk yet.",
                "amqp:not-implemented");
}

// put-token: the body is "SharedAccessSignature sr=…&sig=…&se=…&skn=KEYNAME", the
// audience its name property; checked against the credentials' keys on the
// wall clock (cbs_claims.h, docs/behaviour.md §8.6 "Credentials").
void AmqpConnection::putToken(const proton::message &request)
{
    std::string token;
    if (request.body().type() == proton::STRING)
        token = proton::get<std::string>(request.body());
    if (const std::optional<std::string> refused =
            m_claims.put(token, textProperty(request, "name"), QDateTime::currentSecsSinceEpoch())) {
        respond(request, 401, *refused, "com.microsoft:unauthorized-access");
        return;
    }
    respond(request, 200, "OK", {});
}

// The answer goes to the client's link whose address (or, without one, whose
// name: the SDKs' $cbs receiver) is the request's reply-to. $cbs answers carry
// the CBS names status-code and status-description (azure-servicebus reads
// only these), $management answers statusCode and statusDescription.
void AmqpConnection::respond(const proton::message &request, int status, const std::string &description,
                             const std::string &condition, const std::function<void(proton::message &)> &fill)
{
    pn_link_t *replies = nullptr;
    bool cbs = false;
    for (const auto &[pn, link] : m_links) {
        const char *target = pn_terminus_get_address(pn_link_remote_target(pn));
        const std::string address = target ? target : pn_link_name(pn);
        if (!link->closed && link->role == AmqpLink::Role::Replies && request.reply_to() == address) {
            replies = pn;
            cbs = link->address == "$cbs";
        }
    }
    if (!replies)
        return;
    proton::message response;
    response.correlation_id(request.id());
    response.to(request.reply_to());
    response.properties().put(cbs ? "status-code" : "statusCode", status);
    response.properties().put(cbs ? "status-description" : "statusDescription", description);
    if (!condition.empty())
        response.properties().put("errorCondition", proton::symbol(condition));
    if (fill)
        fill(response);
    else
        response.body(proton::value());
    std::vector<char> bytes;
    response.encode(bytes);
    const std::uint64_t tag = ++m_nextTag;
    pn_delivery_t *delivery = pn_delivery(replies, pn_dtag(reinterpret_cast<const char *>(&tag), sizeof tag));
    pn_link_send(replies, bytes.data(), bytes.size());
    pn_link_advance(replies);
    pn_delivery_settle(delivery);
}

// com.microsoft:renew-lock: {"lock-tokens": uuid[]} -> {"expirations": timestamp[]}.
void AmqpConnection::renewLocks(const proton::message &request, const LinkPtr &)
{
    std::vector<proton::uuid> tokens;
    try {
        proton::get(bodyEntry(request, "lock-tokens"), tokens);
    } catch (const std::exception &) {   // proton's decoder also throws std::length_error
        respond(request, 400, "The request needs lock-tokens.", "amqp:invalid-field");
        return;
    }
    auto expirations = std::make_shared<std::vector<proton::timestamp>>();
    auto failed = std::make_shared<bool>(false);
    auto remaining = std::make_shared<std::size_t>(tokens.size());
    if (tokens.empty()) {
        respond(request, 400, "The request needs lock-tokens.", "amqp:invalid-field");
        return;
    }
    for (const proton::uuid &token : tokens) {
        const auto lock = m_lockTokens.find(std::string(token.begin(), token.end()));
        if (lock == m_lockTokens.end()) {
            respond(request, 410, "The lock supplied is invalid.", "com.microsoft:message-lock-lost");
            return;
        }
        ServiceBusSettlement renew;
        renew.kind = ServiceBusSettlement::Kind::RenewLock;
        m_service.settleServiceBusMessage(
            lock->second.first, lock->second.second, renew, nullptr,
            later<Result<ClockTime>>([request, expirations, failed, remaining](const auto &self, Result<ClockTime> until) {
                if (*failed)
                    return;
                if (!until) {
                    *failed = true;
                    self->respond(request, 410, until.error().message, "com.microsoft:message-lock-lost");
                    return;
                }
                expirations->push_back(proton::timestamp(toEpochMilliseconds(*until)));
                if (--*remaining > 0)
                    return;
                self->respond(request, 200, "OK", {}, [expirations](proton::message &response) {
                    std::map<std::string, proton::value> body;
                    body["expirations"] = *expirations;
                    response.body(body);
                });
            }));
    }
}

// com.microsoft:peek-message: {"from-sequence-number": long, "message-count": int}
// -> {"messages": [{"message": binary}…]} in sequence order, every state but
// expired; status 204 when there is none from there on.
void AmqpConnection::peekMessages(const proton::message &request, const LinkPtr &link)
{
    const proton::value from = bodyEntry(request, "from-sequence-number");
    const proton::value count = bodyEntry(request, "message-count");
    std::int64_t first = 0;
    std::int64_t wanted = 0;
    try {
        first = proton::coerce<std::int64_t>(from);
        wanted = proton::coerce<std::int64_t>(count);
    } catch (const proton::error &) {
        respond(request, 400, "The request needs from-sequence-number and message-count.", "amqp:invalid-field");
        return;
    }
    BrowseRequest browse;
    browse.after = std::max<std::int64_t>(first, 1) - 1;
    browse.pageSize = static_cast<int>(std::clamp<std::int64_t>(wanted, 1, 1000));
    m_service.browseQueue(
        link->entity.queueName, browse, nullptr,
        later<Result<BrowsePage>>([request](const auto &self, Result<BrowsePage> page) {
            if (!page) {
                self->respond(request, 404, page.error().message, "com.microsoft:entity-not-found");
                return;
            }
            std::vector<proton::value> messages;
            for (const BrowsedMessage &message : page->messages) {
                if (message.state == MessageState::Expired)
                    continue;
                Result<amqp_message::Bytes> bytes = amqp_message::peekedBytes(message);
                if (!bytes)
                    continue;
                std::map<std::string, proton::value> entry;
                entry["message"] = proton::binary(bytes->begin(), bytes->end());
                messages.emplace_back(entry);
            }
            if (messages.empty()) {
                self->respond(request, 204, "No messages.", {});
                return;
            }
            self->respond(request, 200, "OK", {}, [&messages](proton::message &response) {
                std::map<std::string, proton::value> body;
                body["messages"] = messages;
                response.body(body);
            });
        }));
}

namespace {

// The stored message the broker's message id names, newest first (a search
// by id: docs/behaviour.md §8.4), for its sequence number.
BrowseRequest byMessageId(const std::string &messageId)
{
    BrowseRequest browse;
    browse.search = messageId;
    browse.newestFirst = true;
    browse.pageSize = 1;
    return browse;
}

using Step = std::function<void(const std::shared_ptr<AmqpConnection> &, std::size_t)>;

} // namespace

// com.microsoft:schedule-message: {"messages": [{"message": binary, "message-id": …}…]}
// -> {"sequence-numbers": long[]}. Each message carries its
// x-opt-scheduled-enqueue-time; they are stored one after the other (each
// committed before the next), then answered together.
void AmqpConnection::scheduleMessages(const proton::message &request, const LinkPtr &link)
{
    std::variant<std::vector<SendRequest>, std::string> read = amqp_message::scheduledSends(request);
    if (const std::string *problem = std::get_if<std::string>(&read)) {
        respond(request, 400, "The request needs messages to schedule: " + *problem, "amqp:invalid-field");
        return;
    }
    const std::vector<SendRequest> sends = std::get<std::vector<SendRequest>>(std::move(read));
    auto numbers = std::make_shared<std::vector<std::int64_t>>();
    auto step = std::make_shared<Step>();   // each reply holds it while the next runs
    const std::string queue = link->entity.queueName;
    *step = [request, queue, sends, numbers, weak = std::weak_ptr<Step>(step)](
                const std::shared_ptr<AmqpConnection> &self, std::size_t index) {
        const std::shared_ptr<Step> next = weak.lock();
        if (index == sends.size()) {
            self->respond(request, 200, "OK", {}, [numbers](proton::message &response) {
                std::map<std::string, proton::value> body;
                body["sequence-numbers"] = *numbers;
                response.body(body);
            });
            return;
        }
        auto failed = [self, request](const BrokerError &error) {
            const bool missing = error.code == BrokerErrorCode::QueueDoesNotExist;
            self->respond(request, missing ? 404 : 400, error.message,
                          missing ? "com.microsoft:entity-not-found" : "amqp:invalid-field");
        };
        self->m_service.sendMessage(
            queue, sends[index], nullptr,
            self->later<Result<SendReceipt>>([queue, numbers, next, index, failed](const auto &again,
                                                                                   Result<SendReceipt> sent) {
                if (!sent)
                    return failed(sent.error());
                again->m_service.browseQueue(
                    queue, byMessageId(sent->messageId), nullptr,
                    again->template later<Result<BrowsePage>>([numbers, next, index, failed](const auto &last,
                                                                                    Result<BrowsePage> page) {
                        if (!page || page->messages.empty())
                            return failed(page ? BrokerError(BrokerErrorCode::InternalError, "a sent message is gone")
                                               : page.error());
                        numbers->push_back(page->messages.front().storageId);
                        (*next)(last, index + 1);
                    }));
            }));
    };
    (*step)(shared_from_this(), 0);
}

// com.microsoft:cancel-scheduled-message: {"sequence-numbers": long[]}; a
// number that names no scheduled message of the queue is passed over.
void AmqpConnection::cancelScheduledMessages(const proton::message &request, const LinkPtr &link)
{
    const std::optional<std::vector<std::int64_t>> read = amqp_message::scheduledSequenceNumbers(request);
    if (!read) {
        respond(request, 400, "The request needs sequence-numbers.", "amqp:invalid-field");
        return;
    }
    const std::vector<std::int64_t> numbers = *read;
    auto step = std::make_shared<Step>();
    const std::string queue = link->entity.queueName;
    *step = [request, queue, numbers, weak = std::weak_ptr<Step>(step)](const std::shared_ptr<AmqpConnection> &self,
                                                                         std::size_t index) {
        const std::shared_ptr<Step> next = weak.lock();
        if (index == numbers.size()) {
            self->respond(request, 200, "OK", {});
            return;
        }
        BrowseRequest browse;
        browse.after = numbers[index] - 1;
        browse.pageSize = 1;
        self->m_service.browseQueue(
            queue, browse, nullptr,
            self->later<Result<BrowsePage>>([queue, numbers, next, index](const auto &again, Result<BrowsePage> page) {
                const bool scheduled = page && !page->messages.empty()
                                       && page->messages.front().storageId == numbers[index]
                                       && page->messages.front().state == MessageState::Scheduled;
                if (!scheduled)
                    return (*next)(again, index + 1);
                again->m_service.cancelScheduledMessage(
                    queue, page->messages.front().messageId, nullptr,
                    again->template later<Status>([next, index](const auto &last, Status) { (*next)(last, index + 1); }));
            }));
    };
    (*step)(shared_from_this(), 0);
}

} // namespace relaydesk
