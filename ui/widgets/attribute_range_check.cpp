// SPDX-License-Identifier: MIT
#include "widgets/attribute_range_check.h"

#include "broker/queues/redrive_policy.h"
#include "widgets/attribute_descriptions.h"

#include <QCoreApplication>

#include <limits>

namespace relaydesk {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("relaydesk::AttributeRangeCheck", text); }

bool inRange(const QString &text, qint64 minimum, qint64 maximum)
{
    bool whole = false;
    const qint64 value = text.toLongLong(&whole);
    return whole && value >= minimum && value <= maximum;
}

} // namespace

QString rangeRefusal(const AttributeDescription &row, const QString &text)
{
    switch (row.input) {
    case AttributeInput::Integer:
        if (inRange(text, row.minimum, row.maximum))
            return {};
        return tr("Must be a whole number, %1.").arg(row.rangeText());
    case AttributeInput::OptionalSeconds:
        if (text.isEmpty() || inRange(text, row.minimum, std::numeric_limits<qint64>::max()))
            return {};
        return tr("Must be a whole number of seconds, %1.").arg(row.rangeText());
    case AttributeInput::QueueRedrive:
        if (inRange(text, QueueRedrivePolicy::kMinMaxReceiveCount, QueueRedrivePolicy::kMaxMaxReceiveCount))
            return {};
        return tr("Must be a whole number, %1.").arg(row.rangeText());
    default:
        return {};
    }
}

} // namespace relaydesk
