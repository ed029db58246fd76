// SPDX-License-Identifier: MIT
#pragma once

#include "broker/clock_time.h"
#include "broker/queues/message_sender.h"
#include "broker/servicebus/servicebus_message_facts.h"

#include <map>
#include <optional>
#include <string>

namespace relaydesk {

// A Service Bus message as the window writes and reads it (docs/window.md
// "Service Bus"): the fields a person fills in the Send dialog and sees on
// the Messages page. Application properties are written as text: sent,
// "true"/"false" go as booleans, whole numbers as longs, other numbers as
// doubles, 'quoted' or any other text as strings (so SQL filters compare
// them as the SDKs' typed properties); read back, each as its text. Plain
// value type.
struct ServiceBusMessageText {
    std::string body;
    std::string contentType;
    std::string subject;      // Label
    std::string sessionId;
    std::string messageId;
    std::string correlationId;
    std::map<std::string, std::string> applicationProperties;
    // Read back only: each application property's AMQP type ("long",
    // "boolean", "string", "double", "timestamp", …), by name.
    std::map<std::string, std::string> applicationPropertyTypes;
    std::optional<ClockTime> scheduledEnqueueTime;
};

// The broker send of `message` as an SDK would send it over AMQP (body as
// one data section), with what subscription rules see of it
// (amqp_message::sendRequest, filterFacts). Pure, any thread.
struct ServiceBusSend {
    SendRequest request;
    ServiceBusMessageFacts facts;
};

} // namespace relaydesk
