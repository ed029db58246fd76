// SPDX-License-Identifier: MIT
// AmqpConnection: the request-response nodes — $cbs (claims-based security:
// every token is taken) and ENTITY/$management (docs/behaviour.md §8.6).
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

// The value under `key` of a request's map body (keys are strings).
proton::value bodyEntry(const proton::message &message, const std::string &key)
{
    try {
        std::map<std::string, proton::value> body;
        proton::get(message.body(), body);
        const auto found = body.find(key);
        return found == body.end() ? proton::value() : found->second;
    } catch (const proton::error &) {
        return {};
    }
}

} // namespace

void AmqpConnection::onRequest(const LinkPtr &link, pn_delivery_t *delivery, const std::vector<char> &bytes)
{
    proton::message request;
    try {
        request.decode(bytes);
    } catch (const proton::error &) {
        pn_delivery_update(delivery, PN_REJECTED);
        pn_delivery_settle(delivery);
        return;
    }
    pn_delivery_update(delivery, PN_ACCEPTED);
    pn_delivery_settle(delivery);
    const std::string operation = textProperty(request, "operation");
    if (link->role == AmqpLink::Role::Cbs) {
        if (operation == "put-token")
            respond(request, 200, "OK", {});
        else
            respond(request, 400, "Unknown $cbs operation '" + operation + "'.", "amqp:not-implemented");
        return;
    }
    if (operation == "com.microsoft:renew-lock")
        renewLocks(request, link);
    else if (operation == "com.microsoft:peek-message")
        peekMessages(request, link);
    else
        respond(request, 501, "The operation '" + operation + "' is not supported by Relaydesk yet.",
                "amqp:not-implemented");
}

// The answer goes to the client's link whose address (or, without one, whose
// name: the SDKs' $cbs receiver) is the request's reply-to.
void AmqpConnection::respond(const proton::message &request, int status, const std::string &description,
                             const std::string &condition, const std::function<void(proton::message &)> &fill)
{
    pn_link_t *replies = nullptr;
    for (const auto &[pn, link] : m_links) {
        const char *target = pn_terminus_get_address(pn_link_remote_target(pn));
        const std::string address = target ? target : pn_link_name(pn);
        if (!link->closed && link->role == AmqpLink::Role::Replies && request.reply_to() == address)
            replies = pn;
    }
    if (!replies)
        return;
    proton::message response;
    response.correlation_id(request.id());
    response.to(request.reply_to());
    response.properties().put("statusCode", status);
    response.properties().put("statusDescription", description);
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
    } catch (const proton::error &) {
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

} // namespace relaydesk
