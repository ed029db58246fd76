// SPDX-License-Identifier: MIT
#pragma once
// Attribute maps written as one line of text, for the data-driven attribute
// tests (queue_attributes_test, sns_attributes_test). Test-only.

#include "broker/attribute_text.h"

#include <QLatin1Char>
#include <QString>
#include <QStringList>

namespace relaydesk::testing {

// "Name=value|Name=value" -> AttributeMap (values may contain '=', JSON).
inline AttributeMap attributes(const QString &spec)
{
    AttributeMap map;
    if (spec.isEmpty())
        return map;
    for (const QString &pair : spec.split(QLatin1Char('|'))) {
        const qsizetype eq = pair.indexOf(QLatin1Char('='));
        map[pair.left(eq).toStdString()] = pair.mid(eq + 1).toStdString();
    }
    return map;
}

// The value of `name` in `map`, or "<absent>".
inline QString get(const AttributeMap &map, const char *name)
{
    const auto it = map.find(name);
    return it == map.end() ? QStringLiteral("<absent>") : QString::fromStdString(it->second);
}

} // namespace relaydesk::testing
