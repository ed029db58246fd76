// SPDX-License-Identifier: MIT
#include "connections/aws_xml.h"

#include <QXmlStreamReader>

namespace relaydesk {

namespace {

void collect(const XmlNode &node, const QString &name, std::vector<const XmlNode *> &found)
{
    for (const XmlNode &child : node.children) {
        if (child.name == name)
            found.push_back(&child);
        else
            collect(child, name, found);
    }
}

} // namespace

const XmlNode *XmlNode::find(const QString &wanted) const
{
    for (const XmlNode &child : children) {
        if (child.name == wanted)
            return &child;
        if (const XmlNode *inner = child.find(wanted))
            return inner;
    }
    return nullptr;
}

QString XmlNode::textOf(const QString &wanted) const
{
    const XmlNode *node = find(wanted);
    return node ? node->text : QString();
}

std::vector<const XmlNode *> XmlNode::all(const QString &wanted) const
{
    std::vector<const XmlNode *> found;
    collect(*this, wanted, found);
    return found;
}

XmlNode readXml(const QByteArray &text, bool *ok)
{
    QXmlStreamReader reader(text);
    XmlNode root;
    std::vector<XmlNode *> open{&root};
    while (!reader.atEnd()) {
        switch (reader.readNext()) {
        case QXmlStreamReader::StartElement:
            open.back()->children.push_back({reader.name().toString(), {}, {}, {}});
            open.push_back(&open.back()->children.back());
            for (const QXmlStreamAttribute &attribute : reader.attributes())
                open.back()->attributes.insert(attribute.name().toString(), attribute.value().toString());
            break;
        case QXmlStreamReader::Characters:
            open.back()->text += reader.text();
            break;
        case QXmlStreamReader::EndElement:
            open.back()->text = open.back()->text.trimmed();
            open.pop_back();
            break;
        default:
            break;
        }
    }
    const bool read = !reader.hasError() && root.children.size() == 1;
    if (ok)
        *ok = read;
    return read ? std::move(root.children.front()) : XmlNode{};
}

} // namespace relaydesk
