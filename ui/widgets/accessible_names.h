// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

class QComboBox;
class QWidget;

namespace relaydesk {

// A label's text as an accessible name: without mnemonic '&' and a trailing ':'.
QString accessibleLabelText(QString text);

// Gives every input below `root` that a QLabel names (QLabel::setBuddy) and
// that has no accessible name of its own the label's text, so screen readers
// and AT-SPI tools find combo boxes, lists and spin boxes by their visible
// label as well (Qt derives it for line edits only). GUI thread only.
// Editable combo boxes below `root` get their text field named as well.
void nameInputsAfterTheirLabels(QWidget *root);

// The text field of an editable combo box, which AT-SPI shows as an input of
// its own, gets the combo's accessible name (set that first). GUI thread.
void nameEditableComboText(QComboBox *combo);

} // namespace relaydesk
