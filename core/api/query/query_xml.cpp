// SPDX-License-Identifier: MIT
#include "api/query/query_xml.h"

#include <QXmlStreamWriter>

#include <map>

namespace relaydesk {

namespace {

using Json = nlohmann::json;

QString text(const std::string &value) { return QString::fromStdString(value); }

QString scalarText(const Json &value)
{
    if (value.is_string())
        return text(value.get<std::string>());
    if (value.is_boolean())
        return value.get<bool>() ? QStringLiteral("true") : QStringLiteral("false");
    if (value.is_null())
        return {};
    return text(value.dump());
}

// Text with every carriage return as the character reference &#xD;: an XML
// parser turns a literal CR (or CR LF) into LF, and a message body must come
// back byte for byte (as AWS writes it).
void writeText(QXmlStreamWriter &xml, const QString &text)
{
    qsizetype start = 0;
    for (qsizetype cr = text.indexOf(QLatin1Char('\r')); cr >= 0; cr = text.indexOf(QLatin1Char('\r'), start)) {
        xml.writeCharacters(text.mid(start, cr - start));
        xml.writeEntityReference(QStringLiteral("#xD"));
        start = cr + 1;
    }
    xml.writeCharacters(text.mid(start));
}

void writeTextElement(QXmlStreamWriter &xml, const QString &name, const QString &text)
{
    xml.writeStartElement(name);
    writeText(xml, text);
    xml.writeEndElement();
}

class QueryXmlWriter {
public:
    QueryXmlWriter(QByteArray &out, QueryService service, std::string action)
        : m_xml(&out), m_service(service), m_action(std::move(action)) {}

    QXmlStreamWriter &xml() { return m_xml; }

    void members(const Json &object)
    {
        for (const auto &[name, value] : object.items())
            member(name, value);
    }

private:
    // The SQS element name of one list item.
    std::string sqsItemName(const std::string &list) const
    {
        static const std::map<std::string, std::string> names = {
            {"Messages", "Message"}, {"QueueUrls", "QueueUrl"}, {"queueUrls", "QueueUrl"},
            {"Failed", "BatchResultErrorEntry"}, {"Results", "ListMessageMoveTasksResultEntry"},
        };
        if (list == "Successful")
            return m_action + "ResultEntry";
        const auto it = names.find(list);
        return it != names.end() ? it->second : list;
    }

    void value(const Json &item)
    {
        if (item.is_object())
            members(item);
        else
            writeText(m_xml, scalarText(item));
    }

    void member(const std::string &name, const Json &item)
    {
        if (m_service == QueryService::Sqs)
            sqsMember(name, item);
        else
            snsMember(name, item);
    }

    void sqsMember(const std::string &name, const Json &item)
    {
        if (item.is_array()) {
            const QString element = text(sqsItemName(name));
            for (const Json &entry : item) {
                m_xml.writeStartElement(element);
                value(entry);
                m_xml.writeEndElement();
            }
            return;
        }
        if (item.is_object() && (name == "Attributes" || name == "MessageAttributes" || name == "Tags")) {
            const bool tags = name == "Tags";
            const QString element = tags ? QStringLiteral("Tag") : name == "Attributes" ? QStringLiteral("Attribute")
                                                                                         : QStringLiteral("MessageAttribute");
            for (const auto &[key, entry] : item.items()) {
                m_xml.writeStartElement(element);
                writeTextElement(m_xml, tags ? QStringLiteral("Key") : QStringLiteral("Name"), text(key));
                m_xml.writeStartElement(QStringLiteral("Value"));
                value(entry);
                m_xml.writeEndElement();
                m_xml.writeEndElement();
            }
            return;
        }
        m_xml.writeStartElement(text(name));
        value(item);
        m_xml.writeEndElement();
    }

    void snsMember(const std::string &name, const Json &item)
    {
        m_xml.writeStartElement(text(name));
        if (item.is_array()) {
            for (const Json &entry : item) {
                m_xml.writeStartElement(QStringLiteral("member"));
                value(entry);
                m_xml.writeEndElement();
            }
        } else if (item.is_object() && (name == "Attributes" || name == "Tags")) {
            for (const auto &[key, entry] : item.items()) {
                m_xml.writeStartElement(QStringLiteral("entry"));
                writeTextElement(m_xml, QStringLiteral("key"), text(key));
                writeTextElement(m_xml, QStringLiteral("value"), scalarText(entry));
                m_xml.writeEndElement();
            }
        } else {
            value(item);
        }
        m_xml.writeEndElement();
    }

    QXmlStreamWriter m_xml;
    QueryService m_service;
    std::string m_action;
};

} // namespace

QByteArray queryXmlReply(QueryService service, const std::string &action, const nlohmann::json &result,
                         const QByteArray &requestId)
{
    QByteArray out;
    QueryXmlWriter writer(out, service, action);
    QXmlStreamWriter &xml = writer.xml();
    xml.writeStartDocument();
    xml.writeStartElement(text(action + "Response"));
    xml.writeDefaultNamespace(service == QueryService::Sqs ? QStringLiteral("http://queue.amazonaws.com/doc/2012-11-05/")
                                                           : QStringLiteral("http://sns.amazonaws.com/doc/2010-03-31/"));
    // Always there, empty too: the SDKs look for it on every action with an output.
    xml.writeStartElement(text(action + "Result"));
    if (result.is_object())
        writer.members(result);
    xml.writeEndElement();
    xml.writeStartElement(QStringLiteral("ResponseMetadata"));
    xml.writeTextElement(QStringLiteral("RequestId"), QString::fromLatin1(requestId));
    xml.writeEndElement();
    xml.writeEndElement();
    xml.writeEndDocument();
    return out;
}

} // namespace relaydesk
