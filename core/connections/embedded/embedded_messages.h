// SPDX-License-Identifier: MIT
#pragma once

#include "broker/queues/message_browser.h"
#include "broker/queues/message_sender.h"
#include "broker/result.h"
#include "broker/servicebus/servicebus_message_text.h"
#include "broker/servicebus/servicebus_topic.h"

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

// What the window needs of the embedded broker's protocols, and nothing more
// (docs/architecture.md §2, §10): ui/ includes no core/api header, so the SQS
// JSON shapes of a message and the Service Bus message's AMQP encoding are
// reached through here. Each function is the protocol's own (named beside
// it), so the window and the wire cannot disagree. Pure, any thread.
namespace relaydesk::embedded {

// SQS. MessageAttributes as SQS's JSON writes them: {Name: {DataType,
// StringValue | BinaryValue (base64)}} (writeMessageAttributes).
nlohmann::json sqsMessageAttributes(const MessageAttributes &attributes);
// A browsed message as the native API's browse lists it (writeBrowsedMessage).
nlohmann::json sqsBrowsedMessage(const BrowsedMessage &message);
// A SendMessage request's JSON members (MessageBody, MessageAttributes,
// MessageGroupId, …) read as SQS reads them (readSendRequest): the broker's
// MissingParameter or InvalidParameterValue in SQS's words when one is wrong.
Result<SendRequest> sqsSendRequest(nlohmann::json request);

// Service Bus. The send of a message the window wrote (serviceBusSend: the
// body as one AMQP data section, the properties typed), and a stored
// message's fields read back (readServiceBusMessage).
Result<ServiceBusSend> serviceBusSend(const ServiceBusMessageText &message);
Result<ServiceBusMessageText> readServiceBusMessage(const std::string &storedBody);
// The send of a stored message again: its AMQP sections, time to live,
// session and MessageId as sent (amqp_message::storedSections, sendRequest).
Result<SendRequest> serviceBusStoredSend(const std::string &storedBody);
// A dead-letter reason in Service Bus's words (amqp_message::serviceBusReason).
std::string serviceBusReason(std::string_view brokerReason);
// The copy a subscription rule's action makes of a published message
// (amqp_message::withPropertyChanges), for BrokerService::publishServiceBusMessages.
ServiceBusMessageRewriter serviceBusRuleCopy();

} // namespace relaydesk::embedded
