// SPDX-License-Identifier: MIT
// The window keeps its shape (real broker, real database file, virtual
// clock, offscreen): a subscription's Policy tab — form, JSON, chart and
// effective policy side by side — fits the window it is given at 1280×800,
// as do the queue, subscription and Service Bus pages at 1× and 1.5× fonts:
// the window keeps its size, the tree its width and its Name column;
// a saved geometry larger than the screen comes back inside it, and a
// collapsed tree comes back at a usable width.
#include "window_test_support.h"

#include "charts/depth_chart.h"
#include "models/entity_tree_model.h"
#include "models/message_browse_model.h"
#include "views/entity_page.h"
#include "views/entity_tree_panel.h"
#include "views/main_window.h"
#include "views/message_viewer.h"
#include "views/queue_messages_page.h"
#include "support/test_main.h"

#include <QApplication>
#include <QChart>
#include <QDockWidget>
#include <QPushButton>
#include <QScopeGuard>
#include <QTableView>
#include <QTreeWidget>
#include <QValueAxis>
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

// The application font `scale` times its size until the returned guard goes.
auto applicationFontScaled(double scale)
{
    const QFont before = QApplication::font();
    QFont larger = before;
    larger.setPointSizeF(before.pointSizeF() * scale);
    QApplication::setFont(larger);
    return qScopeGuard([before] { QApplication::setFont(before); });
}

// No horizontal scrolling of the window's page (a line on stderr says why when there is).
bool pageFitsSideways(MainWindow &window)
{
    auto *scroll = window.findChild<QScrollArea *>(QStringLiteral("entityPageScroll"));
    if (scroll && !scroll->horizontalScrollBar()->isVisible())
        return true;
    if (scroll)
        qWarning("page needs %d px, has %d", scroll->widget()->minimumSizeHint().width(), scroll->viewport()->width());
    return false;
}

QDockWidget *entityDock(MainWindow &window) { return window.findChild<QDockWidget *>(QStringLiteral("entityDock")); }

} // namespace

class WindowLayoutTest final : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QTemporaryDir m_settingsDir;
    int m_database = 0;

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
        QVERIFY(pageFitsSideways(window));
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

    // At 1280×800, with the usual font and half as large again, every page
    // fits beside the tree without scrolling sideways, Apply stays in sight,
    // the tree keeps its names, the Messages table gives the body room.
    void pages_fitAtLargeFonts_data()
    {
        QTest::addColumn<double>("scale");
        QTest::addColumn<QString>("entity");
        QTest::addColumn<QString>("tab");
        for (double scale : {1.0, 1.5}) {
            const QString size = scale == 1.0 ? QStringLiteral("font 1×") : QStringLiteral("font 1.5×");
            for (const char *tab : {"Overview", "Attributes", "Messages"})
                QTest::addRow("%s, orders %s", qPrintable(size), tab) << scale << QStringLiteral("orders") << QString::fromLatin1(tab);
            QTest::addRow("%s, jobs.fifo Messages", qPrintable(size)) << scale << QStringLiteral("jobs.fifo") << QStringLiteral("Messages");
            for (const char *tab : {"Attributes", "Policy"})
                QTest::addRow("%s, subscription %s", qPrintable(size), tab) << scale << QStringLiteral("subscription") << QString::fromLatin1(tab);
            for (const char *tab : {"Properties", "Messages"})
                QTest::addRow("%s, Service Bus billing %s", qPrintable(size), tab) << scale << QStringLiteral("billing")
                                                                                 << QString::fromLatin1(tab);
            QTest::addRow("%s, dashboard", qPrintable(size)) << scale << QString() << QString();
        }
    }

    void pages_fitAtLargeFonts()
    {
        QFETCH(double, scale);
        QFETCH(QString, entity);
        QFETCH(QString, tab);
        const auto restore = applicationFontScaled(scale);

        MainWindow window;
        QVERIFY(window.startBroker(testBrokerOptions(m_dir.filePath(QStringLiteral("fonts%1.db").arg(++m_database)))));
        BrokerService &service = window.broker()->service();
        QVERIFY(callAndWait<std::string>([&](auto r) { service.createQueue("orders", {}, {}, nullptr, r); }).ok());
        QVERIFY(callAndWait<std::string>([&](auto r) {
                    service.createQueue("jobs.fifo", {{"FifoQueue", "true"}, {"ContentBasedDeduplication", "true"}}, {},
                                        nullptr, r);
                }).ok());
        QVERIFY(callAndWait<std::string>([&](auto r) { service.createTopic("events", {}, {}, nullptr, r); }).ok());
        ServiceBusQueueProperties billing;
        billing.name = "billing";
        QVERIFY(callAndWait<bool>([&](auto r) { service.createServiceBusQueue(billing, nullptr, r); }).ok());
        const auto receipt = callAndWait<SubscribeReceipt>([&](auto r) {
            service.subscribe("events", "sqs", window.broker()->identity().queueArn("orders"), {}, false, nullptr, r);
        });
        QVERIFY(receipt.ok());
        SendRequest send;
        send.body = "{\"order\": 1000, \"item\": \"book\"}";
        QVERIFY(callAndWait<SendReceipt>([&](auto r) { service.sendMessage("orders", send, nullptr, r); }).ok());
        const EntityRef subscription{EntityChange::Entity::Subscription, QString::fromStdString(receipt->subscriptionArn)};
        QTRY_VERIFY_WITH_TIMEOUT(window.entityModel()->indexOf(subscription).isValid(), kWait);

        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        if (!entity.isEmpty()) {
            const EntityRef ref = entity == QLatin1String("subscription")
                                      ? subscription
                                      : EntityRef{EntityChange::Entity::Queue, entity};
            QVERIFY(window.entityPanel()->selectEntity(ref));
            QTabWidget *tabs = window.currentPage()->tabs();
            for (int i = 0; i < tabs->count(); ++i)
                if (tabs->tabText(i).remove(QLatin1Char('&')) == tab)
                    tabs->setCurrentIndex(i);
            QCOMPARE(tabs->tabText(tabs->currentIndex()).remove(QLatin1Char('&')), tab);
        }
        QTest::qWait(0);
        QCoreApplication::processEvents();
        QCOMPARE(window.size(), QSize(1280, 800));

        QVERIFY(pageFitsSideways(window));
        auto *scroll = window.findChild<QScrollArea *>(QStringLiteral("entityPageScroll"));
        // Apply (where there is one) is in sight without scrolling the window's page.
        const QRect visible(scroll->viewport()->mapTo(&window, QPoint(0, 0)), scroll->viewport()->size());
        for (QPushButton *button : window.findChildren<QPushButton *>(QStringLiteral("applyButton"))) {
            if (!button->isVisible())
                continue;
            const auto at = [&] { return QRect(button->mapTo(&window, QPoint(0, 0)), button->size()); };
            QTRY_VERIFY2_WITH_TIMEOUT(visible.contains(at()), qPrintable(QStringLiteral("Apply at %1,%2 outside %3,%4 %5×%6")
                                                          .arg(at().x()).arg(at().y()).arg(visible.x()).arg(visible.y())
                                                          .arg(visible.width()).arg(visible.height())), kWait);
        }
        // The tree's names: "sqs → orders" whole beside its indentation.
        QTreeView *tree = window.entityPanel()->treeView();
        const int wanted = tree->fontMetrics().horizontalAdvance(QStringLiteral("sqs → orders")) + 2 * tree->indentation()
                         + tree->iconSize().width();
        QVERIFY2(nameColumnWidth(window) >= wanted,
                 qPrintable(QStringLiteral("%1 < %2").arg(nameColumnWidth(window)).arg(wanted)));

        if (tab == QLatin1String("Messages") && entity != QLatin1String("billing")) {
            auto *page = window.currentPage()->findChild<QueueMessagesPage *>();
            QVERIFY(page);
            QHeaderView *header = page->table()->horizontalHeader();
            // Group only where there are groups; the body keeps a third of the table.
            QCOMPARE(header->isSectionHidden(MessageBrowseModel::GroupColumn), !entity.endsWith(QLatin1String(".fifo")));
            QVERIFY2(header->sectionSize(MessageBrowseModel::BodyColumn) >= page->table()->viewport()->width() / 3 - 1,
                     qPrintable(QStringLiteral("body %1 of %2").arg(header->sectionSize(MessageBrowseModel::BodyColumn))
                                    .arg(page->table()->viewport()->width())));
            if (entity == QLatin1String("orders")) {
                QTRY_VERIFY_WITH_TIMEOUT(page->model()->rowCount() == 1, kWait);
                page->table()->selectRow(0);
                QCoreApplication::processEvents();
                QTreeWidget *attributes = page->findChild<MessageViewer *>()->attributeTree();
                // Value gets at least a third of the pane.
                QVERIFY2(attributes->columnWidth(2) >= attributes->viewport()->width() / 3 - 1,
                         qPrintable(QStringLiteral("value %1 of %2").arg(attributes->columnWidth(2))
                                        .arg(attributes->viewport()->width())));
            }
        }
    }

    // Eight queues' names are readable: long ones shortened in the middle,
    // the chart tall enough for a label per queue at the font, the whole name on a bar.
    void depthChart_labelsReadable_data()
    {
        QTest::addColumn<double>("scale");
        QTest::newRow("font 1×") << 1.0;
        QTest::newRow("font 1.5×") << 1.5;
    }

    void depthChart_labelsReadable()
    {
        QFETCH(double, scale);
        const auto restore = applicationFontScaled(scale);
        MetricsSnapshot snapshot;
        for (int i = 0; i < DepthChart::kMaxQueues; ++i) {
            QueueMetrics queue;
            queue.name = "load-test-queue-with-a-long-name-" + std::to_string(i);
            queue.depths.available = 10 + i;
            snapshot.queues.push_back(queue);
        }
        DepthChart chart;
        chart.resize(600, 200);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.showMetrics(snapshot);
        QCOMPARE(chart.queues().size(), DepthChart::kMaxQueues);
        QVERIFY(chart.minimumHeight() >= chart.heightFor(DepthChart::kMaxQueues));
        chart.resize(600, chart.minimumHeight());
        QCoreApplication::processEvents();
        const double perQueue = chart.chart()->plotArea().height() / DepthChart::kMaxQueues;
        const QFontMetrics labels(chart.chart()->axes(Qt::Vertical).first()->labelsFont());
        QVERIFY2(perQueue >= labels.height() * 1.5, qPrintable(QStringLiteral("%1 for %2").arg(perQueue).arg(labels.height())));
        QCOMPARE(DepthChart::shortName(QStringLiteral("load-test-queue-with-a-long-name-7")),
                 QStringLiteral("load-test…ong-name-7"));
        QCOMPARE(DepthChart::shortName(QStringLiteral("orders")), QStringLiteral("orders"));
        // The top bar is the busiest queue, named whole.
        QVERIFY(chart.barToolTip(0, DepthChart::kMaxQueues - 1).startsWith(QStringLiteral("load-test-queue-with-a-long-name-7: 17")));
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
