// SPDX-License-Identifier: MIT
#include "api/servicebus/management/atom_element.h"

#include <QXmlStreamReader>

namespace relaydesk {

namespace {

constexpr QStringView kSchemaInstance = u"http://www.w3.org/2001/XMLSchema-instance";

BrokerError malformed(const QXmlStreamReader &xml, const QString &why)
{
    return BrokerError(BrokerErrorCode::InvalidParameterValue,
                       QStringLiteral("The request body is not a valid ATOM entry (line %1, column %2): %3")
                           .arg(xml.lineNumber())
                           .arg(xml.columnNumber())
                           .arg(why)
                           .toStdString());
}

// Reads the element the reader stands on (a StartElement) to its end.
Result<AtomElement> readElement(QXmlStreamReader &xml, int depth, int &count)
{
    if (depth > kMaxAtomDepth || ++count > kMaxAtomElements)
        return malformed(xml, QStringLiteral("more than %1 nested or %2 elements").arg(kMaxAtomDepth).arg(kMaxAtomElements));
    AtomElement element;
    element.name = xml.name().toString();
    const QString type = xml.attributes().value(kSchemaInstance.toString(), QStringLiteral("type")).toString();
    element.type = type.mid(type.indexOf(QLatin1Char(':')) + 1);
    QString text;
    while (!xml.atEnd()) {
        switch (xml.readNext()) {
        case QXmlStreamReader::StartElement: {
            auto child = readElement(xml, depth + 1, count);
            if (!child)
                return child;
            element.children.push_back(std::move(*child));
            break;
        }
        case QXmlStreamReader::Characters:
            text += xml.text();
            break;
        case QXmlStreamReader::EndElement:
            if (!element.children.empty() && !text.trimmed().isEmpty())
                return malformed(xml, QStringLiteral("<%1> has both text and elements").arg(element.name));
            element.text = element.children.empty() ? text : QString();
            return element;
        case QXmlStreamReader::DTD:
            return malformed(xml, QStringLiteral("a DOCTYPE is not accepted"));
        default:
            break;
        }
    }
    return malformed(xml, xml.hasError() ? xml.errorString() : QStringLiteral("the document ends early"));
}

} // namespace

const AtomElement *AtomElement::child(QStringView wanted) const
{
    for (const AtomElement &each : children)
        if (each.name == wanted)
            return &each;
    return nullptr;
}

Result<AtomElement> readAtomElement(const QByteArray &body)
{
    QXmlStreamReader xml(body);
    int count = 0;
    while (!xml.atEnd()) {
        const QXmlStreamReader::TokenType token = xml.readNext();
        if (token == QXmlStreamReader::DTD)
            return malformed(xml, QStringLiteral("a DOCTYPE is not accepted"));
        if (token != QXmlStreamReader::StartElement)
            continue;
        auto root = readElement(xml, 1, count);
        if (!root)
            return root;
        while (!xml.atEnd())
            if (xml.readNext() == QXmlStreamReader::StartElement)
                return malformed(xml, QStringLiteral("more than one document element"));
        if (xml.hasError())
            return malformed(xml, xml.errorString());
        return root;
    }
    return malformed(xml, xml.hasError() ? xml.errorString() : QStringLiteral("there is no element"));
}

} // namespace relaydesk
