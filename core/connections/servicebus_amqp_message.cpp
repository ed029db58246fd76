// SPDX-License-Identifier: MIT
#include "connections/servicebus_amqp_message.h"

#include <proton/codec.h>
#include <proton/error.h>
#include <proton/message.h>

#include <QUuid>

namespace relaydesk::servicebus_amqp {

namespace {

pn_bytes_t bytesOf(const std::string &text) { return pn_bytes(text.size(), text.data()); }

QString textOfBytes(pn_bytes_t bytes) { return QString::fromUtf8(bytes.start, static_cast<qsizetype>(bytes.size)); }

// The value at the cursor as the window shows it.
QString valueText(pn_data_t *data)
{
    switch (pn_data_type(data)) {
    case PN_STRING:
        return textOfBytes(pn_data_get_string(data));
    case PN_SYMBOL:
        return textOfBytes(pn_data_get_symbol(data));
    case PN_BINARY:
        return textOfBytes(pn_data_get_binary(data));
    case PN_BOOL:
        return pn_data_get_bool(data) ? QStringLiteral("true") : QStringLiteral("false");
    case PN_INT:
        return QString::number(pn_data_get_int(data));
    case PN_UINT:
        return QString::number(pn_data_get_uint(data));
    case PN_LONG:
        return QString::number(pn_data_get_long(data));
    case PN_ULONG:
        return QString::number(pn_data_get_ulong(data));
    case PN_DOUBLE:
        return QString::number(pn_data_get_double(data));
    case PN_TIMESTAMP:
        return QDateTime::fromMSecsSinceEpoch(pn_data_get_timestamp(data), Qt::UTC).toString(Qt::ISODateWithMs);
    case PN_UUID: {
        const pn_uuid_t uuid = pn_data_get_uuid(data);
        return QUuid::fromRfc4122(QByteArrayView(uuid.bytes, 16)).toString(QUuid::WithoutBraces);
    }
    default: {
        pn_data_t *one = pn_data(0);
        pn_data_narrow(data);
        pn_data_appendn(one, data, 1);
        pn_data_widen(data);
        std::string text(512, '\0');
        std::size_t size = text.size();
        pn_data_format(one, text.data(), &size);
        pn_data_free(one);
        return QString::fromUtf8(text.data(), static_cast<qsizetype>(size));
    }
    }
}

QString atomText(pn_atom_t atom)
{
    switch (atom.type) {
    case PN_STRING:
    case PN_SYMBOL:
    case PN_BINARY:
        return textOfBytes(atom.u.as_bytes);
    case PN_ULONG:
        return QString::number(atom.u.as_ulong);
    case PN_UUID:
        return QUuid::fromRfc4122(QByteArrayView(atom.u.as_uuid.bytes, 16)).toString(QUuid::WithoutBraces);
    default:
        return {};
    }
}

// Positions `data` (a map section) at NAME's value; false when there is none.
bool find(pn_data_t *data, const char *name)
{
    pn_data_rewind(data);
    if (!pn_data_next(data) || pn_data_type(data) != PN_MAP)
        return false;
    pn_data_enter(data);
    return pn_data_lookup(data, name);
}

void putText(const QString &text, int (*set)(pn_message_t *, const char *), pn_message_t *message)
{
    if (!text.isEmpty())
        set(message, text.toUtf8().constData());
}

} // namespace

Message newMessage() { return Message(pn_message(), pn_message_free); }

std::vector<char> encode(pn_message_t *message)
{
    std::vector<char> bytes(4096);
    for (;;) {
        std::size_t size = bytes.size();
        const int status = pn_message_encode(message, bytes.data(), &size);
        if (status == PN_OVERFLOW) {
            bytes.resize(bytes.size() * 4);
            continue;
        }
        bytes.resize(status == 0 ? size : 0);
        return bytes;
    }
}

bool decode(const std::vector<char> &bytes, pn_message_t *message)
{
    return pn_message_decode(message, bytes.data(), bytes.size()) == 0;
}

std::vector<char> outgoing(const OutgoingMessage &message, QString *messageId)
{
    Message out = newMessage();
    const std::string id = (message.messageId.isEmpty() ? QUuid::createUuid().toString(QUuid::WithoutBraces)
                                                        : message.messageId).toStdString();
    *messageId = QString::fromStdString(id);
    pn_msgid_t atom;
    atom.type = PN_STRING;
    atom.u.as_bytes = bytesOf(id);
    pn_message_set_id(out.get(), atom);
    putText(message.groupId, pn_message_set_group_id, out.get());
    putText(message.subject, pn_message_set_subject, out.get());
    putText(message.contentType, pn_message_set_content_type, out.get());
    pn_data_t *properties = pn_message_properties(out.get());
    pn_data_put_map(properties);
    pn_data_enter(properties);
    for (auto attribute = message.attributes.constBegin(); attribute != message.attributes.constEnd(); ++attribute) {
        const std::string name = attribute.key().toStdString();
        const std::string value = attribute.value().toStdString();
        pn_data_put_string(properties, bytesOf(name));
        pn_data_put_string(properties, bytesOf(value));
    }
    pn_data_exit(properties);
    const QByteArray body = message.body.toUtf8();
    pn_message_set_inferred(out.get(), true);   // a data section, as the SDKs send text
    pn_data_put_binary(pn_message_body(out.get()), pn_bytes(static_cast<std::size_t>(body.size()), body.constData()));
    return encode(out.get());
}

MessageLine lineOf(const std::vector<char> &bytes, const QString &state)
{
    MessageLine line;
    Message message = newMessage();
    if (!decode(bytes, message.get())) {
        line.body = QStringLiteral("(not an AMQP message)");
        return line;
    }
    line.messageId = atomText(pn_message_get_id(message.get()));
    pn_data_t *body = pn_message_body(message.get());
    pn_data_rewind(body);
    if (pn_data_next(body))
        line.body = valueText(body);
    pn_data_t *properties = pn_message_properties(message.get());
    pn_data_rewind(properties);
    if (pn_data_next(properties) && pn_data_type(properties) == PN_MAP) {
        pn_data_enter(properties);
        while (pn_data_next(properties)) {
            const QString name = valueText(properties);
            if (!pn_data_next(properties))
                break;
            line.attributes.insert(name, valueText(properties));
        }
    }
    if (const char *session = pn_message_get_group_id(message.get()))
        line.attributes.insert(QStringLiteral("SessionId"), QString::fromUtf8(session));
    if (const char *subject = pn_message_get_subject(message.get()))
        line.attributes.insert(QStringLiteral("Subject"), QString::fromUtf8(subject));
    if (const char *type = pn_message_get_content_type(message.get()))
        line.attributes.insert(QStringLiteral("ContentType"), QString::fromUtf8(type));
    pn_data_t *annotations = pn_message_annotations(message.get());
    if (find(annotations, "x-opt-sequence-number"))
        line.sequenceNumber = pn_data_get_long(annotations);
    if (find(annotations, "x-opt-enqueued-time"))
        line.sent = QDateTime::fromMSecsSinceEpoch(pn_data_get_timestamp(annotations), Qt::UTC);
    line.state = state;
    if (line.state.isEmpty()) {
        const int messageState = find(annotations, "x-opt-message-state") ? pn_data_get_int(annotations) : 0;
        line.state = messageState == 1   ? QStringLiteral("deferred")
                     : messageState == 2 ? QStringLiteral("scheduled")
                                         : QStringLiteral("available");
    }
    line.receiveCount = static_cast<int>(pn_message_get_delivery_count(message.get()));
    return line;
}

std::vector<char> resubmitted(const std::vector<char> &bytes)
{
    Message message = newMessage();
    if (!decode(bytes, message.get()))
        return {};
    pn_data_clear(pn_message_annotations(message.get()));
    pn_data_clear(pn_message_instructions(message.get()));
    pn_message_set_delivery_count(message.get(), 0);
    return encode(message.get());
}

void putProperty(pn_message_t *message, const char *name, const std::string &value)
{
    pn_data_t *properties = pn_message_properties(message);
    if (pn_data_size(properties) == 0) {
        pn_data_put_map(properties);
    }
    pn_data_rewind(properties);
    pn_data_next(properties);
    pn_data_enter(properties);
    while (pn_data_next(properties)) {
    }
    pn_data_put_string(properties, pn_bytes(std::char_traits<char>::length(name), name));
    pn_data_put_string(properties, bytesOf(value));
    pn_data_exit(properties);
}

std::optional<long> status(pn_message_t *answer)
{
    pn_data_t *properties = pn_message_properties(answer);
    for (const char *name : {"status-code", "statusCode"}) {
        if (!find(properties, name))
            continue;
        const QString text = valueText(properties);
        bool ok = false;
        const long code = text.toLong(&ok);
        if (ok)
            return code;
    }
    return std::nullopt;
}

std::string textProperty(pn_message_t *message, const char *name)
{
    pn_data_t *properties = pn_message_properties(message);
    return find(properties, name) ? valueText(properties).toStdString() : std::string();
}

void putPeekRequest(pn_message_t *request, qint64 fromSequenceNumber, int count)
{
    putProperty(request, "operation", "com.microsoft:peek-message");
    pn_data_t *body = pn_message_body(request);
    pn_data_put_map(body);
    pn_data_enter(body);
    pn_data_put_string(body, pn_bytes(20, "from-sequence-number"));
    pn_data_put_long(body, fromSequenceNumber);
    pn_data_put_string(body, pn_bytes(13, "message-count"));
    pn_data_put_int(body, count);
    pn_data_exit(body);
}

std::vector<std::vector<char>> peekedMessages(pn_message_t *answer)
{
    std::vector<std::vector<char>> messages;
    pn_data_t *body = pn_message_body(answer);
    if (!find(body, "messages") || pn_data_type(body) != PN_LIST)
        return messages;
    pn_data_enter(body);
    while (pn_data_next(body)) {
        if (pn_data_type(body) != PN_MAP)
            continue;
        pn_data_enter(body);
        if (pn_data_lookup(body, "message") && pn_data_type(body) == PN_BINARY) {
            const pn_bytes_t bytes = pn_data_get_binary(body);
            messages.emplace_back(bytes.start, bytes.start + bytes.size);
        }
        pn_data_exit(body);
    }
    return messages;
}

} // namespace relaydesk::servicebus_amqp
