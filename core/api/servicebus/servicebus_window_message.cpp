// SPDX-License-Identifier: MIT
#include "api/servicebus/servicebus_window_message.h"

#include "api/servicebus/amqp_message.h"
#include "api/servicebus/amqp_message_facts.h"

#include <charconv>
#include <cctype>
#include <cmath>
#include <cstdlib>

#include <proton/annotation_key.hpp>
#include <proton/binary.hpp>
#include <proton/error.hpp>
#include <proton/message.hpp>
#include <proton/message_id.hpp>
#include <proton/scalar.hpp>
#include <proton/symbol.hpp>
#include <proton/timestamp.hpp>
#include <proton/types.hpp>
#include <proton/value.hpp>

namespace relaydesk {

namespace {

BrokerError notAmqp(const std::string &what)
{
    return BrokerError(BrokerErrorCode::InvalidParameterValue, "not an AMQP message: " + what);
}

std::string text(const proton::value &value)
{
    if (value.empty())
        return {};
    switch (value.type()) {
    case proton::STRING: return proton::get<std::string>(value);
    case proton::SYMBOL: return proton::get<proton::symbol>(value);
    case proton::BINARY: {
        const proton::binary bytes = proton::get<proton::binary>(value);
        return std::string(bytes.begin(), bytes.end());
    }
    default: return proton::to_string(value);
    }
}

// An application property typed as a person means it: true/false a
// boolean, a whole number an long, another number a double, 'quoted' or
// anything else text.
proton::scalar typedValue(const std::string &text)
{
    if (text == "true" || text == "false")
        return proton::scalar(text == "true");
    if (text.size() >= 2 && text.front() == '\'' && text.back() == '\'')
        return proton::scalar(text.substr(1, text.size() - 2));
    std::int64_t whole = 0;
    const char *end = text.data() + text.size();
    if (!text.empty()) {
        if (auto [at, error] = std::from_chars(text.data(), end, whole); error == std::errc() && at == end)
            return proton::scalar(whole);
        char *parsed = nullptr;
        const double number = std::strtod(text.c_str(), &parsed);
        if (parsed == end && std::isfinite(number) && !std::isspace(static_cast<unsigned char>(text.front())))
            return proton::scalar(number);
    }
    return proton::scalar(text);
}

std::string scalarText(const proton::scalar &value)
{
    if (value.type() == proton::STRING)
        return proton::get<std::string>(value);
    return proton::to_string(value);
}

std::string idText(const proton::message_id &id)
{
    return id.empty() ? std::string() : proton::to_string(id);
}

} // namespace

Result<ServiceBusSend> serviceBusSend(const ServiceBusMessageText &message)
{
    proton::message amqp;
    amqp.inferred(true);   // a binary body goes as a data section, as the SDKs send it
    amqp.body(proton::binary(message.body));
    if (!message.contentType.empty())
        amqp.content_type(message.contentType);
    if (!message.subject.empty())
        amqp.subject(message.subject);
    if (!message.sessionId.empty())
        amqp.group_id(message.sessionId);
    if (!message.messageId.empty())
        amqp.id(proton::message_id(message.messageId));
    if (!message.correlationId.empty())
        amqp.correlation_id(proton::message_id(message.correlationId));
    for (const auto &[name, value] : message.applicationProperties)
        amqp.properties().put(name, typedValue(value));
    if (message.scheduledEnqueueTime)
        amqp.message_annotations().put(proton::symbol("x-opt-scheduled-enqueue-time"),
                                       proton::timestamp(toEpochMilliseconds(*message.scheduledEnqueueTime)));
    amqp_message::Bytes bytes;
    try {
        amqp.encode(bytes);
    } catch (const proton::error &error) {
        return notAmqp(error.what());
    }
    Result<SendRequest> request = amqp_message::sendRequest(bytes);
    if (!request)
        return request.error();
    Result<ServiceBusMessageFacts> facts = amqp_message::filterFacts(bytes);
    if (!facts)
        return facts.error();
    return ServiceBusSend{std::move(*request), std::move(*facts)};
}

Result<ServiceBusMessageText> readServiceBusMessage(const std::string &storedBody)
{
    Result<amqp_message::Bytes> sections = amqp_message::storedSections(storedBody);
    if (!sections)
        return sections.error();
    // Proton's decoder takes what it can of any bytes; the sections must read as a message's.
    if (Result<std::vector<amqp_message::Bytes>> whole = amqp_message::splitTransfer(*sections); !whole)
        return whole.error();
    proton::message amqp;
    try {
        amqp.decode(*sections);
    } catch (const proton::error &error) {
        return notAmqp(error.what());
    }
    ServiceBusMessageText message;
    message.body = text(amqp.body());
    message.contentType = amqp.content_type();
    message.subject = amqp.subject();
    message.sessionId = amqp.group_id();
    message.messageId = idText(amqp.id());
    message.correlationId = idText(amqp.correlation_id());
    for (const auto &[name, value] : amqp.properties().value().empty()
                                         ? std::map<std::string, proton::scalar>()
                                         : proton::get<std::map<std::string, proton::scalar>>(amqp.properties().value())) {
        message.applicationProperties[name] = scalarText(value);
        message.applicationPropertyTypes[name] = proton::type_name(value.type());
    }
    return message;
}

} // namespace relaydesk
