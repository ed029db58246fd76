// SPDX-License-Identifier: MIT
// The window's Service Bus actions and pages (docs/window.md "Service Bus")
// on its own broker (real database file, virtual clock, offscreen): the
// create dialogs make the entity with the property asked for, and refuse
// each invalid value at its field with nothing created; each tree row kind
// has its own context menu; the Send dialog's message and the Messages page
// showing every state (active, locked, deferred, scheduled, dead-lettered
// with reason and description) with the state and session filters; the
// Properties tab updates what the service lets change; Delete; File ▸
// Import of the emulator's Config.json; labels name their controls.
#include "window_test_support.h"

#include "broker/queues/servicebus_queue.h"
#include "broker/queues/servicebus_settlement.h"
#include "broker/servicebus/servicebus_topic.h"
#include "dialogs/entity_name_field.h"
#include "dialogs/servicebus_create_dialog.h"
#include "dialogs/servicebus_properties_form.h"
#include "dialogs/servicebus_send_dialog.h"
#include "engine/broker_engine.h"
#include "models/entity_tree_model.h"
#include "models/servicebus_message_model.h"
#include "views/entity_actions.h"
#include "views/entity_page.h"
#include "views/main_window.h"
#include "views/servicebus_messages_page.h"
#include "views/servicebus_properties_page.h"
#include "widgets/apply_bar.h"
#include "support/test_main.h"

#include <nlohmann/json.hpp>

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDateTimeEdit>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableView>
#include <QTest>

using namespace relaydesk;
using namespace relaydesk::testing;

namespace {

constexpr int kWait = 10000; // ms; a bound, not a pace: QTRY returns as soon as it holds
using Kind = ServiceBusCreateDialog::Kind;
using Json = nlohmann::json;

void setField(QWidget *field, const QString &value)
{
    if (auto *edit = qobject_cast<QLineEdit *>(field))
        edit->setText(value);
    else if (auto *box = qobject_cast<QCheckBox *>(field))
        box->setChecked(value == QLatin1String("true"));
    else if (auto *spin = qobject_cast<QSpinBox *>(field))
        spin->setValue(value.toInt());
}

bool pressOk(ServiceBusCreateDialog &dialog)
{
    QSignalSpy answered(&dialog, &ServiceBusCreateDialog::answered);
    dialog.accept();
    return answered.count() > 0 || answered.wait(kWait);
}

Result<ServiceBusEntity> findEntity(BrokerService &service, const std::string &address)
{
    return callAndWait<ServiceBusEntity>([&](auto reply) { service.findServiceBusEntity(address, nullptr, reply); });
}

Result<ServiceBusTopic> findTopic(BrokerService &service, const std::string &name)
{
    return callAndWait<ServiceBusTopic>([&](auto reply) { service.findServiceBusTopic(name, nullptr, reply); });
}

ServiceBusQueueProperties queueNamed(const std::string &name)
{
    ServiceBusQueueProperties properties;
    properties.name = name;
    return properties;
}

// A Service Bus queue, and a topic with subscriptions (no rules: they take nothing), made through the engine.
bool makeQueue(BrokerService &service, const std::string &name)
{
    return callAndWait<bool>([&](auto reply) { service.createServiceBusQueue(queueNamed(name), nullptr, reply); }).ok();
}

bool makeTopic(BrokerService &service, const std::string &name, const std::vector<std::string> &subscriptions = {})
{
    ServiceBusTopic topic;
    topic.name = name;
    for (const std::string &subscriptionName : subscriptions) {
        ServiceBusSubscription subscription;
        subscription.name = subscriptionName;
        subscription.properties.name = serviceBusSubscriptionQueue(name, subscriptionName);
        topic.subscriptions.push_back(subscription);
    }
    return callAndWait<bool>([&](auto reply) { service.createServiceBusTopic(topic, nullptr, reply); }).ok();
}

// Every label with a buddy names it; every field takes the keyboard.
QStringList unnamedOrUnreachable(QWidget *root)
{
    QStringList problems;
    for (QLabel *label : root->findChildren<QLabel *>()) {
        QWidget *buddy = label->buddy();
        if (!buddy)
            continue;
        QString text = label->text().remove(QLatin1Char('&'));
        if (text.endsWith(QLatin1Char(':')))
            text.chop(1);
        if (buddy->accessibleName() != text)
            problems << QStringLiteral("%1 named %2").arg(text, buddy->accessibleName());
        if (buddy->focusPolicy() == Qt::NoFocus)
            problems << text + QStringLiteral(" not reachable");
    }
    for (QCheckBox *box : root->findChildren<QCheckBox *>())
        if (box->accessibleName() != box->text().remove(QLatin1Char('&')))
            problems << QStringLiteral("check box %1 named %2").arg(box->text(), box->accessibleName());
    return problems;
}

QStringList menuActions(QMenu *menu)
{
    QStringList names;
    for (QAction *action : menu->actions())
        if (!action->isSeparator())
            names << action->objectName();
    return names;
}

} // namespace

class ServiceBusWindowTest final : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QTemporaryDir m_settingsDir;
    int m_database = 0;

    bool start(MainWindow &window)
    {
        return window.startBroker(testBrokerOptions(m_dir.filePath(QStringLiteral("sb%1.db").arg(++m_database))));
    }

private slots:
    void initTestCase() { keepSettingsIn(m_settingsDir); }

    // --- create dialogs: one property at a time, as the broker then holds it ---
    void createDialog_makesEntityWithProperty_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("property");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("stored");   // the Config.json value the broker keeps (JSON)
        const int queue = int(Kind::Queue), subscription = int(Kind::Subscription), topic = int(Kind::Topic);
        QTest::newRow("queue lock") << queue << "LockDuration" << "PT30S" << "\"PT30S\"";
        QTest::newRow("queue lock max") << queue << "LockDuration" << "PT5M" << "\"PT5M\"";
        QTest::newRow("queue max delivery count") << queue << "MaxDeliveryCount" << "3" << "3";
        QTest::newRow("queue ttl") << queue << "DefaultMessageTimeToLive" << "P1D" << "\"P1D\"";
        QTest::newRow("queue dead-letter on expiry") << queue << "DeadLetteringOnMessageExpiration" << "true" << "true";
        QTest::newRow("queue sessions") << queue << "RequiresSession" << "true" << "true";
        QTest::newRow("queue duplicate detection") << queue << "RequiresDuplicateDetection" << "true" << "true";
        QTest::newRow("queue forward to") << queue << "ForwardTo" << "elsewhere" << "\"elsewhere\"";
        QTest::newRow("queue forward dead letters") << queue << "ForwardDeadLetteredMessagesTo" << "graveyard"
                                                    << "\"graveyard\"";
        QTest::newRow("queue auto-delete") << queue << "AutoDeleteOnIdle" << "PT10M" << "\"PT10M\"";
        QTest::newRow("subscription lock") << subscription << "LockDuration" << "PT45S" << "\"PT45S\"";
        QTest::newRow("subscription max delivery count") << subscription << "MaxDeliveryCount" << "7" << "7";
        QTest::newRow("subscription dead-letter on expiry") << subscription << "DeadLetteringOnMessageExpiration"
                                                            << "true" << "true";
        QTest::newRow("subscription forward dead letters") << subscription << "ForwardDeadLetteredMessagesTo"
                                                           << "graveyard" << "\"graveyard\"";
        QTest::newRow("subscription sessions") << subscription << "RequiresSession" << "true" << "true";
        QTest::newRow("subscription forward to") << subscription << "ForwardTo" << "elsewhere" << "\"elsewhere\"";
        QTest::newRow("topic ttl") << topic << "DefaultMessageTimeToLive" << "PT1H" << "\"PT1H\"";
    }

    void createDialog_makesEntityWithProperty()
    {
        QFETCH(int, kind);
        QFETCH(QString, property);
        QFETCH(QString, value);
        QFETCH(QString, stored);
        MainWindow window;
        QVERIFY(start(window));
        BrokerService &service = window.broker()->service();
        QVERIFY(makeTopic(service, "events"));

        ServiceBusCreateDialog dialog(service, Kind(kind), QStringLiteral("events"));
        QCOMPARE(unnamedOrUnreachable(&dialog), QStringList());
        QTest::keyClicks(dialog.nameField()->input(), QStringLiteral("made"));
        QWidget *field = dialog.form()->field(property);
        QVERIFY2(field, qPrintable(property));
        setField(field, value);
        QVERIFY(pressOk(dialog));
        QVERIFY2(dialog.message().isEmpty() && dialog.form()->error(property).isEmpty(),
                 qPrintable(dialog.message() + dialog.form()->error(property) + dialog.nameField()->error()));
        Json properties;
        if (Kind(kind) == Kind::Topic) {
            QCOMPARE(dialog.createdName(), QStringLiteral("made"));
            auto topic = findTopic(service, "made");
            QVERIFY(topic.ok());
            properties = serviceBusTopicJson(*topic)["Properties"];
        } else {
            const std::string queue = Kind(kind) == Kind::Queue ? "made" : "events/Subscriptions/made";
            QCOMPARE(dialog.createdName(), QString::fromStdString(queue));
            auto entity = findEntity(service, queue);
            QVERIFY2(entity.ok(), entity.ok() ? "" : entity.error().message.c_str());
            properties = serviceBusQueueJson(entity->properties)["Properties"];
        }
        QCOMPARE(QString::fromStdString(properties[property.toStdString()].dump()), stored);
    }

    // --- create dialogs: an invalid value stays at its field, nothing is created ---
    void createDialog_refusesInvalidValueAtItsField_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("property");   // the field, or "name" / "filter"
        QTest::addColumn<QString>("value");
        const int queue = int(Kind::Queue), subscription = int(Kind::Subscription), topic = int(Kind::Topic);
        QTest::newRow("lock too short") << queue << "q" << "LockDuration" << "PT1S";
        QTest::newRow("lock too long") << queue << "q" << "LockDuration" << "PT10M";
        QTest::newRow("lock not a duration") << queue << "q" << "LockDuration" << "soon";
        QTest::newRow("ttl not a duration") << queue << "q" << "DefaultMessageTimeToLive" << "1 day";
        QTest::newRow("auto-delete under five minutes") << queue << "q" << "AutoDeleteOnIdle" << "PT1M";
        QTest::newRow("forward to a bad name") << queue << "q" << "ForwardTo" << "no spaces";
        QTest::newRow("forward to itself") << queue << "q" << "ForwardTo" << "q";
        QTest::newRow("dead letters to a bad name") << queue << "q" << "ForwardDeadLetteredMessagesTo" << "-x";
        QTest::newRow("queue name with $") << queue << "a$b" << "name" << "";
        QTest::newRow("queue name taken") << queue << "taken" << "name" << "";
        QTest::newRow("subscription lock") << subscription << "s" << "LockDuration" << "PT0S";
        QTest::newRow("subscription name with /") << subscription << "a/b" << "name" << "";
        QTest::newRow("subscription bad filter") << subscription << "s" << "filter" << "amount >";
        QTest::newRow("topic ttl") << topic << "t" << "DefaultMessageTimeToLive" << "forever";
        QTest::newRow("topic name taken") << topic << "taken" << "name" << "";
    }

    void createDialog_refusesInvalidValueAtItsField()
    {
        QFETCH(int, kind);
        QFETCH(QString, name);
        QFETCH(QString, property);
        QFETCH(QString, value);
        MainWindow window;
        QVERIFY(start(window));
        BrokerService &service = window.broker()->service();
        QVERIFY(makeTopic(service, "events"));
        QVERIFY(makeQueue(service, "taken"));

        ServiceBusCreateDialog dialog(service, Kind(kind), QStringLiteral("events"));
        QTest::keyClicks(dialog.nameField()->input(), name);
        if (property == QLatin1String("filter"))
            dialog.filter()->setText(value);
        else if (property != QLatin1String("name"))
            setField(dialog.form()->field(property), value);
        QVERIFY(pressOk(dialog));
        QVERIFY(dialog.createdName().isEmpty());
        QString shown;
        if (property == QLatin1String("name"))
            shown = dialog.nameField()->error();
        else if (property == QLatin1String("filter"))
            shown = dialog.filterError();
        else
            shown = dialog.form()->error(property);
        QVERIFY2(!shown.isEmpty(), qPrintable(QStringLiteral("message: %1; name: %2")
                                                 .arg(dialog.message(), dialog.nameField()->error())));
        // Nothing new: the queues and topics are those made above.
        const auto queues = callAndWait<std::vector<ServiceBusQueueProperties>>(
            [&](auto reply) { service.listServiceBusQueues(nullptr, reply); });
        QCOMPARE(queues->size(), std::size_t(1));
        const auto topics = callAndWait<std::vector<ServiceBusTopic>>(
            [&](auto reply) { service.listServiceBusTopics(nullptr, reply); });
        QCOMPARE(topics->size(), std::size_t(1));
        QVERIFY(topics->front().subscriptions.empty());
    }

    // Every refusal at once, in form order, before anything is sent (issue 34 defect 6).
    void createDialog_showsEveryRefusalAtOnce()
    {
        MainWindow window;
        QVERIFY(start(window));
        BrokerService &service = window.broker()->service();
        ServiceBusCreateDialog dialog(service, Kind::Queue, QStringLiteral("events"));
        dialog.show();
        QTest::keyClicks(dialog.nameField()->input(), QStringLiteral("q"));
        setField(dialog.form()->field(QStringLiteral("LockDuration")), QStringLiteral("PT1S"));
        setField(dialog.form()->field(QStringLiteral("DefaultMessageTimeToLive")), QStringLiteral("1 day"));
        setField(dialog.form()->field(QStringLiteral("ForwardTo")), QStringLiteral("no spaces"));
        QVERIFY(pressOk(dialog));
        QVERIFY(dialog.createdName().isEmpty());
        for (const char *property : {"LockDuration", "DefaultMessageTimeToLive", "ForwardTo"})
            QVERIFY2(!dialog.form()->error(QLatin1String(property)).isEmpty(), property);
        QCOMPARE(dialog.message(), QStringLiteral("\u26A0 3 fields to correct before it can be created."));
        QCOMPARE(dialog.focusWidget(), dialog.form()->field(QStringLiteral("LockDuration")));
        const auto queues = callAndWait<std::vector<ServiceBusQueueProperties>>(
            [&](auto reply) { service.listServiceBusQueues(nullptr, reply); });
        QVERIFY(queues->empty());
    }

    // --- context menus: each row kind has its own actions ---
    void contextMenu_perRowKind_data()
    {
        QTest::addColumn<QString>("row");
        QTest::addColumn<QStringList>("actions");
        const QString deleteAction = QStringLiteral("deleteAction");
        QTest::newRow("Service Bus group") << QString()
                                           << QStringList{"newServiceBusQueueAction", "newServiceBusTopicAction"};
        QTest::newRow("queue") << "billing"
                               << QStringList{"sendServiceBusAction", "purgeAction", "newServiceBusQueueAction",
                                              deleteAction};
        QTest::newRow("topic") << "events"
                               << QStringList{"sendServiceBusAction", "newServiceBusSubscriptionAction",
                                              "newServiceBusTopicAction", deleteAction};
        QTest::newRow("subscription") << "events/Subscriptions/audit"
                                      << QStringList{"purgeAction", "newServiceBusSubscriptionAction", deleteAction};
        QTest::newRow("dead-letter sub-queue") << "billing/$DeadLetterQueue"
                                               << QStringList{"purgeAction", "moveDeadLettersAction"};
        QTest::newRow("SQS queue") << "orders"
                                   << QStringList{"sendAction", "purgeAction", "copyUrlAction", "copyArnAction",
                                                  "newQueueAction", deleteAction};
    }

    void contextMenu_perRowKind()
    {
        QFETCH(QString, row);
        QFETCH(QStringList, actions);
        MainWindow window;
        QVERIFY(start(window));
        BrokerService &service = window.broker()->service();
        QVERIFY(callAndWait<std::string>([&](auto reply) { service.createQueue("orders", {}, {}, nullptr, reply); }).ok());
        QVERIFY(makeQueue(service, "billing"));
        QVERIFY(makeTopic(service, "events", {"audit"}));
        EntityTreeModel *model = window.entityModel();
        QTRY_VERIFY_WITH_TIMEOUT(model->queue(QStringLiteral("events/Subscriptions/audit/$DeadLetterQueue")) &&
                                     model->queue(QStringLiteral("orders")),
                                 kWait);

        LocalEntity ref;
        if (row.isEmpty())
            ref.serviceBus = true;   // the group row
        else if (row == QLatin1String("events"))
            ref = LocalEntity{EntityChange::Entity::Topic, row, true};
        else
            ref = LocalEntity{EntityChange::Entity::Queue, row};
        if (!row.isEmpty())
            QVERIFY(model->indexOf(ref).isValid());
        std::unique_ptr<QMenu> menu(window.entityActions()->contextMenu(ref, EntityChange::Entity::Queue, &window));
        QCOMPARE(menuActions(menu.get()), actions);
        for (QAction *action : menu->actions())
            QVERIFY2(action->isSeparator() || action->isEnabled(), qPrintable(action->objectName()));
    }

    // --- Send dialog and Messages page: every state, filters ---
    void messagesPage_showsEveryState_filtersByStateAndSession()
    {
        MainWindow window;
        QVERIFY(start(window));
        BrokerService &service = window.broker()->service();
        QVERIFY(makeQueue(service, "work"));
        QTRY_VERIFY_WITH_TIMEOUT(window.entityModel()->queue(QStringLiteral("work")), kWait);

        // Five messages through the Send dialog; the last one scheduled an hour ahead.
        for (int i = 1; i <= 5; ++i) {
            ServiceBusSendDialog dialog(service, QStringLiteral("work"), false, &window.broker()->engine().clock());
            if (i == 1)
                QCOMPARE(unnamedOrUnreachable(&dialog), QStringList());
            dialog.body()->setPlainText(QStringLiteral("{\"n\": %1}").arg(i));
            dialog.contentType()->setText(QStringLiteral("application/json"));
            dialog.subject()->setText(QStringLiteral("invoice"));
            dialog.messageId()->setText(QStringLiteral("m%1").arg(i));
            dialog.sessionId()->setText(i % 2 ? QStringLiteral("odd") : QStringLiteral("even"));
            dialog.applicationProperties()->setPlainText(QStringLiteral("amount=%1\nregion=eu").arg(i * 100));
            if (i == 5) {
                dialog.schedule()->setChecked(true);
                dialog.scheduledTime()->setDateTime(dialog.scheduledTime()->dateTime().addSecs(3600));
            }
            QSignalSpy answered(&dialog, &ServiceBusSendDialog::answered);
            dialog.accept();
            QVERIFY(answered.count() || answered.wait(kWait));
            QVERIFY2(dialog.message().isEmpty(), qPrintable(dialog.message()));
        }
        // m1 dead-lettered with a reason, m2 deferred, m3 locked; m4 stays active.
        const auto receiveOne = [&] {
            ReceiveRequest request;
            auto received = callAndWait<ReceiveResult>(
                [&](auto reply) { service.receiveMessage("work", request, nullptr, reply); });
            return received && received->messages.size() == 1 ? received->messages.front().receiptHandle : std::string();
        };
        const auto settle = [&](const std::string &handle, ServiceBusSettlement settlement) {
            return callAndWait<ClockTime>([&](auto reply) {
                       service.settleServiceBusMessage("work", handle, settlement, nullptr, reply);
                   }).ok();
        };
        ServiceBusSettlement deadLetter;
        deadLetter.kind = ServiceBusSettlement::Kind::DeadLetter;
        deadLetter.deadLetterReason = "Broken";
        deadLetter.deadLetterDescription = "the body is no invoice";
        QVERIFY(settle(receiveOne(), deadLetter));
        ServiceBusSettlement defer;
        defer.kind = ServiceBusSettlement::Kind::Defer;
        QVERIFY(settle(receiveOne(), defer));
        QVERIFY(!receiveOne().empty());

        window.openEntity(LocalEntity{EntityChange::Entity::Queue, QStringLiteral("work")});
        QTRY_VERIFY_WITH_TIMEOUT(window.currentPage() && window.currentPage()->entity().name == QLatin1String("work"),
                                 kWait);
        QStringList tabs;
        for (int i = 0; i < window.currentPage()->tabs()->count(); ++i)
            tabs << window.currentPage()->tabs()->tabText(i).remove(QLatin1Char('&'));
        QCOMPARE(tabs, (QStringList{QStringLiteral("Properties"), QStringLiteral("Messages")}));
        auto *page = window.currentPage()->findChild<ServiceBusMessagesPage *>();
        QVERIFY(page);
        QCOMPARE(unnamedOrUnreachable(page), QStringList());
        ServiceBusMessageModel *model = page->model();
        QTRY_COMPARE_WITH_TIMEOUT(int(model->rows().size()), 5, kWait);
        QMap<QString, ServiceBusMessageRow> byId;
        for (const ServiceBusMessageRow &row : model->rows())
            byId.insert(row.messageId, row);
        QCOMPARE(byId.value(QStringLiteral("m1")).state, ServiceBusMessageState::DeadLettered);
        QCOMPARE(byId.value(QStringLiteral("m1")).deadLetterReason, QStringLiteral("Broken"));
        QCOMPARE(byId.value(QStringLiteral("m1")).deadLetterDescription, QStringLiteral("the body is no invoice"));
        QCOMPARE(byId.value(QStringLiteral("m1")).queue, QStringLiteral("work/$DeadLetterQueue"));
        QCOMPARE(byId.value(QStringLiteral("m2")).state, ServiceBusMessageState::Deferred);
        QCOMPARE(byId.value(QStringLiteral("m3")).state, ServiceBusMessageState::Locked);
        QVERIFY(byId.value(QStringLiteral("m3")).until.isValid());
        QCOMPARE(byId.value(QStringLiteral("m4")).state, ServiceBusMessageState::Active);
        QCOMPARE(byId.value(QStringLiteral("m5")).state, ServiceBusMessageState::Scheduled);
        // What the Send dialog wrote comes back field by field.
        const ServiceBusMessageRow m4 = byId.value(QStringLiteral("m4"));
        QCOMPARE(m4.body, QStringLiteral("{\"n\": 4}"));
        QCOMPARE(m4.contentType, QStringLiteral("application/json"));
        QCOMPARE(m4.subject, QStringLiteral("invoice"));
        QCOMPARE(m4.sessionId, QStringLiteral("even"));
        QCOMPARE(m4.applicationProperties.value(QStringLiteral("amount")), QStringLiteral("400"));
        QCOMPARE(m4.applicationProperties.value(QStringLiteral("region")), QStringLiteral("eu"));

        // Filters: one state at a time, then one session.
        const QStringList states{QStringLiteral("active"), QStringLiteral("locked"), QStringLiteral("deferred"),
                                 QStringLiteral("scheduled"), QStringLiteral("dead-lettered")};
        for (const QString &state : states) {
            page->stateFilter()->setCurrentText(state);
            QCOMPARE(page->filter()->rowCount(), 1);
            QCOMPARE(page->filter()->index(0, ServiceBusMessageModel::StateColumn).data().toString(), state);
        }
        page->stateFilter()->setCurrentIndex(0);
        page->sessionFilter()->setText(QStringLiteral("even"));
        QCOMPARE(page->filter()->rowCount(), 2);   // m2, m4
        page->sessionFilter()->clear();
        QCOMPARE(page->filter()->rowCount(), 5);

        // Selecting a dead letter shows its reason and description with the body.
        page->stateFilter()->setCurrentText(QStringLiteral("dead-lettered"));
        page->table()->selectRow(0);
        QTRY_VERIFY_WITH_TIMEOUT(page->details()->toPlainText().contains(QStringLiteral("the body is no invoice")), kWait);
        QVERIFY(page->details()->toPlainText().contains(QStringLiteral("{\n    \"n\": 1\n}")));

        // A receive (the engine's change event) reaches the page: m4 locked now.
        QVERIFY(!receiveOne().empty());
        QTRY_VERIFY_WITH_TIMEOUT(std::count_if(model->rows().begin(), model->rows().end(), [](const auto &row) {
                                     return row.state == ServiceBusMessageState::Locked;
                                 }) == 2,
                                 kWait);

        // Move Dead Letters Back (the sub-queue's action) returns m1 to the queue, active again.
        const std::string deadLetters = window.broker()->identity().queueArn("work/$DeadLetterQueue");
        QVERIFY(callAndWait<std::string>([&](auto reply) {
                    service.startMessageMoveTask(deadLetters, std::nullopt, std::nullopt, nullptr, reply);
                }).ok());
        QTRY_VERIFY_WITH_TIMEOUT(std::any_of(model->rows().begin(), model->rows().end(), [](const auto &row) {
                                     return row.messageId == QLatin1String("m1") && row.queue == QLatin1String("work") &&
                                            row.state == ServiceBusMessageState::Active;
                                 }),
                                 kWait);
    }

    // --- a topic send reaches the subscription whose filter matches ---
    void sendToTopic_reachesMatchingSubscription()
    {
        MainWindow window;
        QVERIFY(start(window));
        BrokerService &service = window.broker()->service();
        QVERIFY(makeTopic(service, "events"));
        for (const auto &[name, filter] : {std::pair{"big", "amount > 100"}, std::pair{"small", "amount <= 100"}}) {
            ServiceBusCreateDialog dialog(service, Kind::Subscription, QStringLiteral("events"));
            QTest::keyClicks(dialog.nameField()->input(), QString::fromLatin1(name));
            dialog.filter()->setText(QString::fromLatin1(filter));
            QVERIFY(pressOk(dialog));
            QVERIFY2(dialog.message().isEmpty() && dialog.filterError().isEmpty(),
                     qPrintable(dialog.message() + dialog.filterError()));
        }
        ServiceBusSendDialog dialog(service, QStringLiteral("events"), true, nullptr);
        dialog.body()->setPlainText(QStringLiteral("large order"));
        dialog.applicationProperties()->setPlainText(QStringLiteral("amount=500"));
        QSignalSpy answered(&dialog, &ServiceBusSendDialog::answered);
        dialog.accept();
        QVERIFY(answered.count() || answered.wait(kWait));
        QVERIFY2(dialog.message().isEmpty(), qPrintable(dialog.message()));
        EntityTreeModel *model = window.entityModel();
        // "500" goes as a number, so "amount > 100" lets it through and "amount <= 100" does not.
        const auto available = [model](const char *queue) {
            const QueueOverview *overview = model->queue(QString::fromLatin1(queue));
            return overview ? overview->counts.available : -1;
        };
        QTRY_COMPARE_WITH_TIMEOUT(available("events/Subscriptions/big"), qint64(1), kWait);
        QCOMPARE(available("events/Subscriptions/small"), qint64(0));
    }

    // --- Properties tab: editable where the service allows ---
    void propertiesTab_appliesChanges_keepsFixedOnes()
    {
        MainWindow window;
        QVERIFY(start(window));
        BrokerService &service = window.broker()->service();
        QVERIFY(makeQueue(service, "work"));
        window.openEntity(LocalEntity{EntityChange::Entity::Queue, QStringLiteral("work")});
        QTRY_VERIFY_WITH_TIMEOUT(window.currentPage() && window.currentPage()->findChild<ServiceBusPropertiesPage *>(),
                                 kWait);
        auto *page = window.currentPage()->findChild<ServiceBusPropertiesPage *>();
        QTRY_VERIFY_WITH_TIMEOUT(page->isLoaded(), kWait);
        QCOMPARE(unnamedOrUnreachable(page), QStringList());
        ServiceBusPropertiesForm *form = page->form();
        QCOMPARE(qobject_cast<QLineEdit *>(form->field(QStringLiteral("LockDuration")))->text(), QStringLiteral("PT1M"));
        QVERIFY(!form->field(QStringLiteral("RequiresSession"))->isEnabled());
        QVERIFY(!form->field(QStringLiteral("RequiresDuplicateDetection"))->isEnabled());

        // An invalid value stays at its field; nothing changes.
        auto *lock = qobject_cast<QLineEdit *>(form->field(QStringLiteral("LockDuration")));
        lock->setText(QStringLiteral("PT1H"));
        emit lock->textEdited(lock->text());
        QVERIFY(page->applyBar()->applyButton()->isEnabled());
        page->apply();
        QVERIFY(!form->error(QStringLiteral("LockDuration")).isEmpty());
        QCOMPARE(findEntity(service, "work")->properties.lockDuration, std::int64_t(60));

        // A valid one is applied, and the broker queue's lock follows.
        lock->setText(QStringLiteral("PT2M"));
        qobject_cast<QSpinBox *>(form->field(QStringLiteral("MaxDeliveryCount")))->setValue(4);
        QSignalSpy applied(page, &ServiceBusPropertiesPage::applied);
        page->apply();
        QVERIFY(applied.count() || applied.wait(kWait));
        const auto entity = findEntity(service, "work");
        QCOMPARE(entity->properties.lockDuration, std::int64_t(120));
        QCOMPARE(entity->properties.maxDeliveryCount, 4);
        const auto attributes = callAndWait<AttributeMap>(
            [&](auto reply) { service.getQueueAttributes("work", {"VisibilityTimeout"}, nullptr, reply); });
        QCOMPARE(attributes->at("VisibilityTimeout"), std::string("120"));
    }

    // --- Delete: a queue with its sub-queue, a subscription, a topic ---
    void delete_removesEntityWithItsSubQueues()
    {
        MainWindow window;
        QVERIFY(start(window));
        BrokerService &service = window.broker()->service();
        QVERIFY(makeQueue(service, "billing"));
        QVERIFY(makeTopic(service, "events", {"audit", "mail"}));
        EntityTreeModel *model = window.entityModel();
        QTRY_VERIFY_WITH_TIMEOUT(model->queue(QStringLiteral("events/Subscriptions/mail")), kWait);
        EntityActions *actions = window.entityActions();
        QStringList questions;
        actions->setConfirmForTesting([&](const QString &question) {
            questions << question;
            return true;
        });

        actions->setCurrent(LocalEntity{EntityChange::Entity::Queue, QStringLiteral("billing")});
        actions->deleteEntity()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(!model->queue(QStringLiteral("billing")) &&
                                     !model->queue(QStringLiteral("billing/$DeadLetterQueue")),
                                 kWait);
        QVERIFY(questions.last().contains(QStringLiteral("billing")));

        actions->setCurrent(LocalEntity{EntityChange::Entity::Queue, QStringLiteral("events/Subscriptions/audit")});
        actions->deleteEntity()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(!model->queue(QStringLiteral("events/Subscriptions/audit")), kWait);
        QCOMPARE(findTopic(service, "events")->subscriptions.size(), std::size_t(1));

        const LocalEntity topic{EntityChange::Entity::Topic, QStringLiteral("events"), true};
        QVERIFY(model->indexOf(topic).isValid());
        actions->setCurrent(topic);
        actions->deleteEntity()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(!model->indexOf(topic).isValid() &&
                                     !model->queue(QStringLiteral("events/Subscriptions/mail")),
                                 kWait);
        QVERIFY(!findTopic(service, "events").ok());
        QCOMPARE(model->rowCount(model->serviceBusGroup()), 0);
    }

    // --- File ▸ Import: the emulator's Config.json ---
    void import_emulatorConfigJson_createsItsEntities()
    {
        MainWindow window;
        QVERIFY(start(window));
        const QString path = m_dir.filePath(QStringLiteral("Config.json"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"UserConfig": {"Namespaces": [{"Name": "sbemulatorns",
            "Queues": [{"Name": "queue.1", "Properties": {"LockDuration": "PT30S", "MaxDeliveryCount": 3,
                        "RequiresSession": false, "DeadLetteringOnMessageExpiration": true}}],
            "Topics": [{"Name": "topic.1", "Properties": {"DefaultMessageTimeToLive": "PT1H"},
                        "Subscriptions": [{"Name": "subscription.1", "Properties": {"MaxDeliveryCount": 5},
                                           "Rules": [{"Name": "app-prop-filter-1", "Properties": {"FilterType": "Correlation",
                                                      "CorrelationFilter": {"ContentType": "application/text"}}}]}]}]}],
            "Logging": {"Type": "File"}}})");
        file.close();
        window.importConfigurationFile(path);
        EntityTreeModel *model = window.entityModel();
        QTRY_VERIFY_WITH_TIMEOUT(model->queue(QStringLiteral("queue.1")) &&
                                     model->queue(QStringLiteral("topic.1/Subscriptions/subscription.1")) &&
                                     model->indexOf(LocalEntity{EntityChange::Entity::Topic, QStringLiteral("topic.1"), true})
                                         .isValid(),
                                 kWait);
        BrokerService &service = window.broker()->service();
        const auto queue = findEntity(service, "queue.1");
        QCOMPARE(queue->properties.lockDuration, std::int64_t(30));
        QCOMPARE(queue->properties.maxDeliveryCount, 3);
        QVERIFY(queue->properties.deadLetteringOnMessageExpiration);
        const auto topic = findTopic(service, "topic.1");
        QCOMPARE(topic->subscriptions.size(), std::size_t(1));
        QCOMPARE(topic->subscriptions.front().rules.size(), std::size_t(1));
        QCOMPARE(topic->subscriptions.front().rules.front().name, std::string("app-prop-filter-1"));
        // The same file again keeps what is there (nothing new, no refusal).
        window.importConfigurationFile(path);
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(model->serviceBusGroup()), 2, kWait);
    }
};

RELAYDESK_TEST_MAIN(ServiceBusWindowTest)
#include "servicebus_window_test.moc"
