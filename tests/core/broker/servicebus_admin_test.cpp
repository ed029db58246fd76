// SPDX-License-Identifier: MIT
// Unit tests of the window's Service Bus changes (servicebus_admin.h): an
// update writes the properties and the broker queue's attributes that
// follow, and refuses the properties fixed at creation (data-driven) or an
// entity that is none; deletes take the dead-letter sub-queues along and
// tell a queue, a subscription and a topic apart.

#include "broker/servicebus/servicebus_admin.h"
#include "broker/servicebus/servicebus_topic.h"
#include "queue_test_support.h"
#include "support/test_main.h"

#include <nlohmann/json.hpp>

using namespace relaydesk;
using namespace relaydesk::testing;

namespace {

ServiceBusQueueProperties queueNamed(const std::string &name)
{
    ServiceBusQueueProperties properties;
    properties.name = name;
    return properties;
}

struct AdminBroker {
    AdminBroker()
    {
        QVERIFY(broker.unit([&] { return servicebus_queues::create(broker.db(), queueNamed("billing"), broker.identity(), at(0)); }).ok());
        ServiceBusTopic topic;
        topic.name = "events";
        for (const char *name : {"audit", "mail"}) {
            ServiceBusSubscription subscription;
            subscription.name = name;
            subscription.properties.name = serviceBusSubscriptionQueue("events", name);
            topic.subscriptions.push_back(subscription);
        }
        QVERIFY(broker.unit([&] { return servicebus_topics::create(broker.db(), topic, broker.identity(), at(0)); }).ok());
    }
    bool exists(const std::string &queue)
    {
        return *broker.db().queryInt64("SELECT count(*) FROM queues WHERE name = '" + queue + "'") == 1;
    }

    QueueTestBroker broker;
};

} // namespace

class ServiceBusAdminTest final : public QObject {
    Q_OBJECT

private slots:
    void update_writesPropertiesAndQueueAttributes()
    {
        AdminBroker admin;
        QueueTestBroker &broker = admin.broker;
        ServiceBusQueueProperties changed = queueNamed("billing");
        changed.lockDuration = 120;
        changed.maxDeliveryCount = 4;
        changed.defaultMessageTimeToLive = 3600;
        QVERIFY(broker.unit([&] { return servicebus_admin::updateQueue(broker.db(), changed, broker.identity(), at(1)); }).ok());
        const auto found = broker.unit([&] { return servicebus_queues::find(broker.db(), "billing"); });
        QVERIFY(found.ok());
        QCOMPARE(found->properties, changed);
        const auto attributes = broker.unit([&] { return QueueCatalog(broker.db(), broker.identity()).queueAttributes("billing", {"All"}, at(1)); });
        QVERIFY(attributes.ok());
        QCOMPARE(attributes->at("VisibilityTimeout"), std::string("120"));
        const std::string redrive = attributes->at("RedrivePolicy");
        QVERIFY2(redrive.find("maxReceiveCount") != std::string::npos && redrive.find('4') != std::string::npos,
                 redrive.c_str());
        // A subscription by its queue name.
        ServiceBusQueueProperties subscription = queueNamed("events/Subscriptions/mail");
        subscription.lockDuration = 10;
        QVERIFY(broker.unit([&] { return servicebus_admin::updateQueue(broker.db(), subscription, broker.identity(), at(1)); }).ok());
        QCOMPARE(broker.unit([&] { return servicebus_queues::find(broker.db(), "events/Subscriptions/mail"); })
                     ->properties.lockDuration,
                 std::int64_t(10));
    }

    void update_refusesFixedPropertiesAndNonEntities_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("change");
        QTest::addColumn<int>("code");
        const int invalid = int(BrokerErrorCode::InvalidParameterValue);
        const int missing = int(BrokerErrorCode::QueueDoesNotExist);
        QTest::newRow("requires session") << "billing" << "RequiresSession" << invalid;
        QTest::newRow("requires duplicate detection") << "billing" << "RequiresDuplicateDetection" << invalid;
        QTest::newRow("a dead-letter sub-queue") << "billing/$DeadLetterQueue" << "LockDuration" << missing;
        QTest::newRow("no such queue") << "nowhere" << "LockDuration" << missing;
    }

    void update_refusesFixedPropertiesAndNonEntities()
    {
        QFETCH(QString, name);
        QFETCH(QString, change);
        QFETCH(int, code);
        AdminBroker admin;
        QueueTestBroker &broker = admin.broker;
        ServiceBusQueueProperties changed = queueNamed(name.toStdString());
        if (change == QLatin1String("RequiresSession"))
            changed.requiresSession = true;
        else if (change == QLatin1String("RequiresDuplicateDetection"))
            changed.requiresDuplicateDetection = true;
        else
            changed.lockDuration = 30;
        const Status updated =
            broker.unit([&] { return servicebus_admin::updateQueue(broker.db(), changed, broker.identity(), at(1)); });
        QVERIFY(!updated.ok());
        QCOMPARE(int(updated.error().code), code);
        if (code == int(BrokerErrorCode::InvalidParameterValue))
            QVERIFY(updated.error().message.find(change.toStdString()) != std::string::npos);
        QCOMPARE(broker.unit([&] { return servicebus_queues::find(broker.db(), "billing"); })->properties,
                 queueNamed("billing"));
    }

    void deletes_takeSubQueuesAlong()
    {
        AdminBroker admin;
        QueueTestBroker &broker = admin.broker;
        // A subscription is no queue, a queue no subscription.
        QVERIFY(!broker.unit([&] { return servicebus_admin::deleteQueue(broker.db(), "events/Subscriptions/audit"); }).ok());
        QVERIFY(!broker.unit([&] { return servicebus_admin::deleteSubscription(broker.db(), "billing", "x"); }).ok());
        QVERIFY(!broker.unit([&] { return servicebus_admin::deleteTopic(broker.db(), "billing"); }).ok());

        auto deleted = broker.unit([&] { return servicebus_admin::deleteQueue(broker.db(), "billing"); });
        QVERIFY(deleted.ok());
        QCOMPARE(*deleted, (std::vector<std::string>{"billing/$DeadLetterQueue", "billing"}));
        QVERIFY(!admin.exists("billing") && !admin.exists("billing/$DeadLetterQueue"));

        deleted = broker.unit([&] { return servicebus_admin::deleteSubscription(broker.db(), "events", "audit"); });
        QVERIFY(deleted.ok());
        QCOMPARE(deleted->size(), std::size_t(2));
        QCOMPARE(broker.unit([&] { return servicebus_topics::find(broker.db(), "events"); })->subscriptions.size(),
                 std::size_t(1));

        deleted = broker.unit([&] { return servicebus_admin::deleteTopic(broker.db(), "events"); });
        QVERIFY(deleted.ok());
        QCOMPARE(*deleted, (std::vector<std::string>{"events/Subscriptions/mail/$DeadLetterQueue",
                                                     "events/Subscriptions/mail"}));
        QVERIFY(!broker.unit([&] { return servicebus_topics::find(broker.db(), "events"); }).ok());
        QCOMPARE(*broker.db().queryInt64("SELECT count(*) FROM queues"), std::int64_t(0));
    }
};

RELAYDESK_TEST_MAIN(ServiceBusAdminTest)
#include "servicebus_admin_test.moc"
