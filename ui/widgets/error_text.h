// SPDX-License-Identifier: MIT
#pragma once

#include <QColor>

class QLabel;
class QPalette;

namespace relaydesk {

// The colour of an error line on `palette`'s window: #c5221f on a light
// window, #f28b82 on a dark one (lightness below 128, as the charts decide),
// so that it reads at 4.5:1 or better on both (WCAG AA). Pure.
QColor errorTextColour(const QPalette &palette);

// Shows `label`'s text in the error colour of its parent's palette, or —
// when `isError` is false — in the palette's own text colour again. The
// colour is chosen when this is called: call it again after a palette change.
// GUI thread only.
void showAsError(QLabel *label, bool isError = true);

} // namespace relaydesk
