// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

#include <vector>

namespace relaydesk {

// An answer of the AWS query protocol (XML) as a tree, namespaces dropped:
// enough to read SNS answers and SQS query answers by element names.
struct XmlNode {
    QString name;
    QString text;   // the element's own text, trimmed
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
