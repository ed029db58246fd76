// SPDX-License-Identifier: MIT
#include "connections/embedded/embedded_messages.h"

#include "api/servicebus/amqp_message.h"
#include "api/servicebus/amqp_rule_copy.h"
#include "api/servicebus/servicebus_window_message.h"
#include "api/sqs/sqs_messages.h"
#include "api/wire/action_input.h"

namespace relaydesk::embedded {

nlohmann::json sqsMessageAttributes(const MessageAttributes &attributes)
{
    return writeMessageAttributes(attributes);
}

nlohmann::json sqsBrowsedMessage(const BrowsedMessage &message)
{
    return writeBrowsedMessage(message);
}

Result<SendRequest> sqsSendRequest(nlohmann::json request)
{
    return readSendRequest(
        ActionInput(std::move(request), BrokerErrorCode::InvalidParameterValue, BrokerErrorCode::MissingParameter));
}

Result<ServiceBusSend> serviceBusSend(const ServiceBusMessageText &message)
{
    return relaydesk::serviceBusSend(message);
}

Result<ServiceBusMessageText> readServiceBusMessage(const std::string &storedBody)
{
    return relaydesk::readServiceBusMessage(storedBody);
}

Result<SendRequest> serviceBusStoredSend(const std::string &storedBody)
{
    Result<amqp_message::Bytes> sections = amqp_message::storedSections(storedBody);
    if (!sections)
        return sections.error();
    return amqp_message::sendRequest(*sections);
}

std::string serviceBusReason(std::string_view brokerReason)
{
    return amqp_message::serviceBusReason(brokerReason);
}

ServiceBusMessageRewriter serviceBusRuleCopy()
{
    return amqp_message::withPropertyChanges;
}

} // namespace relaydesk::embedded
