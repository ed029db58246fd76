// SPDX-License-Identifier: MIT
#include "widgets/appearance.h"

#include <QApplication>
#include <QPainter>
#include <QStyleFactory>
#include <QStyleOption>

#include <memory>

namespace relaydesk {

namespace {

// The palette the application started with ("follow the system").
const QPalette &systemPalette()
{
    static const QPalette palette = QApplication::palette();
    return palette;
}

QPalette darkPalette()
{
    QPalette dark;
    const QColor window(0x2b, 0x2d, 0x30);
    const QColor base(0x1f, 0x21, 0x24);
    const QColor text(0xe8, 0xea, 0xed);
    const QColor disabled(0x80, 0x84, 0x8a);
    dark.setColor(QPalette::Window, window);
    dark.setColor(QPalette::WindowText, text);
    dark.setColor(QPalette::Base, base);
    dark.setColor(QPalette::AlternateBase, QColor(0x27, 0x29, 0x2c));
    dark.setColor(QPalette::ToolTipBase, QColor(0x3c, 0x3f, 0x43));
    dark.setColor(QPalette::ToolTipText, text);
    dark.setColor(QPalette::PlaceholderText, disabled);
    dark.setColor(QPalette::Text, text);
    dark.setColor(QPalette::Button, QColor(0x35, 0x37, 0x3b));
    dark.setColor(QPalette::ButtonText, text);
    dark.setColor(QPalette::BrightText, QColor(0xff, 0x6b, 0x6b));
    dark.setColor(QPalette::Light, QColor(0x45, 0x48, 0x4d));
    dark.setColor(QPalette::Midlight, QColor(0x3a, 0x3d, 0x41));
    dark.setColor(QPalette::Mid, QColor(0x25, 0x27, 0x2a));
    dark.setColor(QPalette::Dark, QColor(0x18, 0x19, 0x1b));
    dark.setColor(QPalette::Shadow, Qt::black);
    dark.setColor(QPalette::Highlight, QColor(0x3d, 0x8e, 0xe0));
    dark.setColor(QPalette::HighlightedText, Qt::white);
    dark.setColor(QPalette::Link, QColor(0x6c, 0xb4, 0xff));
    dark.setColor(QPalette::LinkVisited, QColor(0xb3, 0x9d, 0xff));
    for (QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        dark.setColor(QPalette::Disabled, role, disabled);
    return dark;
}

} // namespace

QString themeKey(Theme theme)
{
    switch (theme) {
    case Theme::Light: return QStringLiteral("light");
    case Theme::Dark: return QStringLiteral("dark");
    case Theme::System: break;
    }
    return QStringLiteral("system");
}

Theme themeFromKey(const QString &key)
{
    if (key == QLatin1String("light"))
        return Theme::Light;
    if (key == QLatin1String("dark"))
        return Theme::Dark;
    return Theme::System;
}

QString themeName(Theme theme)
{
    switch (theme) {
    case Theme::Light: return QApplication::translate("Appearance", "Light");
    case Theme::Dark: return QApplication::translate("Appearance", "Dark");
    case Theme::System: break;
    }
    return QApplication::translate("Appearance", "Follow the system");
}

QPalette themePalette(Theme theme)
{
    switch (theme) {
    case Theme::Light: {
        const std::unique_ptr<QStyle> fusion(QStyleFactory::create(QStringLiteral("Fusion")));
        return fusion ? fusion->standardPalette() : systemPalette();
    }
    case Theme::Dark: return darkPalette();
    case Theme::System: break;
    }
    return systemPalette();
}

void applyTheme(Theme theme)
{
    systemPalette(); // remembered before the first change
    if (!qobject_cast<FocusRingStyle *>(QApplication::style()))
        QApplication::setStyle(new FocusRingStyle(QStyleFactory::create(QApplication::style()->name())));
    QApplication::setPalette(themePalette(theme));
}

QColor controlEdge(const QPalette &palette)
{
    const QColor base = palette.color(QPalette::Base);
    if (base.lightness() >= 128)
        return {};
    const QColor text = palette.color(QPalette::Text);
    constexpr double kTextShare = 0.55;
    return QColor::fromRgbF(float(text.redF() * kTextShare + base.redF() * (1 - kTextShare)),
                            float(text.greenF() * kTextShare + base.greenF() * (1 - kTextShare)),
                            float(text.blueF() * kTextShare + base.blueF() * (1 - kTextShare)));
}

namespace {

// Over what the style drew: a 1-pixel edge in controlEdge() (dark palettes only).
void drawControlEdge(QStyle::PrimitiveElement element, const QStyleOption &option, QPainter &painter)
{
    const QColor edge = controlEdge(option.palette);
    if (!edge.isValid())
        return;
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, element == QStyle::PE_IndicatorRadioButton);
    painter.setPen(QPen(edge, 1));
    painter.setBrush(Qt::NoBrush);
    const QRectF box = QRectF(option.rect).adjusted(0.5, 0.5, -0.5, -0.5);
    if (element == QStyle::PE_IndicatorRadioButton)
        painter.drawEllipse(box.adjusted(0.5, 0.5, -0.5, -0.5));
    else
        painter.drawRect(box);
    painter.restore();
}

} // namespace

void FocusRingStyle::drawPrimitive(PrimitiveElement element, const QStyleOption *option, QPainter *painter,
                                   const QWidget *widget) const
{
    if (option && (element == PE_IndicatorCheckBox || element == PE_IndicatorRadioButton
                   || element == PE_FrameLineEdit)) {
        QProxyStyle::drawPrimitive(element, option, painter, widget);
        drawControlEdge(element, *option, *painter);
        return;
    }
    if (element != PE_FrameFocusRect || !option)
        return QProxyStyle::drawPrimitive(element, option, painter, widget);
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing, false);
    // On a selected row (drawn in Highlight) the ring takes the selected text's colour.
    QColor ring = option->palette.color(QPalette::Highlight);
    if (const auto *focus = qstyleoption_cast<const QStyleOptionFocusRect *>(option);
        focus && focus->backgroundColor.rgb() == ring.rgb())
        ring = option->palette.color(QPalette::HighlightedText);
    QPen pen(ring, kRingWidth);
    pen.setJoinStyle(Qt::MiterJoin);
    painter->setPen(pen);
    painter->setBrush(Qt::NoBrush);
    // Inside the rectangle, so a neighbouring row or widget never paints over it.
    painter->drawRect(QRectF(option->rect).adjusted(kRingWidth / 2.0, kRingWidth / 2.0, -kRingWidth / 2.0,
                                                    -kRingWidth / 2.0));
    painter->restore();
}

} // namespace relaydesk
