// SPDX-License-Identifier: MIT
// AmqpSession's operations: CBS authorization, send, request-response,
// receive and settle (servicebus_amqp_client.h).
#include "connections/servicebus_amqp_client.h"

#include "api/wire/shared_access_signature.h"
#include "connections/servicebus_amqp_message.h"

#include <proton/condition.h>
#include <proton/delivery.h>
#include <proton/disposition.h>
#include <proton/link.h>
#include <proton/message.h>

#include <QDateTime>
#include <QUrl>

namespace relaydesk {

namespace {

constexpr int kRequestCredit = 10;

std::string tagOf(pn_delivery_t *delivery)
{
    const pn_delivery_tag_t tag = pn_delivery_tag(delivery);
    return QByteArray(tag.start, static_cast<qsizetype>(tag.size)).toHex().toStdString();
}

ConnectionError outcomeError(pn_delivery_t *delivery, const char *fallback)
{
    pn_condition_t *condition = pn_disposition_condition(pn_delivery_remote(delivery));
    const bool set = condition && pn_condition_is_set(condition);
    const char *name = set ? pn_condition_get_name(condition) : nullptr;
    const char *description = set ? pn_condition_get_description(condition) : nullptr;
    return {QStringLiteral("Service Bus"), QString::fromUtf8(name ? name : fallback),
            QString::fromUtf8(description ? description : "The service did not take it."), 0};
}

// The entity an address belongs to (the claim's audience): without a subqueue or node.
std::string entityOf(const std::string &address)
{
    const std::size_t dollar = address.find("/$");
    return dollar == std::string::npos ? address : address.substr(0, dollar);
}

} // namespace

// CBS put-token, as the Azure SDKs: a Shared Access Signature for
// sb://HOST/ENTITY (an hour) sent to $cbs with operation put-token, type
// servicebus.windows.net:sastoken and the audience as name.
std::optional<ConnectionError> AmqpSession::authorize(const std::string &entity)
{
    if (m_authorized.count(entity))
        return std::nullopt;
    const std::string audience = "sb://" + m_target.host + "/" + entity;
    const std::string resource = QUrl::toPercentEncoding(QString::fromStdString(audience)).toStdString();
    const std::string expiry = std::to_string(QDateTime::currentSecsSinceEpoch() + 3600);
    const std::string signature = SharedAccessSignatureCheck::sign(m_target.key, resource, expiry);
    const std::string token = "SharedAccessSignature sr=" + resource + "&sig=" +
                              QUrl::toPercentEncoding(QString::fromStdString(signature)).toStdString() + "&se=" + expiry +
                              "&skn=" + QUrl::toPercentEncoding(QString::fromStdString(m_target.keyName)).toStdString();
    servicebus_amqp::Message put = servicebus_amqp::newMessage();
    servicebus_amqp::putProperty(put.get(), "operation", "put-token");
    servicebus_amqp::putProperty(put.get(), "type", "servicebus.windows.net:sastoken");
    servicebus_amqp::putProperty(put.get(), "name", audience);
    pn_data_put_string(pn_message_body(put.get()), pn_bytes(token.size(), token.data()));
    servicebus_amqp::Message answer = servicebus_amqp::newMessage();
    m_authorized.insert(entity);   // the request itself needs no claim
    std::optional<ConnectionError> error = request({}, "$cbs", put.get(), answer.get());
    m_authorized.erase(entity);
    if (error)
        return error;
    m_authorized.insert(entity);
    return std::nullopt;
}

std::optional<ConnectionError> AmqpSession::send(const std::string &address, const std::vector<char> &message)
{
    if (std::optional<ConnectionError> error = authorize(entityOf(address)))
        return error;
    pn_link_t *link = nullptr;
    if (std::optional<ConnectionError> error = linkFor("send:" + address, true, {}, address, false, &link))
        return error;
    const std::uint64_t tag = ++m_next;
    pn_delivery_t *delivery = pn_delivery(link, pn_dtag(reinterpret_cast<const char *>(&tag), sizeof tag));
    pn_link_send(link, message.data(), message.size());
    pn_link_advance(link);
    flush();
    if (std::optional<ConnectionError> error = waitOn(link, [delivery] {
            return pn_delivery_remote_state(delivery) != 0 || pn_delivery_settled(delivery);
        }))
        return error;
    const std::uint64_t outcome = pn_delivery_remote_state(delivery);
    std::optional<ConnectionError> refused;
    if (outcome == PN_REJECTED || outcome == PN_RELEASED || outcome == PN_MODIFIED)
        refused = outcomeError(delivery, "amqp:internal-error");
    pn_delivery_settle(delivery);
    flush();
    return refused;
}

std::optional<ConnectionError> AmqpSession::request(const std::string &entity, const std::string &node,
                                                    pn_message_t *request, pn_message_t *answer)
{
    if (!entity.empty())
        if (std::optional<ConnectionError> error = authorize(entityOf(entity)))
            return error;
    const std::string address = entity.empty() ? node : entity + "/" + node;
    const std::string replyTo = "relaydesk-reply-" + address;
    pn_link_t *sender = nullptr;
    pn_link_t *receiver = nullptr;
    if (std::optional<ConnectionError> error = linkFor("request:" + address, true, {}, address, false, &sender))
        return error;
    if (std::optional<ConnectionError> error = linkFor("reply:" + address, false, address, replyTo, false, &receiver))
        return error;
    if (pn_link_credit(receiver) < kRequestCredit / 2)
        pn_link_flow(receiver, kRequestCredit - pn_link_credit(receiver));
    const std::uint64_t id = ++m_next;
    pn_data_put_ulong(pn_message_id(request), id);
    pn_message_set_reply_to(request, replyTo.c_str());
    pn_message_set_address(request, address.c_str());
    const std::vector<char> bytes = servicebus_amqp::encode(request);
    pn_delivery_t *delivery = pn_delivery(sender, pn_dtag(reinterpret_cast<const char *>(&id), sizeof id));
    pn_link_send(sender, bytes.data(), bytes.size());
    pn_link_advance(sender);
    pn_delivery_settle(delivery);   // sent pre-settled: the answer is the outcome
    flush();
    bool answered = false;
    std::optional<ConnectionError> error = waitOn(receiver, [&] {
        auto &inbox = m_inboxes[receiver].deliveries;
        while (!inbox.empty() && !answered) {
            auto [reply, replyBytes] = std::move(inbox.front());
            inbox.erase(inbox.begin());
            pn_delivery_update(reply, PN_ACCEPTED);
            pn_delivery_settle(reply);
            answered = servicebus_amqp::decode(replyBytes, answer) &&
                       pn_message_get_correlation_id(answer).type == PN_ULONG &&
                       pn_message_get_correlation_id(answer).u.as_ulong == id;
        }
        return answered;
    });
    flush();
    if (error)
        return error;
    const long status = servicebus_amqp::status(answer).value_or(500);
    if (status >= 200 && status < 300)
        return std::nullopt;
    std::string condition = servicebus_amqp::textProperty(answer, "errorCondition");
    std::string description = servicebus_amqp::textProperty(answer, "status-description");
    if (description.empty())
        description = servicebus_amqp::textProperty(answer, "statusDescription");
    if (condition.empty())
        condition = status == 401 ? "amqp:unauthorized-access" : "status " + std::to_string(status);
    return ConnectionError{QStringLiteral("Service Bus"), QString::fromStdString(condition),
                           QString::fromStdString(description), 0};
}

std::optional<ConnectionError> AmqpSession::receive(const std::string &address, int count, bool peekLock,
                                                    std::vector<AmqpReceived> &received)
{
    if (std::optional<ConnectionError> error = authorize(entityOf(address)))
        return error;
    pn_link_t *link = nullptr;
    const std::string key = (peekLock ? "lock:" : "delete:") + address;
    if (std::optional<ConnectionError> error = linkFor(key, false, address, "relaydesk-" + key, !peekLock, &link))
        return error;
    pn_link_set_drain(link, false);
    pn_link_drain(link, count);   // what there is now, then the credit back
    flush();
    std::optional<ConnectionError> error = waitOn(link, [link] { return pn_link_credit(link) <= 0; });
    auto &inbox = m_inboxes[link].deliveries;
    for (auto &[delivery, bytes] : inbox) {
        AmqpReceived message{bytes, peekLock ? tagOf(delivery) : std::string()};
        if (peekLock)
            m_locked[message.lockToken] = Locked{delivery, bytes};
        else
            pn_delivery_settle(delivery);
        received.push_back(std::move(message));
    }
    inbox.clear();
    flush();
    return error;
}

std::optional<ConnectionError> AmqpSession::settle(const std::string &lockToken, std::uint64_t outcome,
                                                   const std::string &deadLetterReason)
{
    const auto locked = m_locked.find(lockToken);
    if (locked == m_locked.end())
        return ConnectionError{QStringLiteral("Service Bus"), QStringLiteral("com.microsoft:message-lock-lost"),
                               QStringLiteral("The lock supplied is invalid: the message was not received on this "
                                              "connection, or its connection ended."),
                               0};
    pn_delivery_t *delivery = locked->second.delivery;
    pn_link_t *link = pn_delivery_link(delivery);
    if (outcome == PN_REJECTED) {
        pn_condition_t *condition = pn_disposition_condition(pn_delivery_local(delivery));
        pn_condition_set_name(condition, "com.microsoft:dead-letter");
        if (!deadLetterReason.empty()) {   // the error info map, as the SDKs send it
            pn_data_t *info = pn_condition_info(condition);
            pn_data_put_map(info);
            pn_data_enter(info);
            pn_data_put_symbol(info, pn_bytes(sizeof("DeadLetterReason") - 1, "DeadLetterReason"));
            pn_data_put_string(info, pn_bytes(deadLetterReason.size(), deadLetterReason.data()));
            pn_data_exit(info);
        }
    }
    pn_delivery_update(delivery, outcome);
    flush();
    if (std::optional<ConnectionError> error = waitOn(link, [delivery] {
            return pn_delivery_remote_state(delivery) != 0 || pn_delivery_settled(delivery);
        }))
        return error;
    std::optional<ConnectionError> refused;
    if (pn_delivery_remote_state(delivery) != 0 && pn_delivery_remote_state(delivery) != outcome)
        refused = outcomeError(delivery, "com.microsoft:message-lock-lost");
    pn_delivery_settle(delivery);
    m_locked.erase(locked);
    flush();
    return refused;
}

} // namespace relaydesk
