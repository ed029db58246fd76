// SPDX-License-Identifier: MIT
// The main window frame without a broker: title, icon, menus and their
// shortcuts, the status bar, the policy editor under Tools, and the layout
// remembered through QSettings.
#include "views/clock_toolbar.h"
#include "views/main_window.h"
#include "policy_editor/policy_editor.h"
#include "policy_editor/policy_editor_window.h"
#include "support/test_main.h"

#include <QAccessible>
#include <QAction>
#include <QActionGroup>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QToolButton>
#include <QSignalSpy>
#include <QTest>

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

    void init() { QSettings(QStringLiteral("Relaydesk"), QStringLiteral("Relaydesk")).clear(); }

    void frame_withoutBroker_saysSo()
    {
        MainWindow window;
        QCOMPARE(window.windowTitle(), QStringLiteral("Relaydesk"));
        QVERIFY(QFile::exists(QStringLiteral(":/icons/relaydesk.svg")));
        QVERIFY(!window.windowIcon().pixmap(QSize(32, 32)).isNull());
        auto *state = window.findChild<QLabel *>(QStringLiteral("brokerStateLabel"));
        QVERIFY(state);
        QCOMPARE(state->text(), QStringLiteral("Broker: stopped"));
        QCOMPARE(window.findChild<QLabel *>(QStringLiteral("databaseLabel"))->text(), QStringLiteral("No database open"));
        QVERIFY(!window.findChild<QToolButton *>(QStringLiteral("endpointButton"))->isEnabled());
        QVERIFY(window.findChild<QDockWidget *>(QStringLiteral("entityDock")));
        QVERIFY(!window.broker());
        QVERIFY(!window.currentPage());
    }

    void menus_arePresentWithShortcuts()
    {
        MainWindow window;
        QCOMPARE(actionTexts(window.menuBar()->actions()),
                 (QStringList{QStringLiteral("File"), QStringLiteral("Edit"), QStringLiteral("Connection"),
                              QStringLiteral("View"), QStringLiteral("Broker"), QStringLiteral("Tools"),
                              QStringLiteral("Help")}));
        QMenu *file = menuNamed(window, QStringLiteral("File"));
        QVERIFY(file);
        QCOMPARE(actionTexts(file->actions()),
                 (QStringList{QStringLiteral("New Database…"), QStringLiteral("Open Database…"),
                              QStringLiteral("Open Recent"), QStringLiteral("Import Configuration…"),
                              QStringLiteral("Export Configuration…"), QStringLiteral("Open Template…"),
                              QStringLiteral("Quit")}));
        for (QAction *action : file->actions()) {
            if (!action->isSeparator() && !action->menu())
                QVERIFY2(!action->shortcut().isEmpty(), qPrintable(action->text()));
        }
        const QStringList broker = actionTexts(menuNamed(window, QStringLiteral("Broker"))->actions());
        for (const char *expected : {"New Queue…", "New Topic…", "Subscribe…", "Send Message…", "Publish…", "Purge…",
                                     "Move Dead Letters Back…", "Delete…", "Pause", "+1 s", "+1 min", "Next event"})
            QVERIFY2(broker.contains(QString::fromUtf8(expected)), expected);
        for (QAction *action : menuNamed(window, QStringLiteral("Broker"))->actions()) {
            if (!action->isSeparator() && !action->menu()) {
                QVERIFY2(!action->shortcut().isEmpty(), qPrintable(action->text()));
                QVERIFY2(!action->isEnabled(), qPrintable(action->text())); // no broker: nothing to act on
            }
        }
        QVERIFY(actionTexts(menuNamed(window, QStringLiteral("Edit"))->actions()).contains(QStringLiteral("Find…")));
        QVERIFY(actionTexts(menuNamed(window, QStringLiteral("View"))->actions()).contains(QStringLiteral("Topics and Queues")));
    }

    // Real / Warp / Virtual are one choice: an exclusive group, radio buttons
    // to assistive technology, radio items in Broker ▸ Clock Mode.
    void clockModes_areOneChoice()
    {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto *clock = window.findChild<ClockToolbar *>();
        QVERIFY(clock);
        const QList<QAction *> modes{clock->realAction(), clock->warpAction(), clock->virtualAction()};
        QVERIFY(clock->realAction()->actionGroup());
        QCOMPARE(clock->realAction()->actionGroup()->exclusionPolicy(), QActionGroup::ExclusionPolicy::Exclusive);
        for (QAction *mode : modes) {
            QCOMPARE(mode->actionGroup(), clock->realAction()->actionGroup());
            QAccessibleInterface *button = QAccessible::queryAccessibleInterface(clock->widgetForAction(mode));
            QVERIFY(button);
            QCOMPARE(button->role(), QAccessible::RadioButton);
            QCOMPARE(button->text(QAccessible::Name), mode->text());
            QVERIFY(button->state().checkable);
        }
        QAccessibleInterface *pause = QAccessible::queryAccessibleInterface(clock->widgetForAction(clock->pauseAction()));
        QVERIFY(pause->role() != QAccessible::RadioButton); // a switch of its own, not one of the choices
        auto *menu = window.findChild<QMenu *>(QStringLiteral("clockModeMenu"));
        QVERIFY(menu);
        QCOMPARE(menu->actions(), modes);
        QVERIFY(actionTexts(menuNamed(window, QStringLiteral("Broker"))->actions()).contains(QStringLiteral("Clock Mode")));
    }

    void toolsMenu_opensThePolicyEditor()
    {
        MainWindow window;
        QAction *open = window.findChild<QAction *>(QStringLiteral("policyEditorAction"));
        QVERIFY(open);
        open->trigger();
        auto *editorWindow = window.findChild<PolicyEditorWindow *>();
        QVERIFY(editorWindow);
        QVERIFY(editorWindow->isVisible());
        QSignalSpy evaluated(editorWindow->editor(), &PolicyEditor::evaluated);
        for (QAction *action : editorWindow->editor()->presetMenu()->actions()) {
            if (action->data().toString() == QLatin1String("zaqar-default"))
                action->trigger();
        }
        QCOMPARE(evaluated.count(), 1);
        QVERIFY(editorWindow->editor()->jsonText().contains(QStringLiteral("_retry_policy")));
    }

    void geometryAndDock_savedAndRestored()
    {
        {
            MainWindow window;
            window.resize(700, 560); // inside the offscreen screen: a larger one is brought inside (window_layout_test)
            window.findChild<QDockWidget *>(QStringLiteral("entityDock"))->hide();
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            QVERIFY(window.close());
        }
        const QSettings settings(QStringLiteral("Relaydesk"), QStringLiteral("Relaydesk"));
        QVERIFY(settings.contains(QStringLiteral("mainWindow/geometry")));
        QVERIFY(settings.contains(QStringLiteral("mainWindow/state")));
        QVERIFY(QFileInfo(settings.fileName()).absoluteFilePath().startsWith(m_settingsDir.path()));
        MainWindow restored;
        QCOMPARE(restored.size(), QSize(700, 560));
        restored.show();
        QVERIFY(QTest::qWaitForWindowExposed(&restored));
        QVERIFY(restored.findChild<QDockWidget *>(QStringLiteral("entityDock"))->isHidden());
    }

    void firstStart_usesDefaultSize()
    {
        MainWindow window;
        QCOMPARE(window.size(), QSize(1280, 800));
        QVERIFY(!window.findChild<QDockWidget *>(QStringLiteral("entityDock"))->isHidden());
    }
};

RELAYDESK_TEST_MAIN(MainWindowTest)
#include "main_window_test.moc"
