// SPDX-License-Identifier: MIT
#include "api/servicebus/amqp_message.h"

#include "broker/queues/dead_letter_queue.h"
#include "broker/queues/message_browser.h"
#include "broker/queues/message_receiver.h"
#include "broker/queues/servicebus_queue.h"

#include <proton/codec.h>
#include <proton/annotation_key.hpp>
#include <proton/error.hpp>
#include <proton/message.hpp>
#include <proton/message_id.hpp>
#include <proton/scalar.hpp>
#include <proton/symbol.hpp>
#include <proton/timestamp.hpp>
#include <proton/types.hpp>
#include <proton/value.hpp>

#include <exception>
#include <map>

#include <QByteArray>

namespace relaydesk::amqp_message {

namespace {

constexpr std::uint64_t kDataSection = 0x75;
constexpr std::uint64_t kFirstSection = 0x70;   // header
constexpr std::uint64_t kLastSection = 0x78;    // footer

BrokerError notAmqp(std::string_view what)
{
    return BrokerError(BrokerErrorCode::InvalidParameterValue, "not an AMQP message: " + std::string(what));
}

// One section: its descriptor and its bytes; nothing when `bytes` does not
// start with a described section.
struct Section {
    std::uint64_t descriptor = 0;
    std::size_t size = 0;
    std::size_t payloadOffset = 0;   // data sections: where the binary starts
    std::size_t payloadSize = 0;
};

std::optional<Section> readSection(const char *bytes, std::size_t size)
{
    pn_data_t *data = pn_data(4);
    const ssize_t used = pn_data_decode(data, bytes, size);
    std::optional<Section> section;
    pn_data_rewind(data);
    if (used > 0 && pn_data_next(data) && pn_data_type(data) == PN_DESCRIBED) {
        pn_data_enter(data);
        pn_data_next(data);
        if (pn_data_type(data) == PN_ULONG) {
            Section found;
            found.descriptor = pn_data_get_ulong(data);
            found.size = static_cast<std::size_t>(used);
            if (found.descriptor == kDataSection && pn_data_next(data) && pn_data_type(data) == PN_BINARY) {
                const pn_bytes_t binary = pn_data_get_binary(data);
                found.payloadSize = binary.size;
                found.payloadOffset = found.size - binary.size;   // the binary ends the section
            }
            section = found;
        }
    }
    pn_data_free(data);
    return section;
}

std::optional<std::vector<Section>> readSections(const char *bytes, std::size_t size)
{
    std::vector<Section> sections;
    std::size_t at = 0;
    while (at < size) {
        const std::optional<Section> section = readSection(bytes + at, size - at);
        if (!section || section->descriptor < kFirstSection || section->descriptor > kLastSection)
            return std::nullopt;
        Section placed = *section;
        placed.payloadOffset += at;
        sections.push_back(placed);
        at += section->size;
    }
    if (sections.empty())
        return std::nullopt;
    return sections;
}

} // namespace

Result<std::vector<Bytes>> splitTransfer(const Bytes &transfer)
{
    const auto sections = readSections(transfer.data(), transfer.size());
    if (!sections)
        return notAmqp("its sections cannot be read");
    std::vector<Bytes> inner;
    for (const Section &section : *sections) {
        if (section.descriptor != kDataSection) {
            if (section.descriptor == 0x70 || section.descriptor == 0x71 || section.descriptor == 0x72
                || section.descriptor == 0x73 || section.descriptor == 0x74)
                continue;   // the batch envelope's own header, annotations and properties
            return std::vector<Bytes>{transfer};
        }
        const char *start = transfer.data() + section.payloadOffset;
        if (section.payloadSize == 0 || !readSections(start, section.payloadSize))
            return std::vector<Bytes>{transfer};
        inner.emplace_back(start, start + section.payloadSize);
    }
    if (inner.empty())
        return std::vector<Bytes>{transfer};
    return inner;
}

Result<proton::message> decodeMessage(const Bytes &bytes)
{
    proton::message message;
    try {
        message.decode(bytes);
        (void)message.properties().empty();   // decodes the section: a list there throws now, not later
        (void)message.message_annotations().empty();
        (void)message.delivery_annotations().empty();
    } catch (const std::exception &error) {
        return notAmqp(error.what());
    }
    return message;
}

Result<SendRequest> sendRequest(const Bytes &bytes)
{
    Result<proton::message> message = decodeMessage(bytes);
    if (!message)
        return message.error();
    SendRequest request;
    request.body = QByteArray(bytes.data(), static_cast<qsizetype>(bytes.size())).toBase64().toStdString();
    try {   // a field of a type the section does not allow (a message-id that is a list) throws
        const std::int64_t ttlMs = message->ttl().milliseconds();
        if (ttlMs > 0)
            request.timeToLiveSeconds = (ttlMs + 999) / 1000;
        const proton::value scheduled =
            message->message_annotations().get(proton::annotation_key(proton::symbol("x-opt-scheduled-enqueue-time")));
        if (scheduled.type() == proton::TIMESTAMP)
            request.scheduledEnqueueTime =
                fromEpochMilliseconds(proton::get<proton::timestamp>(scheduled).milliseconds());
        if (!message->group_id().empty())
            request.groupId = message->group_id();   // SessionId
        const proton::message_id id = message->id();
        if (!id.empty())
            request.serviceBusMessageId =
                id.type() == proton::STRING ? proton::get<std::string>(id) : proton::to_string(id);
    } catch (const std::exception &error) {
        return notAmqp(error.what());
    }
    return request;
}

proton::value requestBodyEntry(const proton::message &request, const std::string &key)
{
    try {
        std::map<std::string, proton::value> body;
        proton::get(request.body(), body);
        const auto found = body.find(key);
        return found == body.end() ? proton::value() : found->second;
    } catch (const std::exception &) {
        return {};
    }
}

Result<Bytes> storedSections(const std::string &body)
{
    const QByteArray raw = QByteArray::fromBase64(QByteArray::fromStdString(body));
    return Bytes(raw.begin(), raw.end());
}

std::string serviceBusReason(std::string_view brokerReason)
{
    if (brokerReason == kMaxReceiveCountExceeded)
        return std::string(kMaxDeliveryCountExceeded);
    return std::string(brokerReason);
}

namespace {

void putUint(Bytes &out, std::uint32_t value)
{
    out.push_back('\x70');
    for (int shift = 24; shift >= 0; shift -= 8)
        out.push_back(static_cast<char>((value >> shift) & 0xff));
}

// The header section with every field written: proton leaves out a field at
// its default, and the SDKs read an absent delivery-count as none at all.
Bytes headerSection(const proton::message &message, std::uint32_t deliveryCount)
{
    Bytes fields;
    fields.push_back(message.durable() ? '\x41' : '\x42');
    fields.push_back('\x50');
    fields.push_back(static_cast<char>(message.priority()));
    const std::int64_t ttl = message.ttl().milliseconds();
    if (ttl > 0)
        putUint(fields, static_cast<std::uint32_t>(std::min<std::int64_t>(ttl, 0xffffffffLL)));
    else
        fields.push_back('\x40');
    fields.push_back('\x42');   // first-acquirer false
    putUint(fields, deliveryCount);
    Bytes header{'\x00', '\x53', '\x70', '\xc0', static_cast<char>(fields.size() + 1), '\x05'};
    header.insert(header.end(), fields.begin(), fields.end());
    return header;
}

// What the broker adds to a stored message when it hands it out.
struct Delivered {
    const std::string &body;
    const std::string &messageId;
    std::uint32_t deliveryCount = 0;
    std::int64_t sequenceNumber = 0;
    ClockTime enqueuedAt{};
    std::optional<ClockTime> lockedUntil;
    const std::optional<std::string> &deadLetterReason;
    const std::optional<std::string> &deadLetterDescription;
};

Result<Bytes> deliveredBytes(const Delivered &stored);

} // namespace

Result<Bytes> deliveryBytes(const ReceivedMessage &message, bool locked)
{
    return deliveredBytes(Delivered{message.body, message.messageId,
                                    static_cast<std::uint32_t>(std::max(0, message.approximateReceiveCount - 1)),
                                    message.storageId, message.enqueuedAt,
                                    locked ? std::optional<ClockTime>(message.lockedUntil) : std::nullopt,
                                    message.deadLetterReason, message.deadLetterDescription});
}

Result<Bytes> peekedBytes(const BrowsedMessage &message)
{
    static const std::optional<std::string> kNoDescription;
    return deliveredBytes(Delivered{message.body, message.messageId,
                                    static_cast<std::uint32_t>(std::max(0, message.receiveCount)), message.storageId,
                                    message.enqueued, std::nullopt, message.deadLetterReason, kNoDescription});
}

namespace {

Result<Bytes> deliveredBytes(const Delivered &stored)
{
    Result<Bytes> sections = storedSections(stored.body);
    if (!sections)
        return sections.error();
    Result<proton::message> message = decodeMessage(*sections);
    if (!message)
        return message.error();
    const std::uint32_t deliveryCount = stored.deliveryCount;
    Bytes encoded;
    try {
        // the sections are as sent: a field of a type it may not have (a list as message-id) throws
        if (message->id().empty())
            message->id(proton::message_id(stored.messageId));   // as the service: every message has a MessageId
        auto &annotations = message->message_annotations();
        annotations.put(proton::symbol("x-opt-sequence-number"), stored.sequenceNumber);
        annotations.put(proton::symbol("x-opt-enqueued-time"),
                        proton::timestamp(toEpochMilliseconds(stored.enqueuedAt)));
        if (stored.lockedUntil)
            annotations.put(proton::symbol("x-opt-locked-until"),
                            proton::timestamp(toEpochMilliseconds(*stored.lockedUntil)));
        if (stored.deadLetterReason) {
            if (!stored.deadLetterReason->empty())
                message->properties().put("DeadLetterReason", serviceBusReason(*stored.deadLetterReason));
            if (stored.deadLetterDescription && !stored.deadLetterDescription->empty())
                message->properties().put("DeadLetterErrorDescription", *stored.deadLetterDescription);
        }
        message->encode(encoded);
    } catch (const std::exception &error) {
        return notAmqp(error.what());
    }
    const auto encodedSections = readSections(encoded.data(), encoded.size());
    if (!encodedSections)
        return notAmqp("re-encoding failed");
    Bytes out = headerSection(*message, deliveryCount);
    const Section &first = encodedSections->front();
    const std::size_t skip = first.descriptor == kFirstSection ? first.size : 0;
    out.insert(out.end(), encoded.begin() + static_cast<std::ptrdiff_t>(skip), encoded.end());
    return out;
}

} // namespace

} // namespace relaydesk::amqp_message
