// SPDX-License-Identifier: MIT
#include "models/servicebus_message_lines.h"

#include "connections/embedded/embedded_messages.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QObject>

namespace relaydesk::servicebus_message_lines {

namespace {

// A property's value as the Send dialog reads it; a string typed "string" quoted, so it stays one.
std::string propertyText(const QJsonValue &property)
{
    const bool typed = property.isObject();
    const QJsonValue value = typed ? property.toObject().value(QStringLiteral("value")) : property;
    if (value.isBool())
        return value.toBool() ? "true" : "false";
    if (value.isDouble())
        return QString::number(value.toDouble(), 'g', 17).toStdString();
    const QString text = value.toString();
    const bool quoted = typed && property.toObject().value(QStringLiteral("type")).toString() == QLatin1String("string");
    return (quoted ? QStringLiteral("'%1'").arg(text) : text).toStdString();
}

Result<SendRequest> fromFields(const QJsonObject &object)
{
    ServiceBusMessageText text;
    const auto field = [&object](const char *name) { return object.value(QLatin1String(name)).toString().toStdString(); };
    text.body = field("body");
    text.contentType = field("contentType");
    text.subject = field("subject");
    text.sessionId = field("sessionId");
    text.messageId = field("messageId");
    text.correlationId = field("correlationId");
    const QJsonObject properties = object.value(QStringLiteral("applicationProperties")).toObject();
    for (auto it = properties.begin(); it != properties.end(); ++it)
        text.applicationProperties[it.key().toStdString()] = propertyText(it.value());
    Result<ServiceBusSend> send = embedded::serviceBusSend(text);
    if (!send)
        return send.error();
    return send->request;
}

} // namespace

Result<SendRequest> resend(const std::string &storedBody)
{
    Result<SendRequest> request = embedded::serviceBusStoredSend(storedBody);
    if (request)
        request->scheduledEnqueueTime.reset();
    return request;
}

QByteArray line(const ServiceBusMessageRow &row)
{
    QJsonObject object = serviceBusMessageObject(row);
    object.insert(QStringLiteral("amqp"), QString::fromStdString(row.storedBody));
    return QJsonDocument(object).toJson(QJsonDocument::Compact) + '\n';
}

Import read(const QByteArray &file)
{
    Import read;
    int number = 0;
    for (const QByteArray &text : file.split('\n')) {
        ++number;
        if (text.trimmed().isEmpty())
            continue;
        const auto fail = [&](const QString &why) { read.errors << QObject::tr("line %1: %2").arg(number).arg(why); };
        const QJsonDocument document = QJsonDocument::fromJson(text);
        if (!document.isObject()) {
            fail(QObject::tr("not a JSON object"));
            continue;
        }
        const QJsonObject object = document.object();
        const bool stored = object.value(QStringLiteral("amqp")).isString();
        if (!stored && !object.value(QStringLiteral("body")).isString()) {
            fail(QObject::tr("no \"body\" (text) and no \"amqp\""));
            continue;
        }
        Result<SendRequest> request = stored ? resend(object.value(QStringLiteral("amqp")).toString().toStdString())
                                             : fromFields(object);
        if (!request)
            fail(QString::fromStdString(request.error().message));
        else
            read.requests.push_back(std::move(*request));
    }
    return read;
}

} // namespace relaydesk::servicebus_message_lines
