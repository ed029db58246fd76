// SPDX-License-Identifier: MIT
// The window keeps its shape (real broker, real database file, virtual
// clock, offscreen): a subscription's Policy tab — form, JSON, chart and
// effective policy side by side — fits the window it is given at 1280×800:
// the window keeps its size, the tree its width and its Name column;
// a saved geometry larger than the screen comes back inside it, and a
// collapsed tree comes back at a usable width.
#include "window_test_support.h"

#include "models/entity_tree_model.h"
#include "views/entity_page.h"
#include "views/entity_tree_panel.h"
#include "views/main_window.h"
#include "support/test_main.h"

#include <QDockWidget>
#include <QHeaderView>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>
#include <QTreeView>

using namespace relaydesk;
using namespace relaydesk::testing;

namespace {

constexpr int kWait = 10000; // ms; a bound, not a pace: QTRY returns as soon as it holds

int nameColumnWidth(MainWindow &window)
{
    return window.entityPanel()->treeView()->header()->sectionSize(EntityTreeModel::NameColumn);
}

QDockWidget *entityDock(MainWindow &window) { return window.findChild<QDockWidget *>(QStringLiteral("entityDock")); }

} // namespace

class WindowLayoutTest final : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QTemporaryDir m_settingsDir;

private slots:
    void initTestCase() { keepSettingsIn(m_settingsDir); }
    void init() { QSettings(QStringLiteral("Relaydesk"), QStringLiteral("Relaydesk")).clear(); }

    void subscriptionPolicyTab_keepsWindowAndTree()
    {
        MainWindow window;
        QVERIFY(window.startBroker(testBrokerOptions(m_dir.filePath(QStringLiteral("policy.db")))));
        BrokerService &service = window.broker()->service();
        QVERIFY(callAndWait<std::string>([&](auto r) { service.createQueue("orders", {}, {}, nullptr, r); }).ok());
        QVERIFY(callAndWait<std::string>([&](auto r) { service.createTopic("events", {}, {}, nullptr, r); }).ok());
        const std::string queueArn = window.broker()->identity().queueArn("orders");
        const auto receipt = callAndWait<SubscribeReceipt>(
            [&](auto r) { service.subscribe("events", "sqs", queueArn, {}, false, nullptr, r); });
        QVERIFY(receipt.ok());
        const EntityRef subscription{EntityChange::Entity::Subscription, QString::fromStdString(receipt->subscriptionArn)};
        QTRY_VERIFY_WITH_TIMEOUT(window.entityModel()->indexOf(subscription).isValid(), kWait);

        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QCoreApplication::processEvents();
        const QSize size = window.size();
        QCOMPARE(size, QSize(1280, 800));
        const int dockWidth = entityDock(window)->width();
        const int nameWidth = nameColumnWidth(window);
        QVERIFY2(nameWidth >= 100, qPrintable(QString::number(nameWidth)));

        QVERIFY(window.entityPanel()->selectEntity(subscription));
        EntityPage *page = window.currentPage();
        QVERIFY(page);
        QTabWidget *tabs = page->tabs();
        int policyTab = -1;
        for (int i = 0; i < tabs->count(); ++i)
            if (tabs->tabText(i).remove(QLatin1Char('&')) == QStringLiteral("Policy"))
                policyTab = i;
        QVERIFY(policyTab > 0);
        tabs->setCurrentIndex(policyTab);
        QVERIFY(tabs->currentWidget()->isVisible());
        QTest::qWait(0);
        QCoreApplication::processEvents();

        QCOMPARE(window.size(), size);
        QCOMPARE(entityDock(window)->width(), dockWidth);
        QCOMPARE(nameColumnWidth(window), nameWidth);
        // The page fits beside the tree: no horizontal scrolling at this size.
        auto *scroll = window.findChild<QScrollArea *>(QStringLiteral("entityPageScroll"));
        QVERIFY(scroll);
        QVERIFY2(!scroll->horizontalScrollBar()->isVisible(),
                 qPrintable(QStringLiteral("page needs %1 px, has %2")
                                .arg(scroll->widget()->minimumSizeHint().width())
                                .arg(scroll->viewport()->width())));
    }

    // A narrow window keeps room for names in the tree: the page scrolls, the dock stays usable.
    void narrowWindow_keepsTheNameColumn()
    {
        MainWindow window;
        QVERIFY(window.startBroker(testBrokerOptions(m_dir.filePath(QStringLiteral("narrow.db")))));
        window.resize(700, 600);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.resizeDocks({entityDock(window)}, {40}, Qt::Horizontal); // dragged all the way in
        QCoreApplication::processEvents();
        QCOMPARE(window.width(), 700);
        QVERIFY2(nameColumnWidth(window) >= 100, qPrintable(QString::number(nameColumnWidth(window))));
    }

    void savedGeometry_largerThanScreen_comesBackInside()
    {
        const QRect available = QGuiApplication::primaryScreen()->availableGeometry();
        {
            MainWindow window;
            window.resize(available.width() + 400, available.height() + 300);
            window.move(available.topLeft() + QPoint(200, 200));
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            QVERIFY(window.close());
        }
        MainWindow restored;
        QVERIFY2(restored.width() <= available.width() && restored.height() <= available.height(),
                 qPrintable(QStringLiteral("%1×%2").arg(restored.width()).arg(restored.height())));
        restored.show();
        QVERIFY(QTest::qWaitForWindowExposed(&restored));
        QVERIFY2(available.contains(restored.frameGeometry()),
                 qPrintable(QStringLiteral("%1,%2 %3×%4 in %5,%6 %7×%8")
                                .arg(restored.frameGeometry().x()).arg(restored.frameGeometry().y())
                                .arg(restored.frameGeometry().width()).arg(restored.frameGeometry().height())
                                .arg(available.x()).arg(available.y()).arg(available.width()).arg(available.height())));
    }
};

RELAYDESK_TEST_MAIN(WindowLayoutTest)
#include "window_layout_test.moc"
