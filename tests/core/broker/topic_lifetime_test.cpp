// SPDX-License-Identifier: MIT
// Topic and subscription lifetime (docs/behaviour.md §6): auto-delete on idle with its
// due time, what counts as use, FIFO topic dedup window and orphaned
// published messages.
#include "topic_test_support.h"

#include "broker/topics/topic_lifetime.h"
#include "support/test_main.h"

using namespace relaydesk;
using namespace relaydesk::testing;

class TopicLifetimeTest final : public QObject {
    Q_OBJECT

private slots:
    void idleTopic_deletedAfterItsTime_data()
    {
        QTest::addColumn<QString>("use");          // what happens at t=200
        QTest::addColumn<double>("expectedDue");   // seconds
        QTest::newRow("nothing") << "" << 300.0;
        QTest::newRow("publish") << "publish" << 500.0;
        QTest::newRow("attribute change") << "attribute" << 500.0;
        QTest::newRow("subscribe is no use") << "subscribe" << 300.0;
    }
    void idleTopic_deletedAfterItsTime()
    {
        QFETCH(QString, use);
        QFETCH(double, expectedDue);
        TopicTestBroker broker;
        QVERIFY(broker.createTopic("orders", {{"AutoDeleteOnIdle", "300"}}, at(0)).ok());
        if (use == "publish")
            QVERIFY(broker.publish("orders", "m", at(200)).ok());
        else if (use == "attribute")
            QVERIFY(broker.unit([&] { return broker.topics().setTopicAttribute("orders", "DisplayName", "x", at(200)); }).ok());
        else if (use == "subscribe")
            QVERIFY(broker.subscribe("orders", "http", "http://h/x", {}, true, at(200)).ok());
        Result<TopicDueTimes> due = broker.unit([&] { return topic_lifetime::dueTimes(broker.db()); });
        QVERIFY(due.ok());
        QCOMPARE(due->nextAutoDelete.value_or(ClockTime{}), at(expectedDue));
        Result<std::vector<std::string>> early =
            broker.unit([&] { return topic_lifetime::deleteIdleTopics(broker.db(), at(expectedDue - 0.001)); });
        QVERIFY(early->empty());
        Result<std::vector<std::string>> deleted =
            broker.unit([&] { return topic_lifetime::deleteIdleTopics(broker.db(), at(expectedDue)); });
        QCOMPARE(*deleted, std::vector<std::string>{"orders"});
        QCOMPARE(broker.count("SELECT count(*) FROM topics"), std::int64_t(0));
        QCOMPARE(broker.count("SELECT count(*) FROM subscriptions"), std::int64_t(0));
    }

    void idleSubscription_deliveryCountsAsUse()
    {
        TopicTestBroker broker;
        QVERIFY(broker.createTopic("orders").ok());
        const std::string queueArn = broker.subscribeQueue("orders", "inbox", {{"AutoDeleteOnIdle", "300"}});
        Result<SubscribeReceipt> http =
            broker.subscribe("orders", "http", "http://h/x", {{"AutoDeleteOnIdle", "300"}}, true, at(0));
        QVERIFY(broker.publish("orders", "m", at(100)).ok());
        Result<TopicDueTimes> due = broker.unit([&] { return topic_lifetime::dueTimes(broker.db()); });
        QCOMPARE(due->nextAutoDelete.value_or(ClockTime{}), at(300));   // the http one: not delivered yet
        Result<std::vector<std::string>> deleted =
            broker.unit([&] { return topic_lifetime::deleteIdleSubscriptions(broker.db(), at(300)); });
        QCOMPARE(deleted->size(), std::size_t(1));
        QVERIFY(http->subscriptionArn.ends_with(deleted->front()));
        QCOMPARE(broker.count("SELECT count(*) FROM pending_deliveries"), std::int64_t(0));
        Result<std::int64_t> orphans =
            broker.unit([&] { return topic_lifetime::forgetUndeliverablePublishedMessages(broker.db()); });
        QCOMPARE(*orphans, std::int64_t(1));
        due = broker.unit([&] { return topic_lifetime::dueTimes(broker.db()); });
        QCOMPARE(due->nextAutoDelete.value_or(ClockTime{}), at(400));
        QVERIFY(broker.unit([&] {
            return topic_lifetime::markSubscriptionUsed(broker.db(), broker.count("SELECT id FROM subscriptions"), at(350));
        }).ok());
        due = broker.unit([&] { return topic_lifetime::dueTimes(broker.db()); });
        QCOMPARE(due->nextAutoDelete.value_or(ClockTime{}), at(650));
        Q_UNUSED(queueArn);
    }

    void noAutoDelete_noDueTime()
    {
        TopicTestBroker broker;
        QVERIFY(broker.createTopic("orders").ok());
        broker.subscribeQueue("orders", "inbox");
        Result<TopicDueTimes> due = broker.unit([&] { return topic_lifetime::dueTimes(broker.db()); });
        QVERIFY(!due->nextAutoDelete);
        QVERIFY(!due->nextDedupExpiry);
    }

    void fifoDedupWindow_forgotten()
    {
        TopicTestBroker broker;
        QVERIFY(broker.createTopic("events.fifo", {{"FifoTopic", "true"}, {"ContentBasedDeduplication", "true"}}).ok());
        PublishRequest request;
        request.message = "m";
        request.groupId = "g";
        QVERIFY(broker.publish("events.fifo", request, at(10)).ok());
        Result<TopicDueTimes> due = broker.unit([&] { return topic_lifetime::dueTimes(broker.db()); });
        QCOMPARE(due->nextDedupExpiry.value_or(ClockTime{}), at(310));
        Result<std::int64_t> none = broker.unit([&] { return topic_lifetime::forgetExpiredDeduplicationIds(broker.db(), at(309)); });
        QCOMPARE(*none, std::int64_t(0));
        Result<std::int64_t> one = broker.unit([&] { return topic_lifetime::forgetExpiredDeduplicationIds(broker.db(), at(310)); });
        QCOMPARE(*one, std::int64_t(1));
    }
};

RELAYDESK_TEST_MAIN(TopicLifetimeTest)
#include "topic_lifetime_test.moc"
