// SPDX-License-Identifier: MIT
// What AT-SPI clients (screen readers, test tools) read from a combo box:
// its name is what it is for — its accessible name, else its buddy label —
// and its value is the current item; Qt's own interface on Linux answered
// the current item for both. Children, state and the show-menu action stay
// as Qt's. Then every combo box of the policy editor is swept.
#include "widgets/accessible_combo_box.h"
#include "widgets/accessible_names.h"
#include "policy_editor/policy_editor_window.h"
#include "support/test_main.h"

#include <QAbstractItemView>
#include <QAccessible>
#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QTest>

using namespace relaydesk;

namespace {

QAccessibleInterface *accessible(QWidget *widget)
{
    return QAccessible::queryAccessibleInterface(widget);
}

} // namespace

class AccessibleComboBoxTest final : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { installAccessibleComboBoxes(); }

    void name_isWhatItIsFor_valueIsTheCurrentItem_data()
    {
        QTest::addColumn<QString>("label");          // the buddy label's text, none when empty
        QTest::addColumn<QString>("explicitName");   // setAccessibleName, none when empty
        QTest::addColumn<QString>("name");
        QTest::newRow("buddy label") << "&Protocol:" << "" << "Protocol";
        QTest::newRow("accessible name") << "" << "Delivery protocol" << "Delivery protocol";
        QTest::newRow("name over label") << "Protocol:" << "Delivery protocol" << "Delivery protocol";
        QTest::newRow("neither: the current item, as before") << "" << "" << "https";
    }
    void name_isWhatItIsFor_valueIsTheCurrentItem()
    {
        QFETCH(QString, label);
        QFETCH(QString, explicitName);
        QFETCH(QString, name);
        QWidget form;
        auto *layout = new QFormLayout(&form);
        auto *combo = new QComboBox(&form);
        combo->addItems({QStringLiteral("https"), QStringLiteral("http"), QStringLiteral("sqs")});
        if (!label.isEmpty())
            layout->addRow(label, combo);
        else
            layout->addRow(combo);
        if (!explicitName.isEmpty())
            combo->setAccessibleName(explicitName);
        QAccessibleInterface *iface = accessible(combo);
        QVERIFY(iface);
        QCOMPARE(iface->role(), QAccessible::ComboBox);
        QCOMPARE(iface->text(QAccessible::Name), name);
        QCOMPARE(iface->text(QAccessible::Value), QStringLiteral("https"));
        combo->setCurrentIndex(2);
        QCOMPARE(iface->text(QAccessible::Value), QStringLiteral("sqs"));
        if (!label.isEmpty() || !explicitName.isEmpty())
            QCOMPARE(iface->text(QAccessible::Name), name);   // the name does not follow the item
    }

    void editable_valueIsTheText_andTheTextFieldIsAChild()
    {
        QWidget form;
        auto *layout = new QFormLayout(&form);
        auto *combo = new QComboBox(&form);
        combo->setEditable(true);
        combo->addItems({QStringLiteral("orders"), QStringLiteral("jobs.fifo")});
        layout->addRow(QStringLiteral("Queue:"), combo);
        nameInputsAfterTheirLabels(&form);
        combo->lineEdit()->setText(QStringLiteral("ord"));
        QAccessibleInterface *iface = accessible(combo);
        QCOMPARE(iface->text(QAccessible::Name), QStringLiteral("Queue"));
        QCOMPARE(iface->text(QAccessible::Value), QStringLiteral("ord"));
        QCOMPARE(iface->childCount(), 2);
        QCOMPARE(iface->child(0)->object(), combo->view());
        QCOMPARE(iface->child(1)->object(), combo->lineEdit());
        QCOMPARE(iface->indexOfChild(iface->child(1)), 1);
        QCOMPARE(iface->child(1)->text(QAccessible::Name), QStringLiteral("Queue"));
        QVERIFY(iface->state().editable);
    }

    void showMenuAction_opensAndClosesThePopup()
    {
        QWidget form;
        auto *layout = new QFormLayout(&form);
        auto *combo = new QComboBox(&form);
        combo->addItems({QStringLiteral("linear"), QStringLiteral("geometric")});
        layout->addRow(QStringLiteral("Backoff function:"), combo);
        form.show();
        QVERIFY(QTest::qWaitForWindowExposed(&form));
        QAccessibleInterface *iface = accessible(combo);
        QAccessibleActionInterface *actions = iface->actionInterface();
        QVERIFY(actions);
        QVERIFY(actions->actionNames().contains(QAccessibleActionInterface::showMenuAction()));
        QCOMPARE(iface->childCount(), 1);
        QVERIFY(!iface->state().expanded);
        actions->doAction(QAccessibleActionInterface::showMenuAction());
        QTRY_VERIFY(combo->view()->isVisible());
        QVERIFY(iface->state().expanded);
        actions->doAction(QAccessibleActionInterface::pressAction());
        QTRY_VERIFY(!combo->view()->isVisible());
    }

    // Every combo box of the policy editor has a name that is not its value.
    void policyEditor_everyComboIsNamedByItsPurpose()
    {
        PolicyEditorWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const QList<QComboBox *> combos = window.findChildren<QComboBox *>();
        QVERIFY(!combos.isEmpty());
        for (QComboBox *combo : combos) {
            QAccessibleInterface *iface = accessible(combo);
            const QString name = iface->text(QAccessible::Name);
            QVERIFY2(!name.isEmpty() && name != iface->text(QAccessible::Value),
                     qPrintable(combo->objectName() + QStringLiteral(": name \"") + name + QStringLiteral("\"")));
        }
    }
};

RELAYDESK_TEST_MAIN(AccessibleComboBoxTest)
#include "accessible_combo_box_test.moc"
