// SPDX-License-Identifier: MIT
// The main window frame: menus, status bar, entity dock placeholder, the policy
// editor as first page, icon, and layout remembered through QSettings.
#include "views/main_window.h"
#include "views/policy_editor.h"

#include <QAction>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QSplitter>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

using namespace relaydesk;

namespace {

QStringList actionTexts(const QList<QAction *> &actions)
{
    QStringList texts;
    for (const QAction *action : actions) {
        if (!action->isSeparator())
            texts << action->text().remove(QLatin1Char('&'));
    }
    return texts;
}

QMenu *menuNamed(QMainWindow &window, const QString &title)
{
    for (QAction *action : window.menuBar()->actions()) {
        if (action->text().remove(QLatin1Char('&')) == title)
            return action->menu();
    }
    return nullptr;
}

} // namespace

class MainWindowTest final : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_settingsDir;

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_settingsDir.isValid());
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_settingsDir.path());
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_settingsDir.path());
    }

    void init()
    {
        QSettings(QStringLiteral("Relaydesk"), QStringLiteral("Relaydesk")).clear();
    }

    void frame_hasTitleIconStatusAndPlaceholder()
    {
        MainWindow window;
        QCOMPARE(window.windowTitle(), QStringLiteral("Relaydesk"));
        QVERIFY(QFile::exists(QStringLiteral(":/icons/relaydesk.svg")));
        QVERIFY(!window.windowIcon().pixmap(QSize(32, 32)).isNull());

        auto *broker = window.findChild<QLabel *>(QStringLiteral("brokerStateLabel"));
        QVERIFY(broker);
        QCOMPARE(broker->text(), QStringLiteral("Broker: not running — policy editor only"));
        QCOMPARE(broker->parentWidget(), static_cast<QWidget *>(window.statusBar()));

        auto *placeholder = window.findChild<QLabel *>(QStringLiteral("entityPlaceholder"));
        QVERIFY(placeholder);
        QVERIFY(placeholder->text().startsWith(QStringLiteral("Topics and queues appear here")));
        QVERIFY(window.findChild<QDockWidget *>(QStringLiteral("entityDock")));

        auto *pages = window.findChild<QTabWidget *>(QStringLiteral("entityPages"));
        QVERIFY(pages);
        QCOMPARE(pages->currentWidget(), static_cast<QWidget *>(window.policyEditor()));
    }

    void menus_arePresentAndWired()
    {
        MainWindow window;
        QCOMPARE(actionTexts(window.menuBar()->actions()),
                 (QStringList{QStringLiteral("File"), QStringLiteral("Edit"), QStringLiteral("View"),
                              QStringLiteral("Help")}));
        QMenu *file = menuNamed(window, QStringLiteral("File"));
        QVERIFY(file);
        QCOMPARE(actionTexts(file->actions()),
                 (QStringList{QStringLiteral("Open Policy…"), QStringLiteral("Save Policy As…"),
                              QStringLiteral("Export Chart (PNG/SVG)…"), QStringLiteral("Quit")}));
        for (QAction *action : file->actions()) {
            if (!action->isSeparator())
                QVERIFY2(!action->shortcut().isEmpty(), qPrintable(action->text()));
        }
        const QStringList edit = actionTexts(menuNamed(window, QStringLiteral("Edit"))->actions());
        QVERIFY(edit.contains(QStringLiteral("Presets")));
        QVERIFY(edit.contains(QStringLiteral("Compare With")));
        QVERIFY(edit.contains(QStringLiteral("Clear Comparison")));
        QVERIFY(actionTexts(menuNamed(window, QStringLiteral("View"))->actions()).contains(QStringLiteral("Topics and Queues")));
        QVERIFY(actionTexts(menuNamed(window, QStringLiteral("Help"))->actions()).contains(QStringLiteral("About Relaydesk")));

        // The Edit menu's presets are the editor's: choosing one loads it.
        QMenu *presets = nullptr;
        for (QAction *action : menuNamed(window, QStringLiteral("Edit"))->actions()) {
            if (action->menu() && action->text().remove(QLatin1Char('&')) == QLatin1String("Presets"))
                presets = action->menu();
        }
        QVERIFY(presets);
        QSignalSpy evaluated(window.policyEditor(), &PolicyEditor::evaluated);
        for (QAction *action : presets->actions()) {
            if (action->data().toString() == QLatin1String("zaqar-default"))
                action->trigger();
        }
        QCOMPARE(evaluated.count(), 1);
        QVERIFY(window.policyEditor()->jsonText().contains(QStringLiteral("_retry_policy")));
    }

    void geometryAndLayout_savedAndRestored()
    {
        QList<int> splitterSizes;
        {
            MainWindow window;
            window.resize(1000, 700);
            window.findChild<QDockWidget *>(QStringLiteral("entityDock"))->hide();
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            auto *splitter = window.findChild<QSplitter *>(QStringLiteral("editorSplitter"));
            QVERIFY(splitter);
            const int total = splitter->sizes().at(0) + splitter->sizes().at(1);
            QVERIFY(total > 600);
            const QList<int> before = splitter->sizes();
            splitter->setSizes({before.at(0) - 60, before.at(1) + 60});
            splitterSizes = splitter->sizes();
            QCOMPARE(splitterSizes.at(0), before.at(0) - 60);
            QVERIFY(window.close());
        }
        const QSettings settings(QStringLiteral("Relaydesk"), QStringLiteral("Relaydesk"));
        QVERIFY(settings.contains(QStringLiteral("mainWindow/geometry")));
        QVERIFY(settings.contains(QStringLiteral("mainWindow/state")));
        QVERIFY(QFileInfo(settings.fileName()).absoluteFilePath().startsWith(m_settingsDir.path()));

        MainWindow restored;
        QCOMPARE(restored.size(), QSize(1000, 700));
        restored.show();
        QVERIFY(QTest::qWaitForWindowExposed(&restored));
        QCOMPARE(restored.size(), QSize(1000, 700));
        QVERIFY(restored.findChild<QDockWidget *>(QStringLiteral("entityDock"))->isHidden());
        QCOMPARE(restored.findChild<QSplitter *>(QStringLiteral("editorSplitter"))->sizes(), splitterSizes);
    }

    void firstStart_usesDefaultSize()
    {
        MainWindow window;
        QCOMPARE(window.size(), QSize(1280, 800));
        QVERIFY(!window.findChild<QDockWidget *>(QStringLiteral("entityDock"))->isHidden());
    }
};

QTEST_MAIN(MainWindowTest)
#include "main_window_test.moc"
