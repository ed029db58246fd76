// SPDX-License-Identifier: MIT
// AmqpConnection: deferred messages over ENTITY/$management (docs/behaviour.md §8.6) —
// receive by sequence number, and settling by lock token (the SDKs settle a
// message received there through $management, having no delivery for it).
#include "api/servicebus/amqp_connection.h"

#include "api/servicebus/amqp_message.h"
#include "engine/broker_service.h"

#include <proton/binary.hpp>
#include <proton/error.hpp>
#include <proton/map.hpp>
#include <proton/message.hpp>
#include <proton/scalar.hpp>
#include <proton/types.hpp>
#include <proton/uuid.hpp>
#include <proton/value.hpp>

#include <map>

namespace relaydesk {

namespace {

// A request's map body (keys are strings); InvalidParameterValue when it is none.
std::map<std::string, proton::value> requestBody(const proton::message &request)
{
    std::map<std::string, proton::value> body;
    proton::get(request.body(), body);
    return body;
}

// The disposition-status the SDKs send, as a settlement.
std::optional<ServiceBusSettlement::Kind> settlementOf(const std::string &status)
{
    using Kind = ServiceBusSettlement::Kind;
    if (status == "completed")
        return Kind::Complete;
    if (status == "abandoned")
        return Kind::Abandon;
    if (status == "suspended")
        return Kind::DeadLetter;
    if (status == "defered" || status == "deferred")
        return Kind::Defer;
    return std::nullopt;
}

} // namespace

// com.microsoft:receive-by-sequence-number: {"sequence-numbers": long[],
// "receiver-settle-mode": uint (0: receive-and-delete)} -> {"messages":
// [{"lock-token": uuid, "message": binary}…]}; one that is not deferred (or
// is locked) fails all with 404 com.microsoft:message-not-found.
void AmqpConnection::receiveBySequenceNumbers(const proton::message &request, const LinkPtr &link)
{
    std::vector<std::int64_t> numbers;
    bool andDelete = false;
    try {
        const auto body = requestBody(request);
        proton::get(body.at("sequence-numbers"), numbers);
        if (const auto mode = body.find("receiver-settle-mode"); mode != body.end())
            andDelete = proton::coerce<std::uint64_t>(mode->second) == 0;
    } catch (const std::exception &) {
        respond(request, 400, "The request needs sequence-numbers.", "amqp:invalid-field");
        return;
    }
    const std::string queue = link->entity.queueName;
    m_service.receiveDeferredServiceBusMessages(
        queue, numbers, static_cast<int>(link->entity.properties.lockDuration), andDelete, nullptr,
        later<Result<std::vector<ReceivedMessage>>>([request, queue, andDelete](const auto &self,
                                                                               Result<std::vector<ReceivedMessage>> got) {
            if (!got) {
                const bool missing = got.error().code == BrokerErrorCode::QueueDoesNotExist;
                self->respond(request, 404, got.error().message,
                              missing ? "com.microsoft:entity-not-found" : "com.microsoft:message-not-found");
                return;
            }
            std::vector<proton::value> messages;
            for (const ReceivedMessage &message : *got) {
                Result<amqp_message::Bytes> bytes = amqp_message::deliveryBytes(message, !andDelete);
                if (!bytes)
                    continue;
                const std::string token = self->rememberLock({}, queue, andDelete ? std::string() : message.receiptHandle);
                std::map<std::string, proton::value> entry;
                proton::uuid uuid;
                std::copy(token.begin(), token.end(), uuid.begin());
                entry["lock-token"] = uuid;
                entry["message"] = proton::binary(bytes->begin(), bytes->end());
                messages.emplace_back(entry);
            }
            self->respond(request, 200, "OK", {}, [&messages](proton::message &response) {
                std::map<std::string, proton::value> body;
                body["messages"] = messages;
                response.body(body);
            });
        }));
}

// com.microsoft:update-disposition: {"lock-tokens": uuid[], "disposition-status":
// "completed" | "abandoned" | "suspended" | "defered", "deadletter-reason",
// "deadletter-description"}; each settled as its receiver would on the link;
// a token that is not a current lock: 410 com.microsoft:message-lock-lost.
void AmqpConnection::updateDisposition(const proton::message &request, const LinkPtr &)
{
    std::vector<proton::uuid> tokens;
    ServiceBusSettlement settlement;
    try {
        const auto body = requestBody(request);
        proton::get(body.at("lock-tokens"), tokens);
        const std::optional<ServiceBusSettlement::Kind> kind =
            settlementOf(proton::get<std::string>(body.at("disposition-status")));
        if (!kind || tokens.empty())
            throw proton::error("unknown disposition-status");
        settlement.kind = *kind;
        if (const auto reason = body.find("deadletter-reason"); reason != body.end())
            settlement.deadLetterReason = proton::get<std::string>(reason->second);
        if (const auto description = body.find("deadletter-description"); description != body.end())
            settlement.deadLetterDescription = proton::get<std::string>(description->second);
    } catch (const std::exception &) {
        respond(request, 400, "The request needs lock-tokens and a disposition-status.", "amqp:invalid-field");
        return;
    }
    auto remaining = std::make_shared<std::size_t>(tokens.size());
    auto failed = std::make_shared<bool>(false);
    for (const proton::uuid &token : tokens) {
        const auto lock = m_lockTokens.find(std::string(token.begin(), token.end()));
        if (lock == m_lockTokens.end() || lock->second.second.empty()) {
            respond(request, 410, "The lock supplied is invalid.", "com.microsoft:message-lock-lost");
            return;
        }
        m_service.settleServiceBusMessage(
            lock->second.first, lock->second.second, settlement, nullptr,
            later<Result<ClockTime>>([request, remaining, failed](const auto &self, Result<ClockTime> settled) {
                if (*failed)
                    return;
                if (!settled) {
                    *failed = true;
                    self->respond(request, 410, settled.error().message, "com.microsoft:message-lock-lost");
                    return;
                }
                if (--*remaining == 0)
                    self->respond(request, 200, "OK", {});
            }));
    }
}

} // namespace relaydesk
