// SPDX-License-Identifier: MIT
// editor_screenshot OUTDIR [WIDTHxHEIGHT]: shows the real policy editor window on the
// display it is given (xvfb-run, see editor_screenshot.sh), drives the policy
// editor through a few states and grabs the screen after each as
// OUTDIR/editor-<state>.png, so a person can look at them. Exits 1 when a grab
// fails or comes out blank. Uses a temporary settings path, never the user's.
#include "widgets/english_plurals.h"
#include "screenshot_support.h"
#include "policy_editor/policy_editor_window.h"
#include "policy_editor/policy_editor.h"
#include "policy_editor/policy_schedule_panel.h"

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
using namespace relaydesk::testing;

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    relaydesk::installEnglishPlurals(); // as the window's main does: "1 error", not "1 error(s)"
    const ScreenshotRun run(app.arguments());
    PolicyEditorWindow window;
    if (!run.show(window)) {
        std::fprintf(stderr, "editor_screenshot: the window was never exposed\n");
        return 1;
    }
    PolicyEditor *editor = window.editor();

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
        ok = shootWindow(window, run.out.filePath(QStringLiteral("editor-%1.png").arg(name))) && ok;
    }
    return ok ? 0 : 1;
}
