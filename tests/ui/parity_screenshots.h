// SPDX-License-Identifier: MIT
#pragma once
// Offscreen pictures of a window for a person to look at (docs/window.md
// "Tests and screenshots"): screenshots/NAME-WxH-THEME.png beside the test
// executable, at 1280×800 and 800×600 in the light and dark themes, and at
// 1280×800 with the font half as large again (NAME-1280x800-large.png).
// Nothing is asserted here.

#include "widgets/appearance.h"

#include <QApplication>
#include <QCoreApplication>
#include <QDir>
#include <QFont>
#include <QWidget>

namespace relaydesk::testing {

inline void shootSizesAndThemes(QWidget &window, const QString &name)
{
    const QString folder = QCoreApplication::applicationDirPath() + QStringLiteral("/screenshots");
    QDir().mkpath(folder);
    const auto shoot = [&](QSize size, const QString &suffix) {
        window.resize(size);
        for (int i = 0; i < 3; ++i)
            QCoreApplication::processEvents();
        window.grab().save(QStringLiteral("%1/%2-%3x%4-%5.png")
                               .arg(folder, name)
                               .arg(size.width())
                               .arg(size.height())
                               .arg(suffix));
    };
    for (Theme theme : {Theme::Light, Theme::Dark}) {
        applyTheme(theme);
        for (QSize size : {QSize(1280, 800), QSize(800, 600)})
            shoot(size, themeKey(theme));
    }
    applyTheme(Theme::Light);
    const QFont usual = QApplication::font();
    QFont large = usual;
    large.setPointSizeF(usual.pointSizeF() * 1.5);
    QApplication::setFont(large);
    shoot(QSize(1280, 800), QStringLiteral("large"));
    QApplication::setFont(usual);
}

} // namespace relaydesk::testing
