// SPDX-License-Identifier: MIT
// The window keeps its shape (real broker, real database file, virtual
// clock, offscreen): a subscription's Policy tab — form, JSON, chart and
// effective policy side by side — fits the window it is given at 1280×800,
// as do the queue, subscription and Service Bus pages at 1× and 1.5× fonts:
// the window keeps its size, the tree its width and its Name column;
// a saved geometry larger than the screen comes back inside it, and a
// collapsed tree comes back at a usable width.
#include "window_layout_pages.h"
#include "window_test_support.h"

#include "charts/depth_chart.h"
#include "models/entity_tree_model.h"
#include "models/message_browse_model.h"
#include "views/entity_page.h"
#include "views/entity_tree_panel.h"
#include "views/main_window.h"
#include "views/message_viewer.h"
#include "views/queue_messages_page.h"
#include "views/mock_endpoints_window.h"
#include "widgets/elide_delegate.h"
#include "models/attempt_log_model.h"
#include "dialogs/create_queue_dialog.h"
#include "dialogs/create_subscription_dialog.h"
#include "dialogs/create_topic_dialog.h"
#include "dialogs/preferences_dialog.h"
#include "dialogs/servicebus_create_dialog.h"
#include "broker/servicebus/servicebus_topic.h"
#include "support/test_main.h"

#include <QAction>
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
#include <QSplitter>
#include <QStatusBar>
#include <QStyle>
#include <QAbstractSpinBox>
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

QDockWidget *entityDock(QMainWindow &window) { return window.findChild<QDockWidget *>(QStringLiteral("entityDock")); }

} // namespace

class WindowLayoutTest final : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QTemporaryDir m_settingsDir;
    int m_database = 0;
    std::unique_ptr<MainWindow> m_shared; // the window the page matrix looks at, filled once
    QHash<QString, QString> m_arns;       // subscription rows' keys → their ARNs
    bool m_tablesMayScroll = false;       // below 1280×800 at the usual font, wide tables scroll inside their frame

    // One window for every row of the matrix: SQS, SNS (sqs and http
    // subscriptions), Service Bus (queue, topic, subscription) and Zaqar entities.
    MainWindow *sharedWindow()
    {
        if (m_shared)
            return m_shared.get();
        auto window = std::make_unique<MainWindow>();
        if (!window->startBroker(testBrokerOptions(m_dir.filePath(QStringLiteral("matrix.db"))))
            || !fillPageMatrix(*window, m_arns))
            return nullptr;
        const LocalEntity last{EntityChange::Entity::Queue, QStringLiteral("demo")};
        if (!QTest::qWaitFor([&] { return window->entityModel()->indexOf(last).isValid()
                                          && window->entityModel()->indexOf(entityOf(QStringLiteral("payments/Subscriptions/audit"), m_arns)).isValid(); },
                             kWait))
            return nullptr;
        window->show();
        if (!QTest::qWaitForWindowExposed(window.get()))
            return nullptr;
        m_shared = std::move(window);
        return m_shared.get();
    }

    // What is wrong with the window as it is now (empty: nothing), `where` naming the page.
    QStringList problemsOf(MainWindow &window, const QString &where)
    {
        QStringList found;
        for (const QString &problem : sidewaysScrolling(window, m_tablesMayScroll))
            found << where + QStringLiteral(": ") + problem;
        if (const QString time = brokerTimeProblem(window); !time.isEmpty())
            found << where + QStringLiteral(": ") + time;
        return found;
    }

    // A tab's own checks: a policy form whole, a Messages table with rows to work with.
    static QStringList tabProblems(QWidget &tab, const QString &where)
    {
        QStringList found;
        if (auto *form = tab.findChild<QWidget *>(QStringLiteral("policyFieldForm")); form && form->isVisible()) {
            for (const QString &cut : cutLabels(*form))
                found << where + QStringLiteral(": label cut ") + cut;
            if (auto *effective = tab.findChild<QTableView *>(QStringLiteral("effectivePolicy")))
                for (const QString &cell : elidedCells(*effective))
                    found << where + QStringLiteral(": effective policy ") + cell;
        }
        if (auto *messages = tab.findChild<QueueMessagesPage *>(); messages && messages->isVisible()) {
            const int rows = messages->table()->viewport()->height() / std::max(1, messages->table()->verticalHeader()->defaultSectionSize());
            if (rows < 5)
                found << where + QStringLiteral(": the Messages table shows %1 rows").arg(rows);
        }
        return found;
    }

    // A dialog of the window at its preferred size within `screen`: it fits and nothing in it scrolls sideways.
    QStringList dialogProblems(MainWindow &window, const QString &page, QSize screen)
    {
        BrokerService &service = window.broker()->service();
        std::unique_ptr<QDialog> dialog;
        using Kind = ServiceBusCreateDialog::Kind;
        if (page == QLatin1String("preferences"))
            dialog = std::make_unique<PreferencesDialog>(&window);
        else if (page == QLatin1String("new queue"))
            dialog = std::make_unique<CreateQueueDialog>(service, &window);
        else if (page == QLatin1String("new topic"))
            dialog = std::make_unique<CreateTopicDialog>(service, &window);
        else if (page == QLatin1String("subscribe"))
            dialog = std::make_unique<CreateSubscriptionDialog>(service, &window.broker()->mocks(), window.broker()->endpointUrl(),
                                                                QStringLiteral("events"), &window);
        else
            dialog = std::make_unique<ServiceBusCreateDialog>(
                service, page.endsWith(QLatin1String("queue")) ? Kind::Queue : page.endsWith(QLatin1String("topic")) ? Kind::Topic : Kind::Subscription,
                QStringLiteral("payments"), &window);
        dialog->show();
        dialog->resize(dialog->sizeHint().boundedTo(screen));
        settle();
        QStringList found;
        const QSize least = dialog->minimumSizeHint().expandedTo(dialog->minimumSize());
        if (least.width() > screen.width() || least.height() > screen.height())
            found << QStringLiteral("%1 needs %2×%3").arg(page).arg(least.width()).arg(least.height());
        for (const QString &problem : sidewaysScrolling(*dialog, m_tablesMayScroll))
            found << page + QStringLiteral(": ") + problem;
        dialog->close();
        return found;
    }

private slots:
    void initTestCase() { keepSettingsIn(m_settingsDir); }
    void cleanupTestCase() { m_shared.reset(); }
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
        const LocalEntity subscription{EntityChange::Entity::Subscription, QString::fromStdString(receipt->subscriptionArn)};
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

    // Every page and tab, the dashboard, the Mock Endpoints window,
    // preferences and the create dialogs, at 1280×800, 800×600 and with a
    // 1.5× font: nothing scrolls sideways, the broker time stays in sight, the
    // Policy tab's form labels and effective values are whole, the Messages
    // table shows rows to work with.
    void everyPage_fits_data()
    {
        QTest::addColumn<int>("size");
        QTest::addColumn<QString>("page");
        const char *const pages[] = {"dashboard", "orders", "orders-dlq", "jobs.fifo", "demo", "topic:events", "sub:sqs",
                                     "sub:http", "billing", "sbtopic:payments", "payments/Subscriptions/audit",
                                     "mock endpoints", "preferences", "new queue", "new topic", "subscribe",
                                     "new Service Bus queue", "new Service Bus topic", "new Service Bus subscription"};
        for (int size = 0; size < int(std::size(kSizes)); ++size)
            for (const char *page : pages)
                QTest::addRow("%s, %s", kSizes[size].name, page) << size << QString::fromLatin1(page);
    }

    void everyPage_fits()
    {
        QFETCH(int, size);
        QFETCH(QString, page);
        const WindowSize &at = kSizes[size];
        MainWindow *window = sharedWindow();
        QVERIFY(window);
        const auto restore = applicationFontScaled(at.fontScale);
        m_tablesMayScroll = size > 0;
        window->resize(at.size);
        settle();
        QCOMPARE(window->size(), at.size);
        QStringList problems;
        if (page.startsWith(QLatin1String("new ")) || page == QLatin1String("subscribe") || page == QLatin1String("preferences")) {
            problems = dialogProblems(*window, page, at.size);
        } else if (page == QLatin1String("mock endpoints")) {
            window->findChild<QAction *>(QStringLiteral("mockEndpointsAction"))->trigger();
            auto *mocks = window->findChild<MockEndpointsWindow *>();
            QVERIFY(mocks);
            mocks->resize(at.size.boundedTo(mocks->sizeHint().expandedTo(QSize(640, 480))));
            settle();
            problems = sidewaysScrolling(*mocks, m_tablesMayScroll);
            mocks->close();
        } else if (page == QLatin1String("dashboard")) {
            window->entityPanel()->selectNothing();
            settle();
            problems = problemsOf(*window, page);
        } else {
            QVERIFY(window->entityPanel()->selectEntity(entityOf(page, m_arns)));
            settle();
            QTabWidget *tabs = window->currentPage()->tabs();
            for (int i = 0; i < tabs->count(); ++i) {
                tabs->setCurrentIndex(i);
                settle();
                const QString where = page + QLatin1Char(' ') + tabs->tabText(i).remove(QLatin1Char('&'));
                problems += problemsOf(*window, where);
                problems += tabProblems(*tabs->currentWidget(), where);
            }
        }
        // The tree's share of a small window leaves the page room.
        if (at.size.width() <= 800)
            QVERIFY2(entityDock(*window)->width() <= std::max(at.size.width() * 2 / 5, window->entityPanel()->minimumWidth() + 8),
                     qPrintable(QStringLiteral("tree %1 px of %2").arg(entityDock(*window)->width()).arg(at.size.width())));
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QStringLiteral("\n"))));
    }

    // Saved without a frame (a display without a window manager) and restored
    // where a window manager adds one: room is kept for its title bar above
    // and the status bar stays on the screen (docs/window.md).
    void savedGeometryWithoutFrame_leavesRoomForTheFrame()
    {
        const QRect available = QGuiApplication::primaryScreen()->availableGeometry();
        {
            MainWindow window;
            window.setGeometry(available); // as large as the screen, no frame known
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            QVERIFY(window.close());
        }
        MainWindow restored;
        restored.show();
        QVERIFY(QTest::qWaitForWindowExposed(&restored));
        const QRect geometry = restored.geometry();
        const int title = 2 * restored.fontMetrics().height();
        QVERIFY2(geometry.top() - title >= available.top() && geometry.bottom() <= available.bottom(),
                 qPrintable(QStringLiteral("window %1..%2 with a title bar of %3 px, screen %4..%5")
                                .arg(geometry.top()).arg(geometry.bottom()).arg(title).arg(available.top()).arg(available.bottom())));
        // The status bar is inside the screen.
        const QRect status(restored.statusBar()->mapToGlobal(QPoint(0, 0)), restored.statusBar()->size());
        QVERIFY(available.contains(status));
    }

    // The subscription's Policy tab at 1280×800 is a form: its column is as
    // wide as its labels and inputs, every input shows, the Problems list
    // has room for lines, the splitter widens the column, and the effective
    // policy's values ("30 s") are whole.
    void policyTab_isAForm()
    {
        MainWindow *window = sharedWindow();
        QVERIFY(window);
        window->resize(1280, 800);
        QVERIFY(window->entityPanel()->selectEntity(entityOf(QStringLiteral("sub:http"), m_arns)));
        QTabWidget *tabs = window->currentPage()->tabs();
        showTab(*tabs, QStringLiteral("Policy"));
        auto *form = tabs->currentWidget()->findChild<QWidget *>(QStringLiteral("policyFieldForm"));
        QVERIFY(form && form->isVisible());
        QVERIFY2(cutLabels(*form).isEmpty(), qPrintable(cutLabels(*form).join(QStringLiteral(", "))));
        for (QAbstractSpinBox *input : form->findChildren<QAbstractSpinBox *>()) {
            if (!input->isVisibleTo(form))
                continue;
            QVERIFY2(input->width() >= input->minimumSizeHint().width(),
                     qPrintable(QStringLiteral("%1: %2 of %3 px").arg(input->accessibleName()).arg(input->width())
                                    .arg(input->minimumSizeHint().width())));
        }
        auto *issues = tabs->currentWidget()->findChild<QWidget *>(QStringLiteral("issueList"));
        QVERIFY(issues->height() >= 3 * issues->fontMetrics().height());
        auto *editor = tabs->currentWidget()->findChild<QSplitter *>(QStringLiteral("editorSplitter"));
        QCOMPARE(editor->orientation(), Qt::Horizontal); // the form beside the JSON and the chart
        const int before = editor->sizes().at(0);
        editor->setSizes({before + 120, editor->sizes().at(1) - 120}); // as a drag of the handle would
        settle();
        QVERIFY2(form->width() > before - 40, qPrintable(QStringLiteral("%1 after %2").arg(form->width()).arg(before)));
        QVERIFY2(editor->sizes().at(0) >= before + 100, qPrintable(QStringLiteral("%1 after %2").arg(editor->sizes().at(0)).arg(before)));
        auto *effective = tabs->currentWidget()->findChild<QTableView *>(QStringLiteral("effectivePolicy"));
        QVERIFY(effective);
        QVERIFY2(elidedCells(*effective).isEmpty(), qPrintable(elidedCells(*effective).join(QStringLiteral(", "))));
    }

    // Columns cut the right end (issue 34, defect 9): message ids in the
    // middle (time-ordered ids are alike at the start), the attribute pane's
    // names whole while Value has room, the attempt log's Phase with its swatch.
    void columns_cutTheRightEnd()
    {
        MainWindow *window = sharedWindow();
        QVERIFY(window);
        window->resize(1280, 800);
        QVERIFY(window->entityPanel()->selectEntity(entityOf(QStringLiteral("orders"), m_arns)));
        QTabWidget *tabs = window->currentPage()->tabs();
        showTab(*tabs, QStringLiteral("Messages"));
        auto *messages = tabs->findChild<QueueMessagesPage *>();
        // A lock's countdown whole while the body has room.
        const QFontMetrics cells = messages->table()->fontMetrics();
        QVERIFY(messages->table()->columnWidth(MessageBrowseModel::CountdownColumn)
                >= cells.horizontalAdvance(QStringLiteral("lock ends in 59 min 59 s")) + cells.averageCharWidth());
        auto *ids = qobject_cast<ElideDelegate *>(messages->table()->itemDelegateForColumn(MessageBrowseModel::IdColumn));
        QVERIFY2(ids && ids->mode() == Qt::ElideMiddle, "the Message ID column elides in the middle");
        QTRY_VERIFY_WITH_TIMEOUT(messages->model()->rowCount() >= 1, kWait);
        messages->table()->selectRow(0);
        settle();
        QTreeWidget *attributes = messages->findChild<MessageViewer *>()->attributeTree();
        const QList<QTreeWidgetItem *> found = attributes->findItems(QStringLiteral("ApproximateReceiveCount"),
                                                                     Qt::MatchExactly | Qt::MatchRecursive, 0);
        QVERIFY(!found.isEmpty());
        const int depth = found.first()->parent() ? 2 : 1;
        const int needs = attributes->fontMetrics().horizontalAdvance(QStringLiteral("ApproximateReceiveCount"))
                          + depth * attributes->indentation();
        QVERIFY2(attributes->columnWidth(0) >= needs || attributes->columnWidth(2) < attributes->viewport()->width() * 2 / 5 + 2,
                 qPrintable(QStringLiteral("name %1 of %2 px, value %3 of %4").arg(attributes->columnWidth(0)).arg(needs)
                                .arg(attributes->columnWidth(2)).arg(attributes->viewport()->width())));

        QVERIFY(window->entityPanel()->selectEntity(entityOf(QStringLiteral("sub:http"), m_arns)));
        tabs = window->currentPage()->tabs();
        showTab(*tabs, QStringLiteral("Deliveries"));
        auto *log = tabs->currentWidget()->findChild<QTableView *>(QStringLiteral("attemptTable"));
        QVERIFY(log);
        const int swatch = log->style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, log);
        const int phase = log->fontMetrics().horizontalAdvance(QStringLiteral("postBackoff")) + swatch + 8;
        QVERIFY2(log->columnWidth(AttemptLogModel::PhaseColumn) >= phase,
                 qPrintable(QStringLiteral("Phase %1 of %2 px").arg(log->columnWidth(AttemptLogModel::PhaseColumn)).arg(phase)));
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
        const LocalEntity subscription{EntityChange::Entity::Subscription, QString::fromStdString(receipt->subscriptionArn)};
        QTRY_VERIFY_WITH_TIMEOUT(window.entityModel()->indexOf(subscription).isValid(), kWait);

        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        if (!entity.isEmpty()) {
            const LocalEntity ref = entity == QLatin1String("subscription")
                                      ? subscription
                                      : LocalEntity{EntityChange::Entity::Queue, entity};
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
