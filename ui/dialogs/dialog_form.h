// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

class QFormLayout;
class QWidget;

namespace relaydesk {

class FieldErrorLine;

// Adds the row `label` → `field` to a dialog's form, with the field's error
// line under it: the label is the field's buddy (keyboard mnemonic) and its
// text, without '&' and ':', the field's accessible name. Returns the error
// line (owned by the form's widget). GUI thread.
FieldErrorLine *addFormRow(QFormLayout *form, const QString &label, QWidget *field);

} // namespace relaydesk
