// SPDX-License-Identifier: MIT
// The tree's "Service Bus" group (docs/window.md) on the window's own broker
// (real database file, virtual clock): beside an SQS queue, a Service Bus
// queue and a topic with two subscriptions sit under "Service Bus", each
// queue and subscription with its dead-letter sub-queue as a child; the
// tree's accessible names are the labels it shows; a send counts in the
// queue's row; topic and subscription rows have context menus; selecting a subscription
// in the tree opens its queue page.
#include "window_test_support.h"

#include "broker/queues/servicebus_queue.h"
#include "broker/servicebus/servicebus_topic.h"
#include "models/entity_tree_model.h"
#include "views/entity_page.h"
#include "views/entity_tree_panel.h"
#include "views/main_window.h"
#include "support/call_and_wait.h"
#include "support/test_main.h"

#include <QAbstractItemModelTester>
#include <QLabel>
#include <QAccessible>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

using namespace relaydesk;
using namespace relaydesk::testing;

namespace {

constexpr int kWait = 10000; // ms; a bound, not a pace: QTRY returns as soon as it holds

QStringList childLabels(const QModelIndex &parent)
{
    QStringList labels;
    for (int row = 0; row < parent.model()->rowCount(parent); ++row)
        labels << parent.model()->index(row, 0, parent).data().toString();
    return labels;
}

QModelIndex childLabelled(const QModelIndex &parent, const QString &label)
{
    for (int row = 0; row < parent.model()->rowCount(parent); ++row)
        if (parent.model()->index(row, 0, parent).data().toString() == label)
            return parent.model()->index(row, 0, parent);
    return {};
}

// The accessible names of every cell the tree shows.
QStringList accessibleNames(QTreeView *tree)
{
    QStringList names;
    QAccessibleInterface *table = QAccessible::queryAccessibleInterface(tree);
    if (!table)
        return names;
    for (int i = 0; i < table->childCount(); ++i)
        if (QAccessibleInterface *cell = table->child(i))
            names << cell->text(QAccessible::Name);
    return names;
}

ServiceBusSubscription subscription(const std::string &topic, const std::string &name)
{
    ServiceBusSubscription made;
    made.name = name;
    made.properties.name = serviceBusSubscriptionQueue(topic, name);
    return made;
}

} // namespace

class ServiceBusTreeTest final : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QTemporaryDir m_settingsDir;

private slots:
    void initTestCase() { keepSettingsIn(m_settingsDir); }

    void serviceBusEntities_inTheirGroup_subscriptionOpensItsPage()
    {
        MainWindow window;
        QVERIFY(window.startBroker(testBrokerOptions(m_dir.filePath(QStringLiteral("tree.db")))));
        EntityTreeModel *model = window.entityModel();
        QVERIFY(model);
        QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        BrokerService &service = window.broker()->service();

        QVERIFY(callAndWait<std::string>([&](auto reply) { service.createQueue("orders", {}, {}, nullptr, reply); }).ok());
        ServiceBusQueueProperties billing;
        billing.name = "billing";
        QVERIFY(callAndWait<bool>([&](auto reply) { service.createServiceBusQueue(billing, nullptr, reply); }).ok());
        ServiceBusTopic events;
        events.name = "events";
        events.subscriptions = {subscription("events", "mail"), subscription("events", "audit")};
        QVERIFY(callAndWait<bool>([&](auto reply) { service.createServiceBusTopic(events, nullptr, reply); }).ok());
        SendRequest message;
        message.body = "invoice";
        QVERIFY(callAndWaitStatus([&](auto reply) {
                    service.sendServiceBusMessages("billing", {message}, nullptr, reply);
                }).ok());

        const LocalEntity audit{EntityChange::Entity::Queue, QStringLiteral("events/Subscriptions/audit")};
        const LocalEntity billingRef{EntityChange::Entity::Queue, QStringLiteral("billing")};
        QTRY_VERIFY_WITH_TIMEOUT(model->indexOf(audit).isValid() && model->rowCount(model->serviceBusGroup()) == 2
                                     && model->indexOf(billingRef).siblingAtColumn(EntityTreeModel::AvailableColumn)
                                                .data(EntityTreeModel::CountRole).toLongLong() == 1,
                                 kWait);

        // The SQS queue alone under Queues; Service Bus's queue and topic under theirs.
        QCOMPARE(childLabels(model->queuesGroup()), QStringList{QStringLiteral("orders")});
        QCOMPARE(model->queuesGroup().data().toString(), QStringLiteral("Queues (1)"));
        QCOMPARE(model->serviceBusGroup().data().toString(), QStringLiteral("Service Bus (2)"));
        // The status bar counts as the groups do: subscriptions and sub-queues are no queues of their own.
        QTRY_COMPARE_WITH_TIMEOUT(window.findChild<QLabel *>(QStringLiteral("brokerStateLabel"))->text(),
                                  QStringLiteral("1 queue, 0 topics, 2 Service Bus entities · ready"), kWait);
        QCOMPARE(childLabels(model->serviceBusGroup()), (QStringList{QStringLiteral("billing"), QStringLiteral("events")}));
        const QString deadLetters = QStringLiteral("$DeadLetterQueue");
        const QModelIndex billingRow = childLabelled(model->serviceBusGroup(), QStringLiteral("billing"));
        QCOMPARE(billingRow, model->indexOf(billingRef));
        QCOMPARE(childLabels(billingRow), QStringList{deadLetters});
        QCOMPARE(qvariant_cast<LocalEntity>(model->index(0, 0, billingRow).data(EntityTreeModel::EntityRefRole)),
                 (LocalEntity{EntityChange::Entity::Queue, QStringLiteral("billing/$DeadLetterQueue")}));
        const QModelIndex topic = childLabelled(model->serviceBusGroup(), QStringLiteral("events"));
        QCOMPARE(qvariant_cast<LocalEntity>(topic.data(EntityTreeModel::EntityRefRole)),
                 (LocalEntity{EntityChange::Entity::Topic, QStringLiteral("events"), true})); // its own page
        QCOMPARE(childLabels(topic), (QStringList{QStringLiteral("audit"), QStringLiteral("mail")}));
        const QModelIndex auditRow = childLabelled(topic, QStringLiteral("audit"));
        QCOMPARE(auditRow, model->indexOf(audit));
        QCOMPARE(childLabels(auditRow), QStringList{deadLetters});
        QVERIFY(auditRow.data(Qt::ToolTipRole).toString().contains(QStringLiteral("of topic events")));
        QCOMPARE(billingRow.siblingAtColumn(EntityTreeModel::AvailableColumn).data().toString(), QStringLiteral("1"));

        // What a screen reader reads is what the tree shows.
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTreeView *tree = window.entityPanel()->treeView();
        tree->expandAll();
        const QStringList names = accessibleNames(tree);
        for (const QString &label : {QStringLiteral("Service Bus (2)"), QStringLiteral("billing"), QStringLiteral("events"),
                                     QStringLiteral("audit"), QStringLiteral("mail"), deadLetters, QStringLiteral("orders")})
            QVERIFY2(names.contains(label), qPrintable(label));

        // Selecting the subscription's row opens its queue page, Messages tab included.
        auto *proxy = qobject_cast<QSortFilterProxyModel *>(tree->model());
        QVERIFY(proxy);
        // A context menu on the topic row (Service Bus actions, servicebus_window_test) and on a subscription's.
        QSignalSpy menus(window.entityPanel(), &EntityTreePanel::contextMenuRequested);
        emit tree->customContextMenuRequested(tree->visualRect(proxy->mapFromSource(topic)).center());
        QCOMPARE(menus.count(), 1);
        emit tree->customContextMenuRequested(tree->visualRect(proxy->mapFromSource(auditRow)).center());
        QCOMPARE(menus.count(), 2);
        QCOMPARE(menus.last().at(0).value<LocalEntity>(), audit);
        tree->setCurrentIndex(proxy->mapFromSource(auditRow));
        QTRY_VERIFY_WITH_TIMEOUT(window.currentPage() && window.currentPage()->entity() == audit, kWait);
        QStringList tabs;
        for (int i = 0; i < window.currentPage()->tabs()->count(); ++i)
            tabs << window.currentPage()->tabs()->tabText(i).remove(QLatin1Char('&'));
        QVERIFY2(tabs.contains(QStringLiteral("Messages")), qPrintable(tabs.join(QLatin1Char(','))));
    }
};

RELAYDESK_TEST_MAIN(ServiceBusTreeTest)
#include "service_bus_tree_test.moc"
