// SPDX-License-Identifier: MIT
#pragma once

#include "broker/result.h"
#include "broker/servicebus/servicebus_message_text.h"

#include <string>

namespace relaydesk {

// ServiceBusMessageText and ServiceBusSend: broker/servicebus/servicebus_message_text.h.
Result<ServiceBusSend> serviceBusSend(const ServiceBusMessageText &message);

// A stored Service Bus message's fields (its body as the broker keeps it:
// the AMQP sections, base64); a body that is no data section or text is
// shown as proton writes the value. InvalidParameterValue when the stored
// body is no AMQP message. Pure, any thread.
Result<ServiceBusMessageText> readServiceBusMessage(const std::string &storedBody);

} // namespace relaydesk
