// SPDX-License-Identifier: MIT
#pragma once
// Grabbing a real window for a person to look at (editor_screenshot,
// window_screenshot): the screen's pixels under xvfb-run, or the widget's
// own rendering when the screen grab comes out blank.

#include "host/serve_options.h"

#include <QApplication>
#include <QCoreApplication>
#include <QFont>
#include <QDir>
#include <QSettings>
#include <QSize>
#include <QStandardPaths>
#include <QStringList>
#include <QTemporaryDir>
#include <QTest>
#include <QImage>
#include <QPixmap>
#include <QScreen>
#include <QSet>
#include <QWidget>

#include <cstdio>

namespace relaydesk::testing {

// A grab that is one flat colour (or nearly) means nothing was drawn.
inline bool looksDrawn(const QImage &image)
{
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 7) {
        for (int x = 0; x < image.width(); x += 7)
            colours.insert(image.pixel(x, y));
        if (colours.size() > 16)
            return true;
    }
    return false;
}

// Saves `window` as PNG at `path`; false (and a line on stderr) when it fails.
inline bool shootWindow(QWidget &window, const QString &path)
{
    // Let posted layout requests run, then paint synchronously and flush.
    QCoreApplication::sendPostedEvents();
    QCoreApplication::processEvents();
    window.repaint();
    QCoreApplication::processEvents();
    QPixmap pixmap;
    if (QScreen *screen = window.screen())
        pixmap = screen->grabWindow(window.winId());
    if (pixmap.isNull() || !looksDrawn(pixmap.toImage())) {
        std::fprintf(stderr, "screenshot: screen grab empty, rendering the widget instead\n");
        pixmap = window.grab();
    }
    if (pixmap.isNull() || !looksDrawn(pixmap.toImage()) || !pixmap.save(path, "PNG")) {
        std::fprintf(stderr, "screenshot: cannot grab %s\n", qPrintable(path));
        return false;
    }
    std::printf("%s (%dx%d)\n", qPrintable(path), pixmap.width(), pixmap.height());
    return true;
}

// A broker for a screenshot: a database in `dir`, any free port, the virtual clock.
inline ServeOptions screenshotBrokerOptions(const QTemporaryDir &dir)
{
    ServeOptions options;
    options.databasePath = dir.filePath(QStringLiteral("relaydesk.db"));
    options.port = 0;
    options.portGiven = true;
    options.clockMode = ClockMode::Virtual;
    return options;
}

// The common set-up of a screenshot program: OUTDIR, WIDTHxHEIGHT and a font
// scale (1.5: the application font half as large again, as a person with
// larger fonts sets it) from the command line, settings in a temporary
// folder (never the user's). Made before the first widget.
struct ScreenshotRun {
    QDir out;
    QSize size{1600, 1000};
    QTemporaryDir settings;

    explicit ScreenshotRun(const QStringList &arguments)
        : out(arguments.value(1, QStringLiteral(".")))
    {
        QDir().mkpath(out.path());
        if (const QStringList parts = arguments.value(2).split(QLatin1Char('x')); parts.size() == 2)
            size = QSize(parts[0].toInt(), parts[1].toInt());
        if (const double scale = arguments.value(3).toDouble(); scale > 0) {
            QFont font = QApplication::font();
            font.setPointSizeF(font.pointSizeF() * scale);
            QApplication::setFont(font);
        }
        QStandardPaths::setTestModeEnabled(true);
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, settings.path());
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settings.path());
    }

    // Shows `window` at the top left in the chosen size; false when it never appears.
    bool show(QWidget &window) const
    {
        window.resize(size);
        window.move(0, 0);
        window.show();
        return QTest::qWaitForWindowExposed(&window);
    }
};

} // namespace relaydesk::testing
