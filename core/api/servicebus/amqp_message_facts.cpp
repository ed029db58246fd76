// SPDX-License-Identifier: MIT
#include "api/servicebus/amqp_message_facts.h"

#include <proton/annotation_key.hpp>
#include <proton/codec/map.hpp>
#include <proton/error.hpp>
#include <proton/message.hpp>
#include <proton/message_id.hpp>
#include <proton/scalar.hpp>
#include <proton/symbol.hpp>
#include <proton/timestamp.hpp>
#include <proton/uuid.hpp>
#include <proton/value.hpp>

#include <exception>
#include <map>

namespace relaydesk::amqp_message {

namespace {

FilterValue valueOf(const proton::scalar &scalar)
{
    switch (scalar.type()) {
    case proton::BOOLEAN:
        return proton::get<bool>(scalar);
    case proton::UBYTE:
    case proton::USHORT:
    case proton::UINT:
    case proton::BYTE:
    case proton::SHORT:
    case proton::INT:
    case proton::LONG:
        return proton::coerce<std::int64_t>(scalar);
    case proton::ULONG:
        return static_cast<std::int64_t>(proton::get<std::uint64_t>(scalar));
    case proton::FLOAT:
    case proton::DOUBLE:
        return proton::coerce<double>(scalar);
    case proton::STRING:
        return proton::get<std::string>(scalar);
    case proton::SYMBOL:
        return std::string(proton::get<proton::symbol>(scalar));
    case proton::UUID:
        return proton::get<proton::uuid>(scalar).str();
    case proton::TIMESTAMP:
        return proton::get<proton::timestamp>(scalar).milliseconds();
    case proton::NULL_TYPE:
        return std::monostate{};
    default:
        return proton::to_string(scalar);
    }
}

FilterValue idValue(const proton::message_id &id)
{
    switch (id.type()) {
    case proton::STRING:
        return proton::get<std::string>(id);
    case proton::ULONG:
        return static_cast<std::int64_t>(proton::get<std::uint64_t>(id));
    case proton::UUID:
        return proton::get<proton::uuid>(id).str();
    default:
        return proton::to_string(id);
    }
}

} // namespace

Result<ServiceBusMessageFacts> filterFacts(const Bytes &bytes)
{
    Result<proton::message> decoded = decodeMessage(bytes);
    if (!decoded)
        return decoded.error();
    const proton::message &message = *decoded;
    ServiceBusMessageFacts facts;
    auto text = [&facts](const char *name, const std::string &value) {
        if (!value.empty())
            facts.system[name] = value;
    };
    try {   // a field of a type its section does not allow (a list as a property's value) throws
        if (!message.id().empty())
            facts.system["MessageId"] = idValue(message.id());
        if (!message.correlation_id().empty())
            facts.system["CorrelationId"] = idValue(message.correlation_id());
        text("To", message.to());
        text("ReplyTo", message.reply_to());
        text("Label", message.subject());
        text("ContentType", message.content_type());
        text("SessionId", message.group_id());
        text("ReplyToSessionId", message.reply_to_group_id());
        if (const proton::value key = message.message_annotations().get(proton::symbol("x-opt-partition-key"));
            key.type() == proton::STRING)
            facts.system["PartitionKey"] = proton::get<std::string>(key);
        std::map<std::string, proton::scalar> properties;
        if (!message.properties().empty())
            proton::get(message.properties().value(), properties);
        for (const auto &[name, value] : properties)
            facts.application[name] = valueOf(value);
    } catch (const std::exception &error) {
        return BrokerError(BrokerErrorCode::InvalidParameterValue, std::string("not an AMQP message: ") + error.what());
    }
    return facts;
}

} // namespace relaydesk::amqp_message
