// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

namespace relaydesk {

struct AttributeDescription;

// The dialog's own check of a value against the range it prints under the
// field (AttributeDescription::rangeText): Integer and OptionalSeconds rows
// take a whole number in range (OptionalSeconds also empty); a queue's
// RedrivePolicy row takes its max receive count (`text`, when a dead-letter
// queue is chosen) in range. Returns the refusal to show at the field, or
// empty when the value passes or the row has no range. The broker still
// checks everything; this lets a create dialog name every refusal at once,
// in form order, before anything is sent. Pure; any thread.
QString rangeRefusal(const AttributeDescription &row, const QString &text);

} // namespace relaydesk
