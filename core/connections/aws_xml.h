// SPDX-License-Identifier: MIT
#pragma once

#include <QMap>
#include <QString>

#include <vector>

namespace relaydesk {

// An XML answer as a tree, namespaces dropped: enough to read SNS and SQS
// query answers and Service Bus's ATOM by element names.
struct XmlNode {
    QString name;
    QString text;   // the element's own text, trimmed
    QMap<QString, QString> attributes;   // by local name
    std::vector<XmlNode> children;

    // The first descendant named `name` (depth first), or null.
    const XmlNode *find(const QString &name) const;
    // Its text, or empty.
    QString textOf(const QString &name) const;
    // Every descendant named `name`, in document order (not inside one another).
    std::vector<const XmlNode *> all(const QString &name) const;
};

// The document's root element; `ok` false when the text is not XML.
XmlNode readXml(const QByteArray &text, bool *ok = nullptr);

} // namespace relaydesk
