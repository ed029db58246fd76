// SPDX-License-Identifier: MIT
// The entity tree model fed by a real engine on a real database file:
// QAbstractItemModelTester on every change, rows inserted/changed/removed in
// place (never a reset), counts per state, dead-letter marking, the virtual
// clock moving a delayed message to available, and a running clock's delay
// ending with no other event.
#include "window_test_support.h"

#include "engine/broker_engine.h"
#include "models/entity_tree_model.h"
#include "support/test_main.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace relaydesk;
using namespace relaydesk::testing;

namespace {

qint64 countAt(const EntityTreeModel &model, const QString &queue, int column)
{
    const QModelIndex index = model.indexOf(LocalEntity{EntityChange::Entity::Queue, queue});
    return index.isValid() ? index.siblingAtColumn(column).data(EntityTreeModel::CountRole).toLongLong() : -1;
}

} // namespace

class EntityTreeModelTest final : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<TestBroker> m_broker;
    std::unique_ptr<EntityTreeModel> m_model;
    std::unique_ptr<QAbstractItemModelTester> m_tester;

    // Waits for the next refresh that makes `condition` true.
    template <class Condition>
    bool refreshedUntil(Condition condition)
    {
        QSignalSpy refreshed(m_model.get(), &EntityTreeModel::refreshed);
        for (int i = 0; i < 20 && !condition(); ++i)
            refreshed.wait(2000);
        return condition();
    }

private slots:
    void init()
    {
        m_broker = std::make_unique<TestBroker>();
        QVERIFY(m_broker->start());
        m_model = std::make_unique<EntityTreeModel>(&m_broker->host->engine(), m_broker->host->identity());
        m_tester = std::make_unique<QAbstractItemModelTester>(m_model.get(),
                                                              QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy refreshed(m_model.get(), &EntityTreeModel::refreshed);
        QVERIFY(refreshed.wait(5000));
    }

    void cleanup()
    {
        m_tester.reset();
        m_model.reset();
        m_broker.reset();
    }

    void emptyBroker_showsThreeEmptyGroups()
    {
        QCOMPARE(m_model->rowCount(), 1);   // This computer alone (no other connection given)
        QCOMPARE(m_model->localConnection().data().toString(), QStringLiteral("This computer"));
        QCOMPARE(m_model->rowCount(m_model->localConnection()), 3);
        QCOMPARE(m_model->topicsGroup().data().toString(), QStringLiteral("Topics (0)"));
        QCOMPARE(m_model->queuesGroup().data().toString(), QStringLiteral("Queues (0)"));
        QCOMPARE(m_model->serviceBusGroup().data().toString(), QStringLiteral("Service Bus (0)"));
        QCOMPARE(m_model->columnCount(), int(EntityTreeModel::ColumnCount));
    }

    void createdQueue_isInsertedInPlace_noReset()
    {
        QSignalSpy inserted(m_model.get(), &QAbstractItemModel::rowsInserted);
        QSignalSpy reset(m_model.get(), &QAbstractItemModel::modelReset);
        QVERIFY(m_broker->createQueue("orders").ok());
        QVERIFY(m_broker->createQueue("audit").ok());
        QVERIFY(refreshedUntil([&] { return m_model->rowCount(m_model->queuesGroup()) == 2; }));
        QVERIFY(inserted.count() >= 1);
        QCOMPARE(inserted.first().at(0).value<QModelIndex>(), m_model->queuesGroup());
        QCOMPARE(reset.count(), 0);
        // Sorted by name, the group title counts them.
        QCOMPARE(m_model->index(0, 0, m_model->queuesGroup()).data().toString(), QStringLiteral("audit"));
        QCOMPARE(m_model->index(1, 0, m_model->queuesGroup()).data().toString(), QStringLiteral("orders"));
        QCOMPARE(m_model->queuesGroup().data().toString(), QStringLiteral("Queues (2)"));
        QCOMPARE(m_model->index(1, 0, m_model->queuesGroup()).data(EntityTreeModel::UrlOrArnRole).toString(),
                 m_broker->host->endpointUrl() + QStringLiteral("/000000000000/orders"));
    }

    void send_changesCountsWithDataChanged()
    {
        QVERIFY(m_broker->createQueue("orders").ok());
        QVERIFY(refreshedUntil([&] { return countAt(*m_model, QStringLiteral("orders"), 1) == 0; }));
        QSignalSpy changed(m_model.get(), &QAbstractItemModel::dataChanged);
        QSignalSpy inserted(m_model.get(), &QAbstractItemModel::rowsInserted);
        QVERIFY(m_broker->send("orders", "one").ok());
        QVERIFY(m_broker->send("orders", "two").ok());
        QVERIFY(m_broker->send("orders", "later", 30).ok());
        QVERIFY(refreshedUntil([&] { return countAt(*m_model, QStringLiteral("orders"), EntityTreeModel::DelayedColumn) == 1; }));
        QCOMPARE(countAt(*m_model, QStringLiteral("orders"), EntityTreeModel::AvailableColumn), 2);
        QCOMPARE(countAt(*m_model, QStringLiteral("orders"), EntityTreeModel::InFlightColumn), 0);
        QVERIFY(changed.count() >= 1);
        QCOMPARE(inserted.count(), 0); // the row changed in place
        const QModelIndex row = m_model->indexOf(LocalEntity{EntityChange::Entity::Queue, QStringLiteral("orders")});
        QCOMPARE(row.siblingAtColumn(EntityTreeModel::AvailableColumn).data().toString(), QStringLiteral("2"));
    }

    void virtualClockStep_delayedBecomesAvailable()
    {
        QVERIFY(m_broker->createQueue("jobs").ok());
        QVERIFY(m_broker->send("jobs", "soon", 10).ok());
        QVERIFY(refreshedUntil([&] { return countAt(*m_model, QStringLiteral("jobs"), EntityTreeModel::DelayedColumn) == 1; }));
        QVERIFY(m_model->overview().nextVisible.has_value());
        QVERIFY(m_broker->host->engine().advanceClockAndWait(std::chrono::seconds(10)).ok());
        m_model->refresh();
        QVERIFY(refreshedUntil([&] { return countAt(*m_model, QStringLiteral("jobs"), EntityTreeModel::AvailableColumn) == 1; }));
        QCOMPARE(countAt(*m_model, QStringLiteral("jobs"), EntityTreeModel::DelayedColumn), 0);
    }

    // Counts that change by time alone (a delay ends) follow without any
    // other event: the model reads again at the overview's next visibility
    // time, on the clock's rate.
    void delayEndsOnARunningClock_countsFollowWithoutAnEvent()
    {
        QVERIFY(m_broker->createQueue("later").ok());
        QVERIFY(m_broker->send("later", "in 30 s", 30).ok());
        QVERIFY(refreshedUntil([&] { return countAt(*m_model, QStringLiteral("later"), EntityTreeModel::DelayedColumn) == 1; }));
        BrokerEngine &engine = m_broker->host->engine();
        QVERIFY(engine.advanceClockAndWait(std::chrono::seconds(28)).ok()); // 2 s of the delay left
        QVERIFY(engine.setClockModeAndWait(ClockMode::Real).ok());
        m_model->refresh(); // what the window does when the clock mode changes; nothing after it
        QVERIFY(refreshedUntil([&] { return countAt(*m_model, QStringLiteral("later"), EntityTreeModel::AvailableColumn) == 1; }));
        QCOMPARE(countAt(*m_model, QStringLiteral("later"), EntityTreeModel::DelayedColumn), 0);
    }

    void topicWithSubscription_isParentAndChild()
    {
        QVERIFY(m_broker->createQueue("orders").ok());
        QVERIFY(m_broker->createTopic("events").ok());
        auto subscribed = m_broker->subscribeQueue("events", "orders");
        QVERIFY(subscribed.ok());
        QVERIFY(refreshedUntil([&] { return m_model->rowCount(m_model->topicsGroup()) == 1 &&
                                            m_model->rowCount(m_model->index(0, 0, m_model->topicsGroup())) == 1; }));
        const QModelIndex topic = m_model->index(0, 0, m_model->topicsGroup());
        QCOMPARE(topic.data().toString(), QStringLiteral("events"));
        const QModelIndex subscription = m_model->index(0, 0, topic);
        QCOMPARE(subscription.data().toString(), QStringLiteral("sqs → orders"));
        QCOMPARE(subscription.data(EntityTreeModel::PendingRole).toBool(), false);
        const auto ref = qvariant_cast<LocalEntity>(subscription.data(EntityTreeModel::EntityRefRole));
        QCOMPARE(ref.kind, EntityChange::Entity::Subscription);
        QCOMPARE(ref.name, QString::fromStdString(subscribed->subscriptionArn));
        QCOMPARE(m_model->indexOf(ref), subscription);
    }

    void deletedTopic_leavesWithItsSubscriptions()
    {
        QVERIFY(m_broker->createQueue("orders").ok());
        QVERIFY(m_broker->createTopic("events").ok());
        QVERIFY(m_broker->subscribeQueue("events", "orders").ok());
        QVERIFY(refreshedUntil([&] { return m_model->rowCount(m_model->topicsGroup()) == 1; }));
        QSignalSpy removed(m_model.get(), &QAbstractItemModel::rowsRemoved);
        QSignalSpy gone(m_model.get(), &EntityTreeModel::entityRemoved);
        QVERIFY(m_broker->deleteTopic("events").ok());
        QVERIFY(refreshedUntil([&] { return m_model->rowCount(m_model->topicsGroup()) == 0; }));
        QCOMPARE(removed.count(), 1);
        QCOMPARE(removed.first().at(0).value<QModelIndex>(), m_model->topicsGroup());
        QCOMPARE(gone.count(), 2); // the topic and its subscription
        QCOMPARE(gone.first().at(0).value<LocalEntity>(), (LocalEntity{EntityChange::Entity::Topic, QStringLiteral("events")}));
        QCOMPARE(m_model->rowCount(m_model->queuesGroup()), 1); // the queue stays
    }

    void deadLetterQueue_isMarkedWithItsSource()
    {
        QVERIFY(m_broker->createQueue("orders-dlq").ok());
        const std::string target = m_broker->host->identity().queueArn("orders-dlq");
        QVERIFY(m_broker->createQueue("orders", {{"RedrivePolicy", "{\"deadLetterTargetArn\":\"" + target +
                                                                       "\",\"maxReceiveCount\":\"3\"}"}}).ok());
        QVERIFY(refreshedUntil([&] { return m_model->rowCount(m_model->queuesGroup()) == 2; }));
        const QModelIndex dlq = m_model->indexOf(LocalEntity{EntityChange::Entity::Queue, QStringLiteral("orders-dlq")});
        const QModelIndex source = m_model->indexOf(LocalEntity{EntityChange::Entity::Queue, QStringLiteral("orders")});
        QVERIFY(dlq.data(EntityTreeModel::DeadLetterQueueRole).toBool());
        QVERIFY(!source.data(EntityTreeModel::DeadLetterQueueRole).toBool());
        QVERIFY(dlq.data(Qt::ToolTipRole).toString().contains(QStringLiteral("Dead-letter queue of: orders")));
        QVERIFY(source.data(Qt::ToolTipRole).toString().contains(QStringLiteral("Dead letters go to: orders-dlq")));
    }

    // A queue made through the Zaqar v2 API, and the topic that carries its
    // subscriptions, are marked Zaqar; an SQS queue beside them is not.
    void zaqarQueueAndItsSubscriptions_markedZaqar()
    {
        const QString base = m_broker->host->endpointUrl() + QStringLiteral("/v2/queues/jobs");
        const QList<QPair<QByteArray, QByteArray>> client{{"Client-ID", "3381af92-2b9e-11e3-b191-71861300734c"}};
        const QByteArray metadata = "{\"_default_message_ttl\": 3600}";
        const QByteArray subscription = "{\"subscriber\": \"http://127.0.0.1:9/hook\", \"ttl\": 3600, \"options\": {}}";
        QCOMPARE(sendJson("PUT", base, metadata, client), 201);
        QCOMPARE(sendJson("POST", base + QStringLiteral("/subscriptions"), subscription, client), 201);
        QVERIFY(m_broker->createQueue("plain").ok());
        const LocalEntity jobs{EntityChange::Entity::Queue, QStringLiteral("jobs")};
        const LocalEntity topic{EntityChange::Entity::Topic, QStringLiteral("zaqar-jobs")};
        QVERIFY(refreshedUntil([&] {
            return m_model->indexOf(jobs).isValid() && m_model->indexOf(topic).isValid()
                   && m_model->rowCount(m_model->indexOf(topic)) == 1
                   && m_model->indexOf(LocalEntity{EntityChange::Entity::Queue, QStringLiteral("plain")}).isValid();
        }));
        QCOMPARE(m_model->indexOf(jobs).data().toString(), QStringLiteral("jobs (Zaqar)"));
        QVERIFY(m_model->indexOf(jobs).data(Qt::ToolTipRole).toString().startsWith(QStringLiteral("Zaqar queue jobs")));
        QCOMPARE(m_model->indexOf(topic).data().toString(), QStringLiteral("zaqar-jobs (Zaqar)"));
        QVERIFY(m_model->indexOf(topic).data(Qt::ToolTipRole).toString().contains(QStringLiteral("queue jobs")));
        QCOMPARE(m_model->indexOf(LocalEntity{EntityChange::Entity::Queue, QStringLiteral("plain")}).data().toString(),
                 QStringLiteral("plain"));
    }
};

RELAYDESK_TEST_MAIN(EntityTreeModelTest)
#include "entity_tree_model_test.moc"
