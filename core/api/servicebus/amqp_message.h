// SPDX-License-Identifier: MIT
#pragma once

#include "broker/queues/message_sender.h"
#include "broker/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace proton {
class message;
class value;
}

namespace relaydesk {

struct BrowsedMessage;
struct ReceivedMessage;

// How Service Bus messages travel between AMQP and the broker's message
// store (docs/behaviour.md §8.6). A message is stored as the AMQP sections its sender
// sent (base64 in the message body), so what a receiver gets back is what
// was sent; the broker adds the header's delivery count and the
// x-opt-* annotations when it delivers. Pure functions, any thread.
namespace amqp_message {

using Bytes = std::vector<char>;

// `bytes` decoded as one AMQP message whose map sections (application
// properties, message and delivery annotations) are maps Proton can read, so
// reading them later cannot throw. InvalidParameterValue otherwise. Callers
// include <proton/message.hpp>.
Result<proton::message> decodeMessage(const Bytes &bytes);

// The messages of one transfer: a Service Bus batch (the SDKs' message
// format 0x80013700, a body of data sections that each hold one encoded
// message) gives each of its messages; any other message is itself. Proton
// does not hand the message format of a transfer to a receiver, so a batch
// is known by its body: data sections only, each of them a whole AMQP
// message. InvalidParameterValue when the bytes are no AMQP message.
Result<std::vector<Bytes>> splitTransfer(const Bytes &transfer);

// The broker send of one message: the sections as the stored body, its
// header TTL (milliseconds, rounded up to seconds), its
// x-opt-scheduled-enqueue-time, its group-id (the SessionId, as groupId)
// and its message-id (for duplicate detection). InvalidParameterValue for bytes that are no
// AMQP message.
Result<SendRequest> sendRequest(const Bytes &message);

// What a receiver gets for a stored message: the sections as sent with
// delivery-count (deliveries before this one), x-opt-sequence-number,
// x-opt-enqueued-time, x-opt-locked-until (when `locked`) and, for a dead
// letter, DeadLetterReason and DeadLetterErrorDescription among the
// application properties (docs/behaviour.md §8.6).
Result<Bytes> deliveryBytes(const ReceivedMessage &message, bool locked);
// A peeked message: the same without a lock (docs/behaviour.md §8.6 peek).
Result<Bytes> peekedBytes(const BrowsedMessage &message);
// The same message as proton reads it (for management replies that embed it).
Result<Bytes> storedSections(const std::string &body);

// The value under `key` of a management request's map body (keys are
// strings); an empty value when there is none or the body is no map.
proton::value requestBodyEntry(const proton::message &request, const std::string &key);

// The $management request bodies read before the broker is asked
// (amqp_management_bodies.cpp):
// com.microsoft:schedule-message, {"messages": [{"message": binary, …}, …]}:
// the send of each message, every one with its x-opt-scheduled-enqueue-time;
// else what is wrong with the body.
std::variant<std::vector<SendRequest>, std::string> scheduledSends(const proton::message &request);
// com.microsoft:cancel-scheduled-message, {"sequence-numbers": long[]};
// nothing when the body has no such list.
std::optional<std::vector<std::int64_t>> scheduledSequenceNumbers(const proton::message &request);

// The dead-letter reason the service names for the broker's own reasons.
std::string serviceBusReason(std::string_view brokerReason);

} // namespace amqp_message

} // namespace relaydesk
