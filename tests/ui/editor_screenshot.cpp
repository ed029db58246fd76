// SPDX-License-Identifier: MIT
// editor_screenshot OUTDIR [WIDTHxHEIGHT]: shows the real main window on the
// display it is given (xvfb-run, see editor_screenshot.sh), drives the policy
// editor through a few states and grabs the screen after each as
// OUTDIR/editor-<state>.png, so a person can look at them. Exits 1 when a grab
// fails or comes out blank. Uses a temporary settings path, never the user's.
#include "views/main_window.h"
#include "views/policy_editor.h"
#include "views/policy_schedule_panel.h"

#include <QApplication>
#include <QDir>
#include <QImage>
#include <QScreen>
#include <QSettings>
#include <QSet>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <cstdio>
#include <functional>

using namespace relaydesk;

namespace {

// A grab that is one flat colour (or nearly) means nothing was drawn.
bool looksDrawn(const QImage &image)
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

bool shoot(MainWindow &window, const QString &path)
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
        std::fprintf(stderr, "editor_screenshot: screen grab empty, rendering the widget instead\n");
        pixmap = window.grab();
    }
    if (pixmap.isNull() || !looksDrawn(pixmap.toImage()) || !pixmap.save(path, "PNG")) {
        std::fprintf(stderr, "editor_screenshot: cannot grab %s\n", qPrintable(path));
        return false;
    }
    std::printf("%s (%dx%d)\n", qPrintable(path), pixmap.width(), pixmap.height());
    return true;
}

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    const QStringList arguments = app.arguments();
    const QDir out(arguments.value(1, QStringLiteral(".")));
    QDir().mkpath(out.path());
    QSize size(1600, 1000);
    if (const QStringList parts = arguments.value(2).split(QLatin1Char('x')); parts.size() == 2)
        size = QSize(parts[0].toInt(), parts[1].toInt());

    QStandardPaths::setTestModeEnabled(true);
    QTemporaryDir settingsDir;
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, settingsDir.path());

    MainWindow window;
    window.resize(size);
    window.move(0, 0);
    window.show();
    if (!QTest::qWaitForWindowExposed(&window)) {
        std::fprintf(stderr, "editor_screenshot: the window was never exposed\n");
        return 1;
    }
    PolicyEditor *editor = window.policyEditor();

    const std::vector<std::pair<QString, std::function<void()>>> states = {
        {QStringLiteral("example-compared"),
         [&] {
             editor->applyPreset(QStringLiteral("sns-example"));
             editor->schedulePanel()->compareWithPreset(QStringLiteral("sns-default"));
         }},
        {QStringLiteral("invalid"),
         [&] {
             editor->schedulePanel()->clearComparison();
             editor->findChild<QSpinBox *>(QStringLiteral("minDelayTarget"))->setValue(90);
             editor->findChild<QSpinBox *>(QStringLiteral("numRetries"))->setValue(40);
         }},
        {QStringLiteral("zaqar"), [&] { editor->applyPreset(QStringLiteral("zaqar-default")); }},
        {QStringLiteral("managed"), [&] { editor->applyPreset(QStringLiteral("sns-aws-managed")); }},
        {QStringLiteral("refused"),
         [&] {
             editor->applyPreset(QStringLiteral("sns-example"));
             editor->setPolicyForm(PolicyForm::Zaqar);
         }},
    };
    bool ok = true;
    for (const auto &[name, drive] : states) {
        drive();
        ok = shoot(window, out.filePath(QStringLiteral("editor-%1.png").arg(name))) && ok;
    }
    return ok ? 0 : 1;
}
