// SPDX-License-Identifier: MIT
// The window's workflows against its own broker (real database file, real
// HTTP on loopback, virtual clock): a change through the API appears in the
// tree; a send through the native API changes the count; create a queue
// through the dialog; purge and delete with confirmation (page closes with a
// status note); Del on the tree deletes after the same confirmation; the tree
// filter keeps the selected page and restores selection and expansion when
// cleared; the status bar's plurals; the virtual clock step makes a delayed
// message available; a database that cannot be used brings the dialog and is
// left unchanged.
#include "window_test_support.h"

#include "dialogs/create_queue_dialog.h"
#include "dialogs/database_problem_dialog.h"
#include "dialogs/entity_name_field.h"
#include "engine/broker_engine.h"
#include "models/entity_tree_model.h"
#include "store/database.h"
#include "views/clock_toolbar.h"
#include "views/entity_actions.h"
#include "views/entity_page.h"
#include "views/entity_tree_panel.h"
#include "views/main_window.h"
#include "support/test_main.h"

#include <QAction>
#include <QApplication>
#include <QPointer>
#include <QSortFilterProxyModel>
#include <QTreeView>
#include <QComboBox>
#include <QUrl>
#include <QGuiApplication>
#include <QClipboard>
#include <QCryptographicHash>
#include <QMenu>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolButton>
#include <QTest>

using namespace relaydesk;
using namespace relaydesk::testing;

namespace {

QByteArray fingerprint(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QCryptographicHash::hash(file.readAll(), QCryptographicHash::Sha256);
}

qint64 treeCount(MainWindow &window, const QString &queue, int column)
{
    const QModelIndex index = window.entityModel()->indexOf(LocalEntity{EntityChange::Entity::Queue, queue});
    return index.isValid() ? index.siblingAtColumn(column).data(EntityTreeModel::CountRole).toLongLong() : -1;
}

QStringList texts(const QList<QAction *> &actions)
{
    QStringList result;
    for (QAction *action : actions)
        if (!action->isSeparator())
            result << action->text().remove(QLatin1Char('&'));
    return result;
}

constexpr int kWait = 10000; // ms; a bound, not a pace: QTRY returns as soon as it holds

} // namespace

class WindowWorkflowTest final : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QTemporaryDir m_settingsDir;
    std::unique_ptr<MainWindow> m_window;

    QString path(const char *name) const { return m_dir.filePath(QLatin1String(name)); }
    QString endpoint() const { return m_window->broker()->endpointUrl(); }

    void startWindow(const QString &database)
    {
        m_window = std::make_unique<MainWindow>();
        QSignalSpy started(m_window.get(), &MainWindow::brokerStarted);
        QVERIFY(m_window->startBroker(testBrokerOptions(database)));
        QCOMPARE(started.count(), 1);
        QVERIFY(m_window->entityModel());
    }

private slots:
    void initTestCase() { keepSettingsIn(m_settingsDir); }

    void cleanup() { m_window.reset(); }

    void start_showsEndpointDatabaseAndTitle()
    {
        startWindow(path("start.db"));
        auto *button = m_window->findChild<QToolButton *>(QStringLiteral("endpointButton"));
        QVERIFY(button->text().startsWith(QStringLiteral("http://127.0.0.1:")));
        QCOMPARE(button->text(), endpoint());
        QCOMPARE(button->accessibleName(), button->text());
        QCOMPARE(m_window->findChild<QLabel *>(QStringLiteral("databaseLabel"))->text(), path("start.db"));
        QVERIFY(m_window->windowTitle().endsWith(QFileInfo(path("start.db")).absoluteFilePath()));
        QVERIFY(m_window->recentDatabases().contains(QFileInfo(path("start.db")).absoluteFilePath()));
        QTRY_VERIFY_WITH_TIMEOUT(m_window->findChild<QLabel *>(QStringLiteral("brokerStateLabel"))->text().endsWith(
                                     QStringLiteral("ready")),
                                 kWait);
        // The Service Bus port, and the connection string the Azure SDKs take, to copy.
        auto *serviceBus = m_window->findChild<QToolButton *>(QStringLiteral("serviceBusButton"));
        QVERIFY(serviceBus && !serviceBus->isHidden());
        const QString port = QString::number(QUrl(m_window->broker()->amqpUrl()).port());
        QCOMPARE(serviceBus->text(), QStringLiteral("Service Bus ") + port);
        QCOMPARE(serviceBus->accessibleName(), serviceBus->text());
        serviceBus->click();
        QCOMPARE(QGuiApplication::clipboard()->text(),
                 QStringLiteral("Endpoint=sb://localhost:%1;SharedAccessKeyName=RootManageSharedAccessKey;"
                                "SharedAccessKey=SAS_KEY_VALUE;UseDevelopmentEmulator=true").arg(port));
    }

    void apiChange_appearsInTree_andSendChangesCount()
    {
        startWindow(path("api.db"));
        QCOMPARE(postNative(endpoint(), QStringLiteral("/api/v1/queues"), R"({"name":"orders"})"), 201);
        QTRY_VERIFY_WITH_TIMEOUT(m_window->entityModel()
                                     ->indexOf(LocalEntity{EntityChange::Entity::Queue, QStringLiteral("orders")})
                                     .isValid(),
                                 kWait);
        QVERIFY(m_window->entityPanel()->selectEntity(LocalEntity{EntityChange::Entity::Queue, QStringLiteral("orders")}));
        QVERIFY(m_window->currentPage());
        QCOMPARE(postNative(endpoint(), QStringLiteral("/api/v1/queues/orders/messages"), R"({"body":"hello"})"), 201);
        QCOMPARE(postNative(endpoint(), QStringLiteral("/api/v1/queues/orders/messages"), R"({"body":"again"})"), 201);
        QTRY_COMPARE_WITH_TIMEOUT(treeCount(*m_window, QStringLiteral("orders"), EntityTreeModel::AvailableColumn), 2,
                                  kWait);
        // The page's header chips follow.
        QTRY_COMPARE_WITH_TIMEOUT(m_window->currentPage()->chips().first()->text(), QStringLiteral("● 2 available"), kWait);
    }

    void createQueueDialog_createsQueueInTreeAndDatabase()
    {
        startWindow(path("create.db"));
        m_window->entityActions()->newQueue()->trigger();
        auto *dialog = m_window->findChild<CreateQueueDialog *>();
        QVERIFY(dialog);
        QVERIFY(dialog->isVisible());
        // A bad name is refused at the dialog with the broker's words; nothing is created.
        dialog->nameField()->input()->setText(QStringLiteral("bad name!"));
        QSignalSpy answered(dialog, &CreateQueueDialog::answered);
        dialog->accept();
        QVERIFY(answered.wait(kWait));
        QVERIFY(dialog->isVisible());
        dialog->nameField()->input()->setText(QStringLiteral("jobs"));
        QPointer<CreateQueueDialog> closing(dialog);
        dialog->accept();
        QTRY_VERIFY_WITH_TIMEOUT(closing.isNull() || !closing->isVisible(), kWait);
        QTRY_VERIFY_WITH_TIMEOUT(m_window->entityModel()->queue(QStringLiteral("jobs")) != nullptr, kWait);
        QCOMPARE(m_window->entityModel()->overview().queues.size(), std::size_t(1));
        // The new queue's page opens by itself once it is in the tree.
        const LocalEntity jobs{EntityChange::Entity::Queue, QStringLiteral("jobs")};
        QTRY_VERIFY_WITH_TIMEOUT(m_window->currentPage() && m_window->currentPage()->entity() == jobs, kWait);
        QCOMPARE(m_window->entityPanel()->currentEntity(), jobs);
        // In the database: a second broker on the same file after the window let go sees it.
        m_window.reset();
        TestBroker reopened;
        auto started = BrokerHost::start(testBrokerOptions(path("create.db")));
        QVERIFY(std::holds_alternative<std::unique_ptr<BrokerHost>>(started));
        auto &host = std::get<std::unique_ptr<BrokerHost>>(started);
        auto url = callAndWait<std::string>([&](auto reply) { host->service().getQueueUrl("jobs", nullptr, reply); });
        QVERIFY(url.ok());
    }

    void purge_confirmsWithCountAndName_thenEmpties()
    {
        startWindow(path("purge.db"));
        BrokerService &service = m_window->broker()->service();
        QVERIFY(callAndWait<std::string>([&](auto r) { service.createQueue("orders", {}, {}, nullptr, r); }).ok());
        for (const char *body : {"a", "b", "c"}) {
            SendRequest request;
            request.body = body;
            QVERIFY(callAndWait<SendReceipt>([&](auto r) { service.sendMessage("orders", request, nullptr, r); }).ok());
        }
        QTRY_COMPARE_WITH_TIMEOUT(treeCount(*m_window, QStringLiteral("orders"), EntityTreeModel::AvailableColumn), 3, kWait);
        QVERIFY(m_window->entityPanel()->selectEntity(LocalEntity{EntityChange::Entity::Queue, QStringLiteral("orders")}));
        QStringList questions;
        bool answer = false;
        m_window->entityActions()->setConfirmForTesting([&](const QString &question) {
            questions << question;
            return answer;
        });
        m_window->entityActions()->purge()->trigger(); // declined: nothing happens
        QCOMPARE(questions.size(), 1);
        QVERIFY(questions.first().startsWith(QStringLiteral("Purge 3 messages from orders?")));
        // A fourth message, sent after the declined purge: a purge the window
        // had started anyway would run first (units run in order), and the
        // queue would hold 1, not 4.
        SendRequest fourth;
        fourth.body = "d";
        QVERIFY(callAndWait<SendReceipt>([&](auto r) { service.sendMessage("orders", fourth, nullptr, r); }).ok());
        const auto attributes = callAndWait<AttributeMap>(
            [&](auto r) { service.getQueueAttributes("orders", {"ApproximateNumberOfMessages"}, nullptr, r); });
        QVERIFY(attributes.ok());
        QCOMPARE(attributes->at("ApproximateNumberOfMessages"), std::string("4"));
        QTRY_COMPARE_WITH_TIMEOUT(treeCount(*m_window, QStringLiteral("orders"), EntityTreeModel::AvailableColumn), 4, kWait);
        QVERIFY(m_window->statusBar()->currentMessage() != QStringLiteral("Purged orders."));
        answer = true;
        m_window->entityActions()->purge()->trigger();
        QCOMPARE(questions.size(), 2);
        QVERIFY(questions.last().startsWith(QStringLiteral("Purge 4 messages from orders?")));
        QTRY_COMPARE_WITH_TIMEOUT(treeCount(*m_window, QStringLiteral("orders"), EntityTreeModel::AvailableColumn), 0, kWait);
        QTRY_COMPARE_WITH_TIMEOUT(m_window->statusBar()->currentMessage(), QStringLiteral("Purged orders."), kWait);
    }

    void delete_throughApi_closesPageWithNote()
    {
        startWindow(path("delete.db"));
        QCOMPARE(postNative(endpoint(), QStringLiteral("/api/v1/queues"), R"({"name":"orders"})"), 201);
        QCOMPARE(postNative(endpoint(), QStringLiteral("/api/v1/queues"), R"({"name":"other"})"), 201);
        const LocalEntity orders{EntityChange::Entity::Queue, QStringLiteral("orders")};
        QTRY_VERIFY_WITH_TIMEOUT(m_window->entityModel()->indexOf(orders).isValid() &&
                                     m_window->entityModel()->queue(QStringLiteral("other")),
                                 kWait);
        QVERIFY(m_window->entityPanel()->selectEntity(orders));
        QCOMPARE(m_window->currentPage()->entity(), orders);
        QStringList questions;
        m_window->entityActions()->setConfirmForTesting([&](const QString &question) {
            questions << question;
            return true;
        });
        m_window->entityActions()->deleteEntity()->trigger();
        QCOMPARE(questions.value(0), QStringLiteral("Delete queue orders and its 0 messages?"));
        QTRY_VERIFY_WITH_TIMEOUT(!m_window->entityModel()->indexOf(orders).isValid(), kWait);
        QTRY_VERIFY_WITH_TIMEOUT(m_window->currentPage() == nullptr, kWait); // closed, not moved to "other"
        QVERIFY(m_window->statusBar()->currentMessage().contains(QStringLiteral("orders was deleted")) ||
                m_window->statusBar()->currentMessage().contains(QStringLiteral("Deleted queue orders")));
        QVERIFY(m_window->entityPanel()->currentEntity().isNull());
    }

    // View ▸ Dashboard (Alt+Home, also on the toolbar) goes back to the
    // dashboard from any page; the tree then selects nothing, so Delete… has
    // no target.
    void dashboardAction_goesHomeFromAnyPage()
    {
        startWindow(path("home.db"));
        QCOMPARE(postNative(endpoint(), QStringLiteral("/api/v1/queues"), R"({"name":"orders"})"), 201);
        const LocalEntity orders{EntityChange::Entity::Queue, QStringLiteral("orders")};
        QTRY_VERIFY_WITH_TIMEOUT(m_window->entityModel()->indexOf(orders).isValid(), kWait);
        QVERIFY(m_window->entityPanel()->selectEntity(orders));
        QVERIFY(m_window->currentPage() != nullptr);
        auto *home = m_window->findChild<QAction *>(QStringLiteral("dashboardAction"));
        QVERIFY(home);
        QCOMPARE(home->shortcut(), QKeySequence(Qt::ALT | Qt::Key_Home));
        QVERIFY(m_window->findChild<QMenu *>(QStringLiteral("viewMenu"))->actions().contains(home));
        home->trigger();
        QVERIFY(m_window->currentPage() == nullptr);
        QVERIFY(m_window->entityPanel()->currentEntity().isNull());
        QVERIFY(!m_window->entityActions()->deleteEntity()->isEnabled());
        QVERIFY(m_window->entityPanel()->selectEntity(orders)); // and back again
        QCOMPARE(m_window->currentPage()->entity(), orders);
    }

    // The tab last chosen on a queue's page is the one another queue's page
    // opens on; the warp factor last chosen comes back in a new window.
    void lastTabAndWarpFactor_areRemembered()
    {
        startWindow(path("remember.db"));
        for (const char *name : {"first", "second"})
            QCOMPARE(postNative(endpoint(), QStringLiteral("/api/v1/queues"), "{\"name\":\"" + QByteArray(name) + "\"}"), 201);
        const LocalEntity first{EntityChange::Entity::Queue, QStringLiteral("first")};
        const LocalEntity second{EntityChange::Entity::Queue, QStringLiteral("second")};
        QTRY_VERIFY_WITH_TIMEOUT(m_window->entityModel()->indexOf(second).isValid(), kWait);
        QVERIFY(m_window->entityPanel()->selectEntity(first));
        QTabWidget *tabs = m_window->currentPage()->tabs();
        int messages = -1;
        for (int i = 0; i < tabs->count(); ++i)
            if (tabs->tabText(i) == QStringLiteral("&Messages"))
                messages = i;
        QVERIFY(messages > 0);
        tabs->setCurrentIndex(messages);
        QVERIFY(m_window->entityPanel()->selectEntity(second));
        QCOMPARE(m_window->currentPage()->tabs()->tabText(m_window->currentPage()->tabs()->currentIndex()),
                 QStringLiteral("&Messages"));
        m_window->currentPage()->tabs()->setCurrentIndex(0); // leave the next tests their default

        auto *factor = m_window->findChild<QComboBox *>(QStringLiteral("warpFactor"));
        QVERIFY(factor);
        const int sixHundred = factor->findData(600.0);
        QVERIFY(sixHundred >= 0);
        factor->setCurrentIndex(sixHundred);
        emit factor->activated(sixHundred);
        m_window.reset();
        startWindow(path("remember.db"));
        QCOMPARE(m_window->findChild<QComboBox *>(QStringLiteral("warpFactor"))->currentData().toDouble(), 600.0);
        m_window->findChild<QComboBox *>(QStringLiteral("warpFactor"))->setCurrentIndex(2);
        emit m_window->findChild<QComboBox *>(QStringLiteral("warpFactor"))->activated(2);
    }

    // Del on the tree runs the menus' Delete… action: it asks, and deletes
    // only when the answer is yes. Del in the filter box edits the text.
    void deleteKey_onTree_deletesAfterConfirmation()
    {
        startWindow(path("delete-key.db"));
        QCOMPARE(postNative(endpoint(), QStringLiteral("/api/v1/queues"), R"({"name":"orders"})"), 201);
        const LocalEntity orders{EntityChange::Entity::Queue, QStringLiteral("orders")};
        QTRY_VERIFY_WITH_TIMEOUT(m_window->entityModel()->indexOf(orders).isValid(), kWait);
        m_window->show();
        QApplication::setActiveWindow(m_window.get());
        QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
        QVERIFY(m_window->entityPanel()->selectEntity(orders));
        QStringList questions;
        bool answer = false;
        m_window->entityActions()->setConfirmForTesting([&](const QString &question) {
            questions << question;
            return answer;
        });
        QLineEdit *filter = m_window->entityPanel()->filterEdit();
        filter->setFocus();
        QTest::keyClick(filter, Qt::Key_Delete);
        QVERIFY(questions.isEmpty());

        QTreeView *tree = m_window->entityPanel()->treeView();
        tree->setFocus();
        QTest::keyClick(tree, Qt::Key_Delete); // declined: nothing happens
        QCOMPARE(questions, QStringList{QStringLiteral("Delete queue orders and its 0 messages?")});
        QCOMPARE(callAndWait<std::string>([&](auto r) { m_window->broker()->service().getQueueUrl("orders", nullptr, r); })
                     .ok(),
                 true);
        QCOMPARE(m_window->currentPage()->entity(), orders);

        answer = true;
        QTest::keyClick(tree, Qt::Key_Delete);
        QCOMPARE(questions.size(), 2);
        QTRY_VERIFY_WITH_TIMEOUT(!m_window->entityModel()->indexOf(orders).isValid(), kWait);
        QVERIFY(!callAndWait<std::string>([&](auto r) { m_window->broker()->service().getQueueUrl("orders", nullptr, r); })
                     .ok());
        QTRY_VERIFY_WITH_TIMEOUT(m_window->currentPage() == nullptr, kWait);
    }

    // Typing in the filter keeps the selected entity and its page (the same
    // page object, on the same tab) while it matches; a filter that hides it
    // closes the page; clearing the filter brings back the selection and the
    // tree as it was expanded.
    void filter_keepsSelectionPageAndExpansion()
    {
        startWindow(path("filter.db"));
        BrokerService &service = m_window->broker()->service();
        for (const char *queue : {"orders", "invoices"})
            QVERIFY(callAndWait<std::string>([&](auto r) { service.createQueue(queue, {}, {}, nullptr, r); }).ok());
        const std::string invoicesArn = m_window->broker()->identity().queueArn("invoices");
        for (const char *topic : {"events", "alerts"}) {
            QVERIFY(callAndWait<std::string>([&](auto r) { service.createTopic(topic, {}, {}, nullptr, r); }).ok());
            QVERIFY(callAndWait<SubscribeReceipt>(
                        [&](auto r) { service.subscribe(topic, "sqs", invoicesArn, {}, false, nullptr, r); })
                        .ok());
        }
        const LocalEntity orders{EntityChange::Entity::Queue, QStringLiteral("orders")};
        const LocalEntity events{EntityChange::Entity::Topic, QStringLiteral("events")};
        const LocalEntity alerts{EntityChange::Entity::Topic, QStringLiteral("alerts")};
        EntityTreeModel *model = m_window->entityModel();
        QTRY_VERIFY_WITH_TIMEOUT(model->indexOf(orders).isValid() && model->rowCount(model->indexOf(events)) == 1 &&
                                     model->rowCount(model->indexOf(alerts)) == 1,
                                 kWait);
        QTreeView *tree = m_window->entityPanel()->treeView();
        auto *proxy = qobject_cast<QSortFilterProxyModel *>(tree->model());
        QVERIFY(proxy);
        auto expanded = [&](const LocalEntity &ref) { return tree->isExpanded(proxy->mapFromSource(model->indexOf(ref))); };
        QTRY_VERIFY_WITH_TIMEOUT(expanded(events) && expanded(alerts), kWait);
        tree->collapse(proxy->mapFromSource(model->indexOf(events)));

        QVERIFY(m_window->entityPanel()->selectEntity(orders));
        EntityPage *page = m_window->currentPage();
        QVERIFY(page);
        int messagesTab = -1;
        for (int i = 0; i < page->tabs()->count(); ++i)
            if (page->tabs()->tabText(i).remove(QLatin1Char('&')) == QStringLiteral("Messages"))
                messagesTab = i;
        QVERIFY(messagesTab > 0);
        page->tabs()->setCurrentIndex(messagesTab);
        QPointer<EntityPage> kept(page);

        QLineEdit *filter = m_window->entityPanel()->filterEdit();
        QTest::keyClicks(filter, QStringLiteral("ord"));
        QCoreApplication::processEvents();
        QCoreApplication::processEvents();
        QCOMPARE(m_window->entityPanel()->currentEntity(), orders);
        QVERIFY(!kept.isNull());
        QCOMPARE(m_window->currentPage(), page);
        QCOMPARE(page->tabs()->currentIndex(), messagesTab);
        QVERIFY(!proxy->mapFromSource(model->indexOf(events)).isValid()); // filtered out

        filter->clear();
        QCoreApplication::processEvents();
        QCoreApplication::processEvents();
        QCOMPARE(m_window->entityPanel()->currentEntity(), orders);
        QCOMPARE(m_window->currentPage(), page);
        QCOMPARE(page->tabs()->currentIndex(), messagesTab);
        QCOMPARE(tree->currentIndex(), proxy->mapFromSource(model->indexOf(orders)));
        QVERIFY(!expanded(events)); // collapsed before filtering: collapsed again
        QVERIFY(expanded(alerts)); // hidden by the filter, expanded before it: expanded again
        QVERIFY(tree->isExpanded(proxy->mapFromSource(model->queuesGroup())));

        QTest::keyClicks(filter, QStringLiteral("zzz")); // hides orders: its page closes
        QCoreApplication::processEvents();
        QCoreApplication::processEvents();
        QVERIFY(m_window->entityPanel()->currentEntity().isNull());
        QVERIFY(m_window->currentPage() == nullptr);
        filter->clear(); // the selection from before filtering comes back
        QCoreApplication::processEvents();
        QCoreApplication::processEvents();
        QCOMPARE(m_window->entityPanel()->currentEntity(), orders);
        QVERIFY(m_window->currentPage());
        QCOMPARE(m_window->currentPage()->entity(), orders);
    }

    // The status bar counts with plurals as English has them.
    void brokerState_countsInPlainEnglish()
    {
        startWindow(path("plurals.db"));
        BrokerService &service = m_window->broker()->service();
        auto *state = m_window->findChild<QLabel *>(QStringLiteral("brokerStateLabel"));
        QTRY_COMPARE_WITH_TIMEOUT(state->text(), QStringLiteral("0 queues, 0 topics · ready"), kWait);
        QVERIFY(callAndWait<std::string>([&](auto r) { service.createQueue("orders", {}, {}, nullptr, r); }).ok());
        QVERIFY(callAndWait<std::string>([&](auto r) { service.createTopic("events", {}, {}, nullptr, r); }).ok());
        QTRY_COMPARE_WITH_TIMEOUT(state->text(), QStringLiteral("1 queue, 1 topic · ready"), kWait);
        QVERIFY(callAndWait<std::string>([&](auto r) { service.createQueue("jobs", {}, {}, nullptr, r); }).ok());
        QTRY_COMPARE_WITH_TIMEOUT(state->text(), QStringLiteral("2 queues, 1 topic · ready"), kWait);
    }

    void virtualClockStep_makesDelayedMessageAvailable()
    {
        startWindow(path("clock.db"));
        BrokerService &service = m_window->broker()->service();
        QVERIFY(callAndWait<std::string>([&](auto r) { service.createQueue("jobs", {}, {}, nullptr, r); }).ok());
        QCOMPARE(postNative(endpoint(), QStringLiteral("/api/v1/queues/jobs/messages"),
                            R"({"body":"later","delaySeconds":45})"),
                 201);
        QTRY_COMPARE_WITH_TIMEOUT(treeCount(*m_window, QStringLiteral("jobs"), EntityTreeModel::DelayedColumn), 1, kWait);
        ClockToolbar *clock = m_window->clockToolbar();
        QVERIFY(clock->virtualAction()->isChecked());
        QVERIFY(clock->stepNextAction()->isEnabled());
        const QString before = clock->timeLabel()->text();
        clock->stepNextAction()->trigger(); // to the end of the delay
        QTRY_COMPARE_WITH_TIMEOUT(treeCount(*m_window, QStringLiteral("jobs"), EntityTreeModel::AvailableColumn), 1, kWait);
        QCOMPARE(treeCount(*m_window, QStringLiteral("jobs"), EntityTreeModel::DelayedColumn), 0);
        QVERIFY(clock->timeLabel()->text() != before);
        // +1 min moves the broker's time by a minute.
        const ClockTime at = m_window->broker()->engine().clock().now();
        clock->stepMinuteAction()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(m_window->broker()->engine().clock().now() - at, ClockDuration(std::chrono::minutes(1)),
                                  kWait);
    }

    void clockModes_switchThroughTheEngine()
    {
        startWindow(path("modes.db"));
        ClockToolbar *clock = m_window->clockToolbar();
        clock->warpFactor()->setCurrentIndex(3); // 600×
        clock->warpAction()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(m_window->broker()->engine().clock().mode(), ClockMode::Scaled, kWait);
        QCOMPARE(m_window->broker()->engine().clock().scale(), 600.0);
        QTRY_VERIFY_WITH_TIMEOUT(!clock->stepSecondAction()->isEnabled(), kWait);
        clock->pauseAction()->trigger(); // also while the warp's answer is on its way
        QTRY_COMPARE_WITH_TIMEOUT(m_window->broker()->engine().clock().mode(), ClockMode::Virtual, kWait);
        QTRY_VERIFY_WITH_TIMEOUT(clock->stepSecondAction()->isEnabled(), kWait);
        clock->pauseAction()->trigger(); // back to the warp it came from
        QTRY_COMPARE_WITH_TIMEOUT(m_window->broker()->engine().clock().mode(), ClockMode::Scaled, kWait);
        QCOMPARE(m_window->broker()->engine().clock().scale(), 600.0);
    }

    void contextMenus_offerTheOperationsOfEachKind()
    {
        startWindow(path("menus.db"));
        EntityActions *actions = m_window->entityActions();
        std::unique_ptr<QMenu> group(actions->contextMenu({}, EntityChange::Entity::Queue, m_window.get()));
        QCOMPARE(texts(group->actions()), QStringList{QStringLiteral("New Queue…")});
        std::unique_ptr<QMenu> queue(
            actions->contextMenu({EntityChange::Entity::Queue, QStringLiteral("orders")}, EntityChange::Entity::Queue, m_window.get()));
        QCOMPARE(texts(queue->actions()), (QStringList{QStringLiteral("Send Message…"), QStringLiteral("Purge…"),
                                                       QStringLiteral("Copy URL"), QStringLiteral("Copy ARN"),
                                                       QStringLiteral("New Queue…"), QStringLiteral("Delete…")}));
        std::unique_ptr<QMenu> topic(
            actions->contextMenu({EntityChange::Entity::Topic, QStringLiteral("events")}, EntityChange::Entity::Topic, m_window.get()));
        QCOMPARE(texts(topic->actions()), (QStringList{QStringLiteral("Publish…"), QStringLiteral("Subscribe…"),
                                                       QStringLiteral("Copy ARN"), QStringLiteral("New Topic…"),
                                                       QStringLiteral("Delete…")}));
    }

    void unusableDatabase_showsDialog_fileUnchanged_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("headline");
        QTest::newRow("in use") << QStringLiteral("inUse") << QStringLiteral("is in use by another Relaydesk");
        QTest::newRow("foreign file") << QStringLiteral("foreign") << QStringLiteral("is not a Relaydesk database");
        QTest::newRow("damaged file") << QStringLiteral("damaged") << QStringLiteral("is damaged");
    }

    void unusableDatabase_showsDialog_fileUnchanged()
    {
        QFETCH(QString, kind);
        QFETCH(QString, headline);
        const QString file = m_dir.filePath(kind + QStringLiteral(".db"));
        std::unique_ptr<Database> holder;
        if (kind == QLatin1String("inUse")) {
            auto opened = Database::open(file.toStdString()); // another writer holds it
            QVERIFY(opened.ok());
            holder = std::move(opened).value();
        } else {
            QFile out(file);
            QVERIFY(out.open(QIODevice::WriteOnly));
            if (kind == QLatin1String("foreign"))
                out.write("name,amount\nalice,3\n");
            else
                out.write(QByteArray("SQLite format 3", 16) + QByteArray(4080, '\x5a'));
        }
        const QByteArray before = fingerprint(file);
        QVERIFY(!before.isEmpty());
        MainWindow window;
        QSignalSpy started(&window, &MainWindow::brokerStarted);
        QVERIFY(!window.startBroker(testBrokerOptions(file)));
        QCOMPARE(started.count(), 0);
        QVERIFY(!window.broker());
        DatabaseProblemDialog *dialog = window.problemDialog();
        QVERIFY(dialog);
        QVERIFY(dialog->isVisible());
        QVERIFY2(dialog->headline().contains(headline), qPrintable(dialog->headline()));
        QVERIFY(!dialog->explanation().isEmpty());
        QCOMPARE(fingerprint(file), before);
        dialog->reject(); // go on without a broker
        QCOMPARE(window.findChild<QLabel *>(QStringLiteral("brokerStateLabel"))->text(), QStringLiteral("Broker: stopped"));
        QCOMPARE(fingerprint(file), before);
    }

    void openAnotherDatabase_replacesTheBroker()
    {
        startWindow(path("first.db"));
        QCOMPARE(postNative(endpoint(), QStringLiteral("/api/v1/queues"), R"({"name":"only-in-first"})"), 201);
        QTRY_VERIFY_WITH_TIMEOUT(m_window->entityModel()->queue(QStringLiteral("only-in-first")), kWait);
        QVERIFY(m_window->openDatabase(path("second.db")));
        QCOMPARE(m_window->broker()->databasePath(), path("second.db"));
        QSignalSpy refreshed(m_window->entityModel(), &EntityTreeModel::refreshed);
        QVERIFY(refreshed.wait(kWait));
        QCOMPARE(m_window->entityModel()->overview().queues.size(), std::size_t(0));
        QCOMPARE(m_window->recentDatabases().value(0), QFileInfo(path("second.db")).absoluteFilePath());
    }
};

RELAYDESK_TEST_MAIN(WindowWorkflowTest)
#include "window_workflow_test.moc"
