// SPDX-License-Identifier: MIT
// The window through the accessibility tree (issue 34 defect 11): the
// dashboard's 5 / 15 / 60 min rate windows are radio buttons of one exclusive
// choice; no Tab stop is an empty, unnamed label (a queue's Attributes, a
// topic's Deliveries); the toolbars' buttons are in the Tab chain. Round
// two: every stop the Tab key reaches, round the whole window, on the pages
// where AT-SPI under Xvfb (tools/window-a11y) showed "an unnamed Tab stop"
// after Receive…/Export All…/Import… and Copy ARN, has a name; so has every
// other widget a click can focus.
#include "views/entity_page.h"
#include "views/main_window.h"
#include "support/test_main.h"
#include "window_test_support.h"

#include <QAccessible>
#include <QApplication>
#include <QButtonGroup>
#include <QLabel>
#include <QTabWidget>
#include <QTest>
#include <QToolBar>
#include <QToolButton>

using namespace relaydesk;
using namespace relaydesk::testing;

namespace {

QString accessibleName(QWidget *widget)
{
    QAccessibleInterface *face = QAccessible::queryAccessibleInterface(widget);
    return face ? face->text(QAccessible::Name) : QString();
}

} // namespace

class WindowAccessibilityTest final : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;

private slots:
    void initTestCase() { keepSettingsIn(m_dir); }

    void rateWindows_areRadioButtonsOfOneChoice()
    {
        MainWindow window;
        for (int minutes : {5, 15, 60}) {
            auto *button = window.findChild<QToolButton *>(QStringLiteral("rateWindow%1").arg(minutes));
            QVERIFY(button);
            QVERIFY(button->group() && button->group()->exclusive());
            QAccessibleInterface *face = QAccessible::queryAccessibleInterface(button);
            QCOMPARE(face->role(), QAccessible::RadioButton);
            QCOMPARE(face->text(QAccessible::Name), QStringLiteral("%1 min").arg(minutes));
            QCOMPARE(face->state().checked, button->isChecked());
        }
    }

    void toolbarButtons_areInTheTabChain()
    {
        MainWindow window;
        int buttons = 0;
        for (QToolBar *bar : window.findChildren<QToolBar *>())
            for (QToolButton *button : bar->findChildren<QToolButton *>()) {
                if (button->objectName() == QLatin1String("qt_toolbar_ext_button"))
                    continue;
                ++buttons;
                QVERIFY2(button->focusPolicy() & Qt::TabFocus, qPrintable(accessibleName(button)));
            }
        QVERIFY(buttons >= 10);
    }

    void noEmptyUnnamedStop_onQueueAttributesAndTopicDeliveries_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("tab");
        QTest::newRow("queue Attributes") << int(EntityChange::Entity::Queue) << "Attributes";
        QTest::newRow("topic Deliveries") << int(EntityChange::Entity::Topic) << "Deliveries";
    }
    void noEmptyUnnamedStop_onQueueAttributesAndTopicDeliveries()
    {
        QFETCH(int, kind);
        QFETCH(QString, tab);
        MainWindow window;
        QVERIFY(window.startBroker(testBrokerOptions(m_dir.filePath(QStringLiteral("a11y%1.db").arg(kind)))));
        BrokerService &service = window.broker()->service();
        const auto kindOf = EntityChange::Entity(kind);
        if (kindOf == EntityChange::Entity::Queue)
            QVERIFY(callAndWait<std::string>([&](auto reply) { service.createQueue("orders", {}, {}, nullptr, reply); }).ok());
        else
            QVERIFY(callAndWait<std::string>([&](auto reply) { service.createTopic("orders", {}, {}, nullptr, reply); }).ok());
        window.show();
        window.openEntity(LocalEntity{kindOf, QStringLiteral("orders")});
        QTRY_VERIFY_WITH_TIMEOUT(window.currentPage(), 10000);
        QTabWidget *tabs = window.currentPage()->tabs();
        for (int i = 0; i < tabs->count(); ++i)
            if (QString(tabs->tabText(i)).remove(QLatin1Char('&')) == tab)
                tabs->setCurrentIndex(i);
        QWidget *page = tabs->currentWidget();
        QCOMPARE(QString(tabs->tabText(tabs->currentIndex())).remove(QLatin1Char('&')), tab);
        QTest::qWait(0);
        for (QWidget *widget : page->findChildren<QWidget *>()) {
            if (!(widget->focusPolicy() & Qt::TabFocus) || !widget->isVisibleTo(page) || widget->focusProxy())
                continue;
            const auto *label = qobject_cast<QLabel *>(widget);
            QVERIFY2(!label || !label->text().isEmpty(),
                     qPrintable(QStringLiteral("an empty label in the Tab chain: %1").arg(widget->objectName())));
            QVERIFY2(!accessibleName(widget).isEmpty(),
                     qPrintable(QStringLiteral("an unnamed stop: %1 %2")
                                    .arg(QLatin1String(widget->metaObject()->className()), widget->objectName())));
        }
    }

    void everyTabStopAndFocusableWidget_hasAName_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("tab");
        for (const char *tab : {"Overview", "Messages", "Attributes"})
            QTest::addRow("queue %s", tab) << int(EntityChange::Entity::Queue) << tab;
        for (const char *tab : {"Overview", "Policy", "Subscriptions", "Deliveries"})
            QTest::addRow("topic %s", tab) << int(EntityChange::Entity::Topic) << tab;
        QTest::newRow("dashboard") << -1 << QString();
    }
    void everyTabStopAndFocusableWidget_hasAName()
    {
        QFETCH(int, kind);
        QFETCH(QString, tab);
        MainWindow window;
        QVERIFY(window.startBroker(testBrokerOptions(m_dir.filePath(QStringLiteral("chain%1%2.db").arg(kind).arg(tab)))));
        BrokerService &service = window.broker()->service();
        QVERIFY(callAndWait<std::string>([&](auto reply) { service.createQueue("orders", {}, {}, nullptr, reply); }).ok());
        QVERIFY(callAndWait<std::string>([&](auto reply) { service.createTopic("hooks", {}, {}, nullptr, reply); }).ok());
        window.resize(1280, 800);
        window.show();
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QWidget *area = &window;
        if (kind >= 0) {
            const auto kindOf = EntityChange::Entity(kind);
            window.openEntity(LocalEntity{kindOf, kindOf == EntityChange::Entity::Queue ? QStringLiteral("orders")
                                                                                      : QStringLiteral("hooks")});
            QTRY_VERIFY_WITH_TIMEOUT(window.currentPage(), 10000);
            QTabWidget *tabs = window.currentPage()->tabs();
            for (int i = 0; i < tabs->count(); ++i)
                if (QString(tabs->tabText(i)).remove(QLatin1Char('&')) == tab)
                    tabs->setCurrentIndex(i);
            QCOMPARE(QString(tabs->tabText(tabs->currentIndex())).remove(QLatin1Char('&')), tab);
            area = window.currentPage();
        }
        QTest::qWait(0);
        const auto describe = [](QWidget *widget) {
            return QStringLiteral("%1 \"%2\" in %3")
                .arg(QLatin1String(widget->metaObject()->className()), widget->objectName(),
                     widget->parentWidget() ? QLatin1String(widget->parentWidget()->metaObject()->className()) : QString());
        };
        QStringList unnamed;
        // The Tab chain, as a person walks it: from the tree's filter until it comes round again.
        QWidget *first = QApplication::focusWidget();
        QVERIFY(first);
        for (int step = 0; step < 300; ++step) {
            QWidget *focus = QApplication::focusWidget();
            QVERIFY(focus);
            if (accessibleName(focus).trimmed().isEmpty() && !unnamed.contains(describe(focus)))
                unnamed << describe(focus);
            QTest::keyClick(focus, Qt::Key_Tab);
            if (QApplication::focusWidget() == first)
                break;
        }
        // Any other widget a click can focus, or that passes its focus on (AT-SPI reports it focused too).
        for (QWidget *widget : area->findChildren<QWidget *>()) {
            if (widget->focusPolicy() == Qt::NoFocus || !widget->isVisibleTo(&window))
                continue;
            if (widget->focusProxy() && widget->focusProxy()->isAncestorOf(widget))
                continue; // a spin box's text field: the spin box is what AT-SPI shows
            if (accessibleName(widget).trimmed().isEmpty() && !unnamed.contains(describe(widget)))
                unnamed << describe(widget);
        }
        QVERIFY2(unnamed.isEmpty(), qPrintable(QStringLiteral("unnamed focus stops: ") + unnamed.join(QStringLiteral("; "))));
    }
};

RELAYDESK_TEST_MAIN(WindowAccessibilityTest)
#include "window_accessibility_test.moc"
