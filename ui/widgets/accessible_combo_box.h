// SPDX-License-Identifier: MIT
#pragma once

namespace relaydesk {

// Makes a combo box's accessible name what it is for, as GTK does: its
// accessible name when set (nameInputsAfterTheirLabels gives it its label's
// text), else its buddy label's text (accessibleLabelText: no '&', no
// trailing ':'), else — only then — its current text.
// Qt's own interface on Linux always answers the current text as the name
// and drops setAccessibleName ("on Linux we use relations for this"), so
// AT-SPI clients and tools that find controls by name could not find a combo
// box by its label. The current text stays the accessible value; children
// (the popup list, the text field of an editable one), state and the
// press / show-menu actions are as Qt's. Installs a QAccessible factory once
// per process, before the first combo box is asked for; idempotent. GUI thread.
void installAccessibleComboBoxes();

} // namespace relaydesk
