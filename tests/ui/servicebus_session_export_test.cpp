// SPDX-License-Identifier: MIT
// Issue 34, round two, on the Service Bus Messages page (docs/window.md
// "Service Bus"), against the real engine in the window:
//  - Receive on an entity that requires sessions accepts the next available
//    session or a named one, receives and settles under its lock, lets it go
//    on Close Session, on accepting another and when the page closes;
//  - Export All writes every message of the entity and of its dead-letter
//    sub-queue — more than the page holds — a page at a time, with progress,
//    and Cancel writes no file.
#include "window_test_support.h"

#include "api/servicebus/servicebus_window_message.h"
#include "broker/queues/servicebus_queue.h"
#include "engine/servicebus_message_calls.h"
#include "models/servicebus_message_model.h"
#include "views/entity_page.h"
#include "views/main_window.h"
#include "views/paged_export.h"
#include "views/servicebus_message_actions.h"
#include "views/servicebus_messages_page.h"

#include "support/test_main.h"

#include <QAction>
#include <QFile>
#include <QLabel>
#include <QMenu>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

using namespace relaydesk;
using namespace relaydesk::testing;

namespace {

constexpr int kWait = 15000; // ms; a bound, not a pace: QTRY returns as soon as it holds
using Outcome = servicebus_sessions::Acceptance::Outcome;

} // namespace

class ServiceBusSessionExportTest final : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QTemporaryDir m_settingsDir;
    int m_database = 0;
    std::unique_ptr<MainWindow> m_window;

    BrokerService &service() { return m_window->broker()->service(); }

    bool startWindow()
    {
        m_window = std::make_unique<MainWindow>();
        return m_window->startBroker(testBrokerOptions(m_dir.filePath(QStringLiteral("sbse%1.db").arg(++m_database))));
    }

    bool createQueue(const std::string &name, bool sessions)
    {
        ServiceBusQueueProperties properties;
        properties.name = name;
        properties.requiresSession = sessions;
        return callAndWait<bool>([&](auto reply) { service().createServiceBusQueue(properties, nullptr, reply); }).ok();
    }

    // `count` messages "m<first>"… into `queue`, in session `session` when not empty.
    bool send(const std::string &queue, int first, int count, const std::string &session = {})
    {
        std::vector<SendRequest> sends;
        for (int i = first; i < first + count; ++i) {
            ServiceBusMessageText text;
            text.body = "{\"n\": " + std::to_string(i) + "}";
            text.messageId = "m" + std::to_string(i);
            text.sessionId = session;
            Result<ServiceBusSend> made = serviceBusSend(text);
            if (!made)
                return false;
            sends.push_back(made->request);
        }
        return callAndWaitStatus([&](auto reply) { service().sendServiceBusMessages(queue, sends, nullptr, reply); }).ok();
    }

    ServiceBusMessagesPage *openPage(const QString &queue)
    {
        m_window->openEntity(LocalEntity{EntityChange::Entity::Queue, queue});
        ServiceBusMessagesPage *page = nullptr;
        const bool opened = QTest::qWaitFor([&] {
            page = m_window->currentPage() ? m_window->currentPage()->findChild<ServiceBusMessagesPage *>() : nullptr;
            return page != nullptr;
        }, kWait);
        return opened ? page : nullptr;
    }

    // Another receiver's try at `session` of "carts" (an SDK's acceptSession).
    Outcome acceptElsewhere(const std::string &session)
    {
        Result<servicebus_message_calls::SessionLock> lock = callAndWait<servicebus_message_calls::SessionLock>(
            [&](auto reply) { servicebus_message_calls::acceptSession(service(), "carts", session, nullptr, reply); });
        return lock ? lock->acceptance.outcome : Outcome::NoneAvailable;
    }

    static void selectAll(ServiceBusMessagesPage *page) { page->table()->selectAll(); }

private slots:
    void initTestCase() { keepSettingsIn(m_settingsDir); }
    void cleanup() { m_window.reset(); }

    void sessionReceive_acceptsSettlesAndLetsGo()
    {
        QVERIFY(startWindow());
        QVERIFY(createQueue("carts", true));
        QVERIFY(send("carts", 1, 2, "s1"));
        QVERIFY(send("carts", 3, 1, "s2"));
        ServiceBusMessagesPage *page = openPage(QStringLiteral("carts"));
        QVERIFY(page);
        ServiceBusMessageActions *actions = page->actions();
        QTRY_VERIFY_WITH_TIMEOUT(actions->sessionful(), kWait);
        QVERIFY(!actions->closeSession()->isEnabled());
        std::unique_ptr<QMenu> menu(actions->contextMenu(page));
        QVERIFY(menu->actions().contains(actions->closeSession()));

        // The next available session: s1, the one with the oldest message.
        actions->receiveMessages(10);
        QTRY_COMPARE_WITH_TIMEOUT(page->status()->text(), QStringLiteral("Locked 2 messages from carts (session s1)"), kWait);
        QCOMPARE(actions->session()->sessionId, std::string("s1"));
        QVERIFY(actions->closeSession()->isEnabled());
        QCOMPARE(acceptElsewhere("s1"), Outcome::HeldByAnother);
        QTRY_COMPARE_WITH_TIMEOUT(int(std::count_if(page->model()->rows().begin(), page->model()->rows().end(),
                                                    [](const auto &r) { return r.state == ServiceBusMessageState::Locked; })),
                                  2, kWait);
        page->table()->clearSelection();
        for (int i = 0; i < page->table()->model()->rowCount(); ++i)
            if (page->table()->model()->index(i, ServiceBusMessageModel::SessionColumn).data().toString() == QLatin1String("s1"))
                page->table()->selectionModel()->select(page->table()->model()->index(i, 0),
                                                        QItemSelectionModel::Select | QItemSelectionModel::Rows);
        QTRY_VERIFY_WITH_TIMEOUT(actions->complete()->isEnabled(), kWait);
        actions->settleSelected(ServiceBusSettlement::Kind::Complete);
        QTRY_COMPARE_WITH_TIMEOUT(page->status()->text(), QStringLiteral("Completed 2 messages"), kWait);
        QTRY_COMPARE_WITH_TIMEOUT(page->model()->rows().size(), std::size_t(1), kWait);

        // A named session: s1 is let go first.
        actions->receiveInSession(5, QStringLiteral("s2"));
        QTRY_COMPARE_WITH_TIMEOUT(page->status()->text(), QStringLiteral("Locked 1 message from carts (session s2)"), kWait);
        QCOMPARE(acceptElsewhere("s1"), Outcome::Locked);
        QCOMPARE(acceptElsewhere("s2"), Outcome::HeldByAnother);

        // Close Session: the locked message is available again, to anyone.
        actions->closeSession()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(page->status()->text(),
                                  QStringLiteral("Closed session s2: its locked messages are available again"), kWait);
        QVERIFY(!actions->session());
        QTRY_COMPARE_WITH_TIMEOUT(page->model()->rows().at(0).state, ServiceBusMessageState::Active, kWait);

        // A session held when the page goes (another entity, the dashboard) is let go.
        actions->receiveInSession(1, QStringLiteral("s2"));
        QTRY_VERIFY_WITH_TIMEOUT(actions->session().has_value(), kWait);
        QTRY_COMPARE_WITH_TIMEOUT(page->status()->text(), QStringLiteral("Locked 1 message from carts (session s2)"), kWait);
        m_window->findChild<QAction *>(QStringLiteral("dashboardAction"))->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(!m_window->currentPage(), kWait);
        QCOMPARE(acceptElsewhere("s2"), Outcome::Locked); // the release went first: units run in order
    }

    void sessionReceive_onEntityWithoutSessions_staysPlain()
    {
        QVERIFY(startWindow());
        QVERIFY(createQueue("plain", false));
        QVERIFY(send("plain", 1, 1));
        ServiceBusMessagesPage *page = openPage(QStringLiteral("plain"));
        QVERIFY(page);
        QTRY_COMPARE_WITH_TIMEOUT(page->model()->rows().size(), std::size_t(1), kWait);
        QVERIFY(!page->actions()->sessionful());
        QVERIFY(!page->actions()->closeSession()->isVisible());
        page->actions()->receiveMessages(1);
        QTRY_COMPARE_WITH_TIMEOUT(page->status()->text(), QStringLiteral("Locked 1 message from plain"), kWait);
    }

    // More messages than the page holds (ServiceBusMessageModel::kMaxRows), and dead letters.
    void exportAll_writesEveryMessage_pageByPage_andCancelWritesNothing()
    {
        QVERIFY(startWindow());
        QVERIFY(createQueue("bulk", false));
        const int active = ServiceBusMessageModel::kMaxRows + 250;
        QVERIFY(send("bulk", 1, active));
        QVERIFY(send("bulk", active + 1, 2));
        ReceiveRequest two;
        two.maxNumberOfMessages = 2;
        Result<ReceiveResult> received =
            callAndWait<ReceiveResult>([&](auto reply) { service().receiveMessage("bulk", two, nullptr, reply); });
        QVERIFY(received && received->messages.size() == 2);
        for (const ReceivedMessage &message : received->messages)
            QVERIFY(callAndWait<ClockTime>([&](auto reply) {
                service().settleServiceBusMessage("bulk", message.receiptHandle,
                                                  {ServiceBusSettlement::Kind::DeadLetter, "Bad", "test", {}}, nullptr, reply);
            }));
        ServiceBusMessagesPage *page = openPage(QStringLiteral("bulk"));
        QVERIFY(page);
        QTRY_COMPARE_WITH_TIMEOUT(page->model()->rows().size(), std::size_t(ServiceBusMessageModel::kMaxRows + 2), kWait);

        const QString path = m_dir.filePath(QStringLiteral("bulk.jsonl"));
        QSignalSpy status(page->actions(), &ServiceBusMessageActions::statusMessage);
        page->actions()->exportMessages(path, false);
        QTRY_VERIFY_WITH_TIMEOUT(page->status()->text().startsWith(QLatin1String("Exported ")), kWait);
        QCOMPARE(page->status()->text(), QStringLiteral("Exported %1 messages to bulk.jsonl").arg(QLocale().toString(active + 2)));
        QVERIFY(std::any_of(status.begin(), status.end(), [](const QList<QVariant> &args) {
            return args.at(0).toString().startsWith(QLatin1String("Exporting bulk.jsonl: "));
        }));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = file.readAll().split('\n');
        QCOMPARE(lines.size(), active + 2 + 1); // and the empty piece after the last '\n'
        QVERIFY(lines.at(active).contains("\"deadLetterReason\""));
        QVERIFY(!page->findChild<PagedExport *>());

        const QString cancelled = m_dir.filePath(QStringLiteral("cancelled.jsonl"));
        page->actions()->exportMessages(cancelled, false);
        PagedExport *exporter = page->findChild<PagedExport *>();
        QVERIFY(exporter);
        QVERIFY(exporter->progress());
        exporter->cancel();
        QTRY_COMPARE_WITH_TIMEOUT(page->status()->text(), QStringLiteral("Export cancelled: cancelled.jsonl not written"), kWait);
        QVERIFY(!QFile::exists(cancelled));
    }
};

RELAYDESK_TEST_MAIN(ServiceBusSessionExportTest)
#include "servicebus_session_export_test.moc"
