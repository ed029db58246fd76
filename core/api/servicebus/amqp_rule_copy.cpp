// SPDX-License-Identifier: MIT
#include "api/servicebus/amqp_rule_copy.h"

#include "api/servicebus/amqp_message.h"

#include <proton/error.hpp>
#include <proton/message.hpp>
#include <proton/message_id.hpp>
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

namespace {

// A system property's new value as text (numbers and booleans as SQL
// writes them); empty for removed or null.
std::string textOf(const std::optional<FilterValue> &value)
{
    if (!value)
        return {};
    return std::visit(
        [](const auto &held) -> std::string {
            using Held = std::decay_t<decltype(held)>;
            if constexpr (std::is_same_v<Held, std::monostate>)
                return {};
            else if constexpr (std::is_same_v<Held, std::string>)
                return held;
            else if constexpr (std::is_same_v<Held, bool>)
                return held ? "TRUE" : "FALSE";
            else
                return proton::to_string(proton::scalar(held));
        },
        *value);
}

// Sets (or clears, for empty text) one system property of the
// properties section, by its Azure name, and the send fields read from it.
void setSystemProperty(proton::message &message, SendRequest &copy, const std::string &name, const std::string &text)
{
    const std::optional<std::string> given = text.empty() ? std::nullopt : std::optional<std::string>(text);
    if (name == "MessageId") {
        message.id(given ? proton::message_id(text) : proton::message_id());
        copy.serviceBusMessageId = given;
    } else if (name == "CorrelationId") {
        message.correlation_id(given ? proton::message_id(text) : proton::message_id());
    } else if (name == "To") {
        message.to(text);
    } else if (name == "ReplyTo") {
        message.reply_to(text);
    } else if (name == "Label") {
        message.subject(text);
    } else if (name == "SessionId") {
        message.group_id(text);
        copy.groupId = given;
    } else if (name == "ReplyToSessionId") {
        message.reply_to_group_id(text);
    } else if (name == "ContentType") {
        message.content_type(text);
    }
}

} // namespace

Result<SendRequest> withPropertyChanges(const SendRequest &message, const ServiceBusPropertyChanges &changes)
{
    Result<Bytes> sections = storedSections(message.body);
    if (!sections)
        return sections.error();
    proton::message decoded;
    Bytes encoded;
    SendRequest copy = message;
    try {
        decoded.decode(*sections);
        for (const auto &[name, value] : changes.application) {
            if (value)
                decoded.properties().put(name, filterValueAmqp(*value));
            else
                decoded.properties().erase(name);
        }
        for (const auto &[name, value] : changes.system)
            setSystemProperty(decoded, copy, name, textOf(value));
        decoded.encode(encoded);
    } catch (const proton::error &error) {
        return BrokerError(BrokerErrorCode::InvalidParameterValue,
                           std::string("a stored message could not be copied for a rule action: ") + error.what());
    }
    copy.body = QByteArray(encoded.data(), static_cast<qsizetype>(encoded.size())).toBase64().toStdString();
    return copy;
}

} // namespace relaydesk::amqp_message
