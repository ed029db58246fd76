// SPDX-License-Identifier: MIT
// The window from the keyboard (docs/window.md "Keyboard"; issue 34 defect 7):
// the Receive dialog takes a typed count at once; the Messages tab's Tab
// order reads the buttons before the table and the message, and every stop
// has a name; Tab from an attribute's Type goes to its Value; Enter on a tree
// row or a message row opens it; Ctrl+W on the Delivery Policy Editor asks
// before unsaved edits are lost.
#include "dialogs/message_attributes_editor.h"
#include "dialogs/receive_messages_dialog.h"
#include "models/message_browse_model.h"
#include "policy_editor/policy_editor.h"
#include "policy_editor/policy_editor_window.h"
#include "views/entity_page.h"
#include "views/main_window.h"
#include "views/queue_messages_page.h"
#include "message_test_broker.h"
#include "support/test_main.h"
#include "window_test_support.h"

#include <QAccessible>
#include <QComboBox>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTest>
#include <QTreeView>

using namespace relaydesk;
using namespace relaydesk::testing;

namespace {

void showActive(QWidget &widget)
{
    widget.show();
    QApplication::setActiveWindow(&widget);
    QVERIFY(QTest::qWaitForWindowActive(&widget));
}

QString accessibleName(QWidget *widget)
{
    QAccessibleInterface *face = QAccessible::queryAccessibleInterface(widget);
    return face ? face->text(QAccessible::Name) : QString();
}

// The widgets Tab stops at, from `from` round to it again.
QList<QWidget *> tabStops(QWidget *from)
{
    QList<QWidget *> stops;
    for (QWidget *w = from->nextInFocusChain(); w && w != from; w = w->nextInFocusChain())
        if ((w->focusPolicy() & Qt::TabFocus) && w->isVisibleTo(from->window()) && w->isEnabled()
            && !w->focusProxy())
            stops << w;
    return stops;
}

} // namespace

class WindowKeyboardTest final : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    int m_files = 0;

private slots:
    void initTestCase() { keepSettingsIn(m_dir); }

    void receiveDialog_takesTheCountAsTyped()
    {
        ReceiveMessagesDialog dialog(QStringLiteral("orders"), 5, 30);
        showActive(dialog);
        auto *count = dialog.findChild<QSpinBox *>(QStringLiteral("count"));
        QVERIFY(count->hasFocus());
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_2);
        QCOMPARE(dialog.count(), 2);
    }

    void attributeTable_tabFromTypeGoesToValue()
    {
        MessageAttributesEditor editor;
        editor.addAttribute(QStringLiteral("color"), QStringLiteral("String"), QStringLiteral("red"));
        showActive(editor);
        auto *types = qobject_cast<QComboBox *>(editor.table()->cellWidget(0, 1));
        types->setFocus();
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
        QCOMPARE(editor.table()->currentColumn(), 2);
        QVERIFY(editor.table()->isAncestorOf(QApplication::focusWidget()) || editor.table()->hasFocus());
        types->setFocus();
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Backtab);
        QCOMPARE(editor.table()->currentColumn(), 0);
    }

    void messagesTab_buttonsBeforeTheMessage_everyStopNamed_enterOpensTheMessage()
    {
        MessageTestBroker broker(m_dir, ("keys" + std::to_string(++m_files) + ".db").c_str());
        QVERIFY(broker.createQueue("orders"));
        SendRequest request;
        request.body = "hello";
        QVERIFY(broker.send("orders", request).ok());
        QueueMessagesPage page(broker.service(), broker.engine(), QStringLiteral("orders"));
        page.resize(1100, 640);
        showActive(page);
        QTRY_COMPARE_WITH_TIMEOUT(page.model()->rowCount(), 1, kWaitMs);
        auto *search = page.findChild<QLineEdit *>(QStringLiteral("search"));
        const QList<QWidget *> stops = tabStops(search);
        QStringList names;
        for (QWidget *stop : stops) {
            names << accessibleName(stop);
            QVERIFY2(!names.last().isEmpty(), qPrintable(QStringLiteral("an unnamed stop: %1 %2")
                                                             .arg(QLatin1String(stop->metaObject()->className()),
                                                                  stop->objectName())));
        }
        const qsizetype table = names.indexOf(QStringLiteral("Messages"));
        QVERIFY2(table >= 0, qPrintable(names.join(QLatin1String(" | "))));
        for (const char *button : {"Receive…", "Export All…", "Import…"}) {
            const qsizetype at = names.indexOf(QString::fromUtf8(button));
            QVERIFY2(at >= 0 && at < table, qPrintable(names.join(QLatin1String(" | "))));
        }
        QVERIFY(names.indexOf(QStringLiteral("Message body")) > table);

        page.table()->setFocus();
        page.table()->setCurrentIndex(page.model()->index(0, 0));
        QTest::keyClick(page.table(), Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(QApplication::focusWidget()->objectName(), QStringLiteral("messageBody"), kWaitMs);
        QCOMPARE(qobject_cast<QPlainTextEdit *>(QApplication::focusWidget())->toPlainText(), QStringLiteral("hello"));
    }

    void treeRow_enterOpensItsPage()
    {
        MainWindow window;
        QVERIFY(window.startBroker(testBrokerOptions(m_dir.filePath(QStringLiteral("tree.db")))));
        QVERIFY(callAndWait<std::string>([&](auto reply) {
                    window.broker()->service().createQueue("orders", {}, {}, nullptr, reply);
                }).ok());
        showActive(window);
        auto *tree = window.findChild<QTreeView *>(QStringLiteral("entityTree"));
        QModelIndexList found;
        QTRY_VERIFY_WITH_TIMEOUT(!(found = tree->model()->match(tree->model()->index(0, 0), Qt::DisplayRole,
                                                                QStringLiteral("orders"), 1,
                                                                Qt::MatchRecursive | Qt::MatchExactly))
                                      .isEmpty(),
                                 kWaitMs);
        tree->setFocus();
        tree->setCurrentIndex(found.first());
        QTRY_VERIFY_WITH_TIMEOUT(window.findChild<EntityPage *>(), kWaitMs);
        QVERIFY(tree->hasFocus());
        QTest::keyClick(tree, Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(window.findChild<EntityPage *>()->tabs()->isAncestorOf(QApplication::focusWidget()),
                                 kWaitMs);
    }

    void policyEditor_ctrlW_asksBeforeUnsavedEditsAreLost()
    {
        PolicyEditorWindow window;
        showActive(window);
        auto *json = window.findChild<QPlainTextEdit *>(QStringLiteral("policyJson"));
        json->setFocus();
        json->moveCursor(QTextCursor::End);
        QTest::keyClicks(json, QStringLiteral("x")); // an edit, and one that makes it invalid
        QVERIFY(window.editor()->isModified());
        QTest::keyClick(json, Qt::Key_W, Qt::ControlModifier);
        QMessageBox *box = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((box = window.findChild<QMessageBox *>(QStringLiteral("closeEditorConfirmation"))),
                                 kWaitMs);
        QVERIFY(box->text().contains(QStringLiteral("not valid")));
        QVERIFY(window.isVisible());
        const QPointer<QMessageBox> cancelled = box;
        box->reject();
        QTRY_VERIFY_WITH_TIMEOUT(!cancelled, kWaitMs);
        QVERIFY(window.isVisible());
        window.close(); // the frame's button: the same question
        QTRY_VERIFY_WITH_TIMEOUT((box = window.findChild<QMessageBox *>(QStringLiteral("closeEditorConfirmation"))),
                                 kWaitMs);
        box->findChild<QPushButton *>(QStringLiteral("closeWithoutSaving"))->click();
        QTRY_VERIFY_WITH_TIMEOUT(!window.isVisible(), kWaitMs);
    }
};

RELAYDESK_TEST_MAIN(WindowKeyboardTest)
#include "window_keyboard_test.moc"
