// SPDX-License-Identifier: MIT
#include "widgets/error_text.h"

#include <QGuiApplication>
#include <QLabel>
#include <QPalette>

namespace relaydesk {

QColor errorTextColour(const QPalette &palette)
{
    const bool dark = palette.color(QPalette::Window).lightness() < 128;
    return dark ? QColor(0xf2, 0x8b, 0x82) : QColor(0xc5, 0x22, 0x1f);
}

void showAsError(QLabel *label, bool isError)
{
    if (!isError) {
        label->setPalette(QPalette());   // no role set here: the label inherits its parent's palette again
        return;
    }
    QPalette palette = label->parentWidget() ? label->parentWidget()->palette() : QGuiApplication::palette();
    palette.setColor(QPalette::WindowText, errorTextColour(palette));
    label->setPalette(palette);
}

} // namespace relaydesk
