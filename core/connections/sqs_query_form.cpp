// SPDX-License-Identifier: MIT
#include "connections/sqs_query_form.h"

#include <QJsonArray>

namespace relaydesk {

namespace {

QString scalar(const QJsonValue &value)
{
    if (value.isDouble())
        return QString::number(value.toInteger());
    if (value.isBool())
        return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    return value.toString();
}

QJsonObject attributesOf(const XmlNode &node)
{
    QJsonObject attributes;
    for (const XmlNode &child : node.children)
        if (child.name == QLatin1String("Attribute"))
            attributes.insert(child.textOf(QStringLiteral("Name")), child.textOf(QStringLiteral("Value")));
    return attributes;
}

QJsonObject messageOf(const XmlNode &node)
{
    QJsonObject messageAttributes;
    for (const XmlNode &child : node.children)
        if (child.name == QLatin1String("MessageAttribute"))
            messageAttributes.insert(child.textOf(QStringLiteral("Name")),
                                     QJsonObject{{QStringLiteral("DataType"), child.textOf(QStringLiteral("DataType"))},
                                                 {QStringLiteral("StringValue"), child.textOf(QStringLiteral("StringValue"))}});
    return {{QStringLiteral("MessageId"), node.textOf(QStringLiteral("MessageId"))},
            {QStringLiteral("ReceiptHandle"), node.textOf(QStringLiteral("ReceiptHandle"))},
            {QStringLiteral("Body"), node.textOf(QStringLiteral("Body"))},
            {QStringLiteral("Attributes"), attributesOf(node)},
            {QStringLiteral("MessageAttributes"), messageAttributes}};
}

} // namespace

AwsClient::Form sqsQueryForm(const QJsonObject &input)
{
    AwsClient::Form form;
    for (auto member = input.constBegin(); member != input.constEnd(); ++member) {
        const QString key = member.key();
        const QJsonValue value = member.value();
        if (key == QLatin1String("Attributes")) {
            int n = 0;
            const QJsonObject attributes = value.toObject();
            for (auto attribute = attributes.constBegin(); attribute != attributes.constEnd(); ++attribute) {
                const QString prefix = QStringLiteral("Attribute.%1.").arg(++n);
                form.append({prefix + QStringLiteral("Name"), attribute.key()});
                form.append({prefix + QStringLiteral("Value"), scalar(attribute.value())});
            }
        } else if (key == QLatin1String("MessageAttributes")) {
            int n = 0;
            const QJsonObject attributes = value.toObject();
            for (auto attribute = attributes.constBegin(); attribute != attributes.constEnd(); ++attribute) {
                const QString prefix = QStringLiteral("MessageAttribute.%1.").arg(++n);
                const QJsonObject typed = attribute.value().toObject();
                form.append({prefix + QStringLiteral("Name"), attribute.key()});
                form.append({prefix + QStringLiteral("Value.DataType"), typed.value(QStringLiteral("DataType")).toString()});
                form.append({prefix + QStringLiteral("Value.StringValue"), typed.value(QStringLiteral("StringValue")).toString()});
            }
        } else if (value.isArray()) {
            const QString singular = key.endsWith(QLatin1Char('s')) ? key.chopped(1) : key;
            const QJsonArray list = value.toArray();
            for (qsizetype i = 0; i < list.size(); ++i)
                form.append({QStringLiteral("%1.%2").arg(singular).arg(i + 1), scalar(list[i])});
        } else {
            form.append({key, scalar(value)});
        }
    }
    return form;
}

QJsonObject sqsQueryAnswer(const QString &action, const XmlNode &answer)
{
    QJsonObject output;
    if (action == QLatin1String("ListQueues")) {
        QJsonArray urls;
        for (const XmlNode *url : answer.all(QStringLiteral("QueueUrl")))
            urls.append(url->text);
        output.insert(QStringLiteral("QueueUrls"), urls);
    } else if (const XmlNode *url = answer.find(QStringLiteral("QueueUrl"))) {
        output.insert(QStringLiteral("QueueUrl"), url->text);
    }
    if (const XmlNode *token = answer.find(QStringLiteral("NextToken")))
        output.insert(QStringLiteral("NextToken"), token->text);
    if (action == QLatin1String("SendMessage"))
        output.insert(QStringLiteral("MessageId"), answer.textOf(QStringLiteral("MessageId")));
    if (action == QLatin1String("GetQueueAttributes"))
        if (const XmlNode *result = answer.find(QStringLiteral("GetQueueAttributesResult")))
            output.insert(QStringLiteral("Attributes"), attributesOf(*result));
    if (action == QLatin1String("ReceiveMessage")) {
        QJsonArray messages;
        for (const XmlNode *message : answer.all(QStringLiteral("Message")))
            messages.append(messageOf(*message));
        output.insert(QStringLiteral("Messages"), messages);
    }
    return output;
}

} // namespace relaydesk
