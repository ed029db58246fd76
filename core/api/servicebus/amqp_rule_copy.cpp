// SPDX-License-Identifier: MIT
#include "api/servicebus/amqp_rule_copy.h"

#include "api/servicebus/amqp_message.h"

#include <proton/error.hpp>
#include <proton/message.hpp>
#include <proton/scalar.hpp>
#include <proton/value.hpp>

#include <QByteArray>

namespace relaydesk::amqp_message {

proton::scalar filterValueAmqp(const FilterValue &value)
{
    return std::visit(
        [](const auto &held) -> proton::scalar {
            if constexpr (std::is_same_v<std::decay_t<decltype(held)>, std::monostate>)
                return proton::scalar();
            else
                return proton::scalar(held);
        },
        value);
}

Result<SendRequest> withPropertyChanges(const SendRequest &message, const ServiceBusPropertyChanges &changes)
{
    Result<Bytes> sections = storedSections(message.body);
    if (!sections)
        return sections.error();
    proton::message decoded;
    Bytes encoded;
    try {
        decoded.decode(*sections);
        for (const auto &[name, value] : changes) {
            if (value)
                decoded.properties().put(name, filterValueAmqp(*value));
            else
                decoded.properties().erase(name);
        }
        decoded.encode(encoded);
    } catch (const proton::error &error) {
        return BrokerError(BrokerErrorCode::InvalidParameterValue,
                           std::string("a stored message could not be copied for a rule action: ") + error.what());
    }
    SendRequest copy = message;
    copy.body = QByteArray(encoded.data(), static_cast<qsizetype>(encoded.size())).toBase64().toStdString();
    return copy;
}

} // namespace relaydesk::amqp_message
