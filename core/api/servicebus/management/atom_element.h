// SPDX-License-Identifier: MIT
#pragma once

#include "broker/result.h"

#include <QByteArray>
#include <QString>

#include <vector>

namespace relaydesk {

// One element of an ATOM request body of the Service Bus management API
// (docs/api.md "Service Bus management"), read whole: its local name, its
// XML Schema instance type (`i:type="SqlFilter"`, the prefix dropped), its
// text and its child elements in order. Namespaces are the service's and
// are not compared: names are unique within each description. Value type.
struct AtomElement {
    QString name;
    QString type;
    QString text;
    std::vector<AtomElement> children;

    // The first child named `name`; null when none.
    const AtomElement *child(QStringView name) const;
};

// The bounds of a body: at most kMaxAtomDepth nested elements and
// kMaxAtomElements in all (the body's size is the HTTP server's bound).
inline constexpr int kMaxAtomDepth = 16;
inline constexpr int kMaxAtomElements = 2000;

// The document element of `body` (QXmlStreamReader). Malformed XML, a
// DOCTYPE, text beside child elements or a body past the bounds is
// InvalidParameterValue saying where. Pure.
Result<AtomElement> readAtomElement(const QByteArray &body);

} // namespace relaydesk
