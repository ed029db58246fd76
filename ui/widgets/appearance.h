// SPDX-License-Identifier: MIT
#pragma once

#include <QPalette>
#include <QProxyStyle>
#include <QString>

namespace relaydesk {

// The window's look: the colour theme and a focus ring a person can see.
enum class Theme { System, Light, Dark };

QString themeKey(Theme theme);                 // "system", "light", "dark" (as stored)
Theme themeFromKey(const QString &key);        // anything else: System
QString themeName(Theme theme);                // "Follow the system", "Light", "Dark"
// The palette of `theme`; System is the palette the application started with.
QPalette themePalette(Theme theme);

// Applies `theme` to the whole application at once (its palette; every
// widget and chart follows the PaletteChange), and installs FocusRingStyle
// over the current style the first time. GUI thread.
void applyTheme(Theme theme);

// The edge of an input on a dark palette: Text and Base mixed, at least 3:1
// (WCAG non-text contrast) against both Base and Window; invalid on a light
// palette (the style's own edge is kept).
QColor controlEdge(const QPalette &palette);

// The current style, with the keyboard focus drawn as a 2-pixel ring in the
// palette's Highlight colour (a tree's or table's current row, a button, a
// check box) instead of the style's faint dotted line, in both palettes; and
// on a dark palette the edges of check boxes, radio buttons and text fields
// drawn in controlEdge() (the style's own edge, its window colour darkened,
// is nearly invisible on a dark window). The one place the window's colours
// are adjusted.
class FocusRingStyle final : public QProxyStyle {
    Q_OBJECT
public:
    using QProxyStyle::QProxyStyle;
    static constexpr int kRingWidth = 2;
    void drawPrimitive(PrimitiveElement element, const QStyleOption *option, QPainter *painter,
                       const QWidget *widget = nullptr) const override;
};

} // namespace relaydesk
