// SPDX-License-Identifier: MIT
// Fuzz target of the Service Bus message conversion: the bytes of one AMQP
// transfer (what a sender's link carries; Proton decodes them) into the
// broker's message facts, and the same bytes as a $management request body.
// The seeds are messages as the SDKs send them (encoded by Proton: body,
// subject, message-id, session id, application properties, annotations,
// TTL, a batch), and management requests (schedule, cancel). Checked for
// every input: no crash, uncaught exception or sanitizer report; a transfer
// splits into messages or is refused with InvalidParameterValue; a message
// that splits out reads as a send and as filter facts alike, or neither; its
// stored body gives back its bytes; the bytes a receiver gets for it read as
// the same send (TTL, scheduled time, session, MessageId) and the same facts
// (but a MessageId the broker gave it); a management body schedules messages
// that each have their time, or says why not; a request that decodes has
// application properties and annotations that read without an exception.
#include "api/servicebus/amqp_message.h"
#include "api/servicebus/amqp_message_facts.h"
#include "broker/queues/message_receiver.h"
#include "fuzz_check.h"

#include <proton/error.hpp>
#include <proton/message.hpp>
#include <proton/types.hpp>
#include <proton/value.hpp>

#include <cstddef>
#include <cstdint>
#include <string>

using namespace relaydesk;
using relaydesk::fuzz::require;

namespace {

constexpr const char *kTarget = "amqp_message_fuzz";
using Bytes = amqp_message::Bytes;

template <class T>
void requireInvalid(const Result<T> &result)
{
    if (!result)
        require(result.error().code == BrokerErrorCode::InvalidParameterValue && !result.error().message.empty(),
                kTarget, "a refusal other than InvalidParameterValue with a message");
}

void checkMessage(const Bytes &bytes)
{
    const Result<SendRequest> send = amqp_message::sendRequest(bytes);
    const Result<ServiceBusMessageFacts> facts = amqp_message::filterFacts(bytes);
    requireInvalid(send);
    requireInvalid(facts);
    require(send.ok() == facts.ok(), kTarget, "a message reads as a send but not as facts, or the other way");
    if (!send)
        return;
    const Result<Bytes> stored = amqp_message::storedSections(send->body);
    require(stored.ok() && *stored == bytes, kTarget, "the stored body does not give back the message");

    ReceivedMessage received;
    received.messageId = "00000000-0000-4000-8000-000000000001";
    received.body = send->body;
    received.approximateReceiveCount = 2;
    received.storageId = 7;
    received.enqueuedAt = fromEpochMilliseconds(1795332827432);
    received.lockedUntil = fromEpochMilliseconds(1795332887432);
    const Result<Bytes> delivered = amqp_message::deliveryBytes(received, true);
    requireInvalid(delivered);
    if (!delivered)
        return;
    const Result<SendRequest> resent = amqp_message::sendRequest(*delivered);
    const Result<ServiceBusMessageFacts> seen = amqp_message::filterFacts(*delivered);
    require(resent.ok() && seen.ok(), kTarget, "what a receiver gets does not read");
    require(resent->timeToLiveSeconds == send->timeToLiveSeconds
                && resent->scheduledEnqueueTime == send->scheduledEnqueueTime && resent->groupId == send->groupId,
            kTarget, "what a receiver gets has another TTL, scheduled time or session");
    if (send->serviceBusMessageId)
        require(resent->serviceBusMessageId == send->serviceBusMessageId, kTarget, "the MessageId changed on delivery");
    ServiceBusMessageFacts expected = *facts;
    if (!expected.system.count("MessageId"))
        expected.system["MessageId"] = received.messageId;
    require(seen->system == expected.system && seen->application == expected.application, kTarget,
            "what a receiver gets shows other facts to the rules");
}

void checkManagement(const Bytes &bytes)
{
    const Result<proton::message> decoded = amqp_message::decodeMessage(bytes);
    requireInvalid(decoded);
    if (!decoded)
        return;   // the connection rejects the delivery
    const proton::message &request = *decoded;
    (void)request.properties().get("operation");   // what the connection reads first
    const auto sends = amqp_message::scheduledSends(request);
    if (const auto *problem = std::get_if<std::string>(&sends))
        require(!problem->empty(), kTarget, "a refused schedule without a reason");
    else
        for (const SendRequest &send : std::get<std::vector<SendRequest>>(sends))
            require(send.scheduledEnqueueTime.has_value(), kTarget, "a scheduled message without its time");
    (void)amqp_message::scheduledSequenceNumbers(request);
    for (const char *key : {"lock-tokens", "from-sequence-number", "message-count", "session-id", "session-state"})
        (void)amqp_message::requestBodyEntry(request, key);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const Bytes transfer(reinterpret_cast<const char *>(data), reinterpret_cast<const char *>(data) + size);
    const Result<std::vector<Bytes>> messages = amqp_message::splitTransfer(transfer);
    requireInvalid(messages);
    if (messages) {
        require(!messages->empty(), kTarget, "a transfer split into no message");
        for (const Bytes &message : *messages)
            checkMessage(message);
    }
    checkManagement(transfer);
    return 0;
}
