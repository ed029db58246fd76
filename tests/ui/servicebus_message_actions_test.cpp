// SPDX-License-Identifier: MIT
// The Service Bus Messages page's per-message actions (docs/window.md
// "Service Bus"), against the real engine in the window: receive
// (peek-lock), complete, abandon, defer, dead-letter with a reason,
// resubmit from the dead-letter sub-queue, delete; the context menu; the
// details pane's headings, typed application properties, pretty-printed
// JSON body and Copy as JSON.
#include "window_test_support.h"
#include "parity_screenshots.h"

#include "api/servicebus/servicebus_window_message.h"
#include "broker/queues/servicebus_queue.h"
#include "models/servicebus_message_model.h"
#include "views/entity_page.h"
#include "views/main_window.h"
#include "views/servicebus_message_actions.h"
#include "views/servicebus_messages_page.h"

#include "support/test_main.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMenu>
#include <QPlainTextEdit>
#include <QTableView>
#include <QTest>

using namespace relaydesk;
using namespace relaydesk::testing;

namespace {

constexpr int kWait = 10000; // ms; a bound, not a pace: QTRY returns as soon as it holds
using State = ServiceBusMessageState;

} // namespace

class ServiceBusMessageActionsTest final : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QTemporaryDir m_settingsDir;
    int m_database = 0;
    std::unique_ptr<MainWindow> m_window;
    ServiceBusMessagesPage *m_page = nullptr;

    BrokerService &service() { return m_window->broker()->service(); }
    ServiceBusMessageModel *model() { return m_page->model(); }

    // The window with Service Bus queue "work" holding m1, m2, m3 ({"n": N}, amount=N*100, region=eu), its Messages page open.
    bool open()
    {
        m_window = std::make_unique<MainWindow>();
        if (!m_window->startBroker(testBrokerOptions(m_dir.filePath(QStringLiteral("sba%1.db").arg(++m_database)))))
            return false;
        ServiceBusQueueProperties properties;
        properties.name = "work";
        if (!callAndWait<bool>([&](auto reply) { service().createServiceBusQueue(properties, nullptr, reply); }))
            return false;
        std::vector<SendRequest> sends;
        for (int i = 1; i <= 3; ++i) {
            ServiceBusMessageText text;
            text.body = "{\"n\": " + std::to_string(i) + "}";
            text.contentType = "application/json";
            text.messageId = "m" + std::to_string(i);
            text.applicationProperties = {{"amount", std::to_string(i * 100)}, {"region", "eu"}};
            Result<ServiceBusSend> send = serviceBusSend(text);
            if (!send)
                return false;
            sends.push_back(send->request);
        }
        if (!callAndWaitStatus([&](auto reply) { service().sendServiceBusMessages("work", sends, nullptr, reply); }))
            return false;
        m_window->openEntity(LocalEntity{EntityChange::Entity::Queue, QStringLiteral("work")});
        if (!QTest::qWaitFor([&] { return m_window->currentPage() && m_window->currentPage()->findChild<ServiceBusMessagesPage *>(); }, kWait))
            return false;
        m_page = m_window->currentPage()->findChild<ServiceBusMessagesPage *>();
        return QTest::qWaitFor([&] { return model()->rows().size() == 3; }, kWait);
    }

    std::optional<ServiceBusMessageRow> row(const QString &messageId)
    {
        for (const ServiceBusMessageRow &r : model()->rows())
            if (r.messageId == messageId)
                return r;
        return std::nullopt;
    }

    // Selects the rows of these messages in the table.
    void select(const QStringList &messageIds)
    {
        QTableView *table = m_page->table();
        table->clearSelection();
        for (int i = 0; i < table->model()->rowCount(); ++i) {
            const QModelIndex index = table->model()->index(i, ServiceBusMessageModel::MessageIdColumn);
            if (messageIds.contains(index.data().toString()))
                table->selectionModel()->select(index, QItemSelectionModel::Select | QItemSelectionModel::Rows);
        }
        table->selectionModel()->setCurrentIndex(table->selectionModel()->selectedRows().value(0),
                                                 QItemSelectionModel::NoUpdate);
    }

    // Runs `action` and waits for its status line.
    bool run(const std::function<void()> &action)
    {
        QSignalSpy finished(m_page->actions(), &ServiceBusMessageActions::finished);
        action();
        return finished.count() > 0 || finished.wait(kWait);
    }

    std::optional<State> stateOf(const QString &messageId)
    {
        const auto r = row(messageId);
        return r ? std::optional(r->state) : std::nullopt;
    }

private slots:
    void initTestCase() { keepSettingsIn(m_settingsDir); }
    void init() { QVERIFY(open()); }
    void cleanup()
    {
        m_page = nullptr;
        m_window.reset();
    }

    void contextMenu_offersTheServiceBusActions()
    {
        select({QStringLiteral("m1")});
        std::unique_ptr<QMenu> menu(m_page->actions()->contextMenu(m_page));
        QStringList names;
        for (QAction *action : menu->actions())
            if (!action->isSeparator())
                names << action->objectName();
        QCOMPARE(names, (QStringList{"receiveServiceBus", "completeMessages", "abandonMessages", "deadLetterMessages",
                                     "deferMessages", "resubmitMessages", "deleteServiceBusMessages",
                                     "exportServiceBusSelected", "exportServiceBusAll", "importServiceBus",
                                     "copyServiceBusBody", "copyServiceBusId", "copyServiceBusJson"}));
        // An active message this page did not lock cannot be settled; it can be resubmitted, deleted, copied.
        QVERIFY(!m_page->actions()->complete()->isEnabled());
        QVERIFY(m_page->actions()->resubmit()->isEnabled());
        QVERIFY(m_page->actions()->deleteSelected()->isEnabled());
        QCOMPARE(m_page->table()->contextMenuPolicy(), Qt::CustomContextMenu);
    }

    void settlements_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<bool>("gone");
        QTest::addColumn<int>("state");
        QTest::newRow("complete") << int(ServiceBusSettlement::Kind::Complete) << true << 0;
        QTest::newRow("abandon") << int(ServiceBusSettlement::Kind::Abandon) << false << int(State::Active);
        QTest::newRow("defer") << int(ServiceBusSettlement::Kind::Defer) << false << int(State::Deferred);
        QTest::newRow("dead-letter") << int(ServiceBusSettlement::Kind::DeadLetter) << false << int(State::DeadLettered);
    }
    void settlements()
    {
        QFETCH(int, kind);
        QFETCH(bool, gone);
        QFETCH(int, state);
        QVERIFY(run([&] { m_page->actions()->receiveMessages(1); }));
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(QStringLiteral("m1")), std::optional(State::Locked), kWait);
        QVERIFY(m_page->status()->text().contains(QStringLiteral("1 message")));
        select({QStringLiteral("m1")});
        QVERIFY(m_page->actions()->complete()->isEnabled());
        QVERIFY(run([&] {
            m_page->actions()->settleSelected(ServiceBusSettlement::Kind(kind), QStringLiteral("Bad"),
                                              QStringLiteral("not an order"));
        }));
        if (gone) {
            QTRY_VERIFY_WITH_TIMEOUT(!row(QStringLiteral("m1")), kWait);
            return;
        }
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(QStringLiteral("m1")), std::optional(State(state)), kWait);
        if (State(state) == State::DeadLettered) {
            QCOMPARE(row(QStringLiteral("m1"))->deadLetterReason, QStringLiteral("Bad"));
            QCOMPARE(row(QStringLiteral("m1"))->deadLetterDescription, QStringLiteral("not an order"));
        }
    }

    void resubmit_fromDeadLetters_backActiveOnce()
    {
        QVERIFY(run([&] { m_page->actions()->receiveMessages(1); }));
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(QStringLiteral("m1")), std::optional(State::Locked), kWait);
        select({QStringLiteral("m1")});
        QVERIFY(run([&] { m_page->actions()->settleSelected(ServiceBusSettlement::Kind::DeadLetter); }));
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(QStringLiteral("m1")), std::optional(State::DeadLettered), kWait);
        select({QStringLiteral("m1")});
        QVERIFY(run([&] { m_page->actions()->resubmitSelected(); }));
        QCOMPARE(m_page->status()->text(), QStringLiteral("Resubmitted 1 message to work"));
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(QStringLiteral("m1")), std::optional(State::Active), kWait);
        QTRY_COMPARE_WITH_TIMEOUT(model()->rows().size(), std::size_t(3), kWait);
        QCOMPARE(row(QStringLiteral("m1"))->queue, QStringLiteral("work"));
        QCOMPARE(row(QStringLiteral("m1"))->applicationProperties.value(QStringLiteral("amount")), QStringLiteral("100"));
    }

    void delete_removesWhateverTheState()
    {
        QVERIFY(run([&] { m_page->actions()->receiveMessages(1); }));   // m1 locked
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(QStringLiteral("m1")), std::optional(State::Locked), kWait);
        select({QStringLiteral("m1"), QStringLiteral("m3")});
        QVERIFY(run([&] { m_page->actions()->deleteMessages(m_page->actions()->selectedRows()); }));
        QCOMPARE(m_page->status()->text(), QStringLiteral("Deleted 2 messages from work"));
        QTRY_COMPARE_WITH_TIMEOUT(model()->rows().size(), std::size_t(1), kWait);
        QVERIFY(row(QStringLiteral("m2")));
    }

    // Export All then Import into the emptied queue: the same messages, properties typed as sent;
    // a file with a line that is no message imports nothing.
    void exportImport_roundTrip_badFileChangesNothing()
    {
        const QString path = m_dir.filePath(QStringLiteral("work.jsonl"));
        QVERIFY(run([&] { m_page->actions()->exportMessages(path, false); }));
        QCOMPARE(m_page->status()->text(), QStringLiteral("Exported 3 messages to work.jsonl"));
        select({QStringLiteral("m1"), QStringLiteral("m2"), QStringLiteral("m3")});
        QVERIFY(run([&] { m_page->actions()->deleteMessages(m_page->actions()->selectedRows()); }));
        QTRY_COMPARE_WITH_TIMEOUT(model()->rows().size(), std::size_t(0), kWait);

        QFile bad(m_dir.filePath(QStringLiteral("bad.jsonl")));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("{\"body\": \"fine\"}\nnot json\n{\"subject\": \"no body\"}\n");
        bad.close();
        QVERIFY(run([&] { m_page->actions()->importMessages(bad.fileName()); }));
        QCOMPARE(m_page->status()->text(),
                 QStringLiteral("Nothing imported from bad.jsonl: line 2: not a JSON object; line 3: no \"body\" (text) and no \"amqp\""));
        QSignalSpy refreshed(model(), &ServiceBusMessageModel::refreshed);
        model()->refresh();
        QVERIFY(refreshed.count() > 0 || refreshed.wait(kWait));
        QCOMPARE(model()->rows().size(), std::size_t(0));

        QVERIFY(run([&] { m_page->actions()->importMessages(path); }));
        QCOMPARE(m_page->status()->text(), QStringLiteral("Imported 3 messages from work.jsonl into work"));
        QTRY_COMPARE_WITH_TIMEOUT(model()->rows().size(), std::size_t(3), kWait);
        for (const QString &id : {QStringLiteral("m1"), QStringLiteral("m2"), QStringLiteral("m3")}) {
            QVERIFY(row(id));
            QCOMPARE(row(id)->state, State::Active);
            QCOMPARE(row(id)->contentType, QStringLiteral("application/json"));
            QCOMPARE(row(id)->applicationPropertyTypes.value(QStringLiteral("amount")), QStringLiteral("long"));
        }
    }

    void details_headingsTypesPrettyJson_copyAsJson()
    {
        select({QStringLiteral("m2")});
        const QString text = m_page->details()->toPlainText();
        for (const QString &expected : {QStringLiteral("System properties\n"), QStringLiteral("\nApplication properties\n"),
                                        QStringLiteral("  amount (long): 200"), QStringLiteral("  region (string): eu"),
                                        QStringLiteral("  Message ID: m2"), QStringLiteral("\nBody\n{\n    \"n\": 2\n}")})
            QVERIFY2(text.contains(expected), qPrintable(expected + QStringLiteral(" not in:\n") + text));
        m_page->actions()->copyJson()->trigger();
        const QJsonObject json = QJsonDocument::fromJson(QApplication::clipboard()->text().toUtf8()).object();
        QCOMPARE(json.value(QStringLiteral("messageId")).toString(), QStringLiteral("m2"));
        QCOMPARE(json.value(QStringLiteral("applicationProperties")).toObject().value(QStringLiteral("amount")).toObject()
                     .value(QStringLiteral("type")).toString(),
                 QStringLiteral("long"));
        m_page->actions()->copyBody()->trigger();
        QCOMPARE(QApplication::clipboard()->text(), QStringLiteral("{\"n\": 2}"));
        m_window->show();
        m_window->currentPage()->tabs()->setCurrentWidget(m_page);
        shootSizesAndThemes(*m_window, QStringLiteral("parity-servicebus-messages"));
    }
};

RELAYDESK_TEST_MAIN(ServiceBusMessageActionsTest)
#include "servicebus_message_actions_test.moc"
