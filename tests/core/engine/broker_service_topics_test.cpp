// SPDX-License-Identifier: MIT
// BrokerService topic and subscription operations through the engine on a
// virtual clock, with their change events; PublishBatch waking a long poll;
// a receive keeping an sqs subscription alive; the lifetime timer reporting
// idle-deleted subscriptions and CountsChanged only for the queues expiry
// changed.
#include "engine/broker_service.h"

#include "support/engine_test_support.h"
#include "support/test_main.h"

#include <QTest>

#include <chrono>
#include <future>
#include <memory>

using namespace relaydesk;
using namespace relaydesk::testing;
using namespace std::chrono_literals;

namespace {
using Code = BrokerErrorCode;
using Kind = EntityChange::Kind;
using Entity = EntityChange::Entity;

EntityChange topicChange(Kind kind, const std::string &name) { return {kind, Entity::Topic, QString::fromStdString(name)}; }
EntityChange subscriptionChange(Kind kind, const std::string &arn)
{
    return {kind, Entity::Subscription, QString::fromStdString(arn)};
}
} // namespace

class BrokerServiceTopicsTest final : public QObject {
    Q_OBJECT

private:
    ServiceBenchSeries m_benches{"topics"};

    ServiceBench &bench() { return m_benches.bench(); }
    BrokerService &service() { return bench().service(); }

    Result<SubscriptionPage> subscriptionsOf(const std::string &topic)
    {
        return bench().call<SubscriptionPage>(
            [&](auto reply) { service().listSubscriptions(topic, "", nullptr, reply); });
    }

private slots:
    void initTestCase() { QVERIFY(m_benches.isValid()); }
    void init() { m_benches.open(); }
    void cleanup() { m_benches.close(); }

    // The topic's subscriptions go with it, and each reports Deleted.
    void deleteTopic_deletedEventsOnlyWhenItExisted_withItsSubscriptions()
    {
        QVERIFY(bench().createTopic("news"));
        QVERIFY(bench().createTopic("sports"));
        QVERIFY(bench().createQueue("inbox"));
        auto queued = bench().subscribe("news", "sqs", BrokerIdentity{}.queueArn("inbox"));
        auto pending = bench().subscribe("news", "http", "http://127.0.0.1:9/hook");
        auto other = bench().subscribe("sports", "sqs", BrokerIdentity{}.queueArn("inbox"));
        QVERIFY(queued.ok() && pending.ok() && other.ok());
        bench().settle();
        QSignalSpy spy(&bench().engine(), &BrokerEngine::changesPublished);
        QVERIFY(bench().callStatus([&](auto reply) { service().deleteTopic("news", nullptr, reply); }).ok());
        QVERIFY(bench().callStatus([&](auto reply) { service().deleteTopic("never", nullptr, reply); }).ok());
        QTRY_VERIFY_WITH_TIMEOUT(allChanges(spy).contains(topicChange(Kind::Deleted, "news")), kWaitMs);
        bench().settle();
        QCOMPARE(allChanges(spy), (QList<EntityChange>{topicChange(Kind::Deleted, "news"),
                                                        subscriptionChange(Kind::Deleted, queued->subscriptionArn),
                                                        subscriptionChange(Kind::Deleted, pending->subscriptionArn)}));
        auto left = subscriptionsOf("");
        QVERIFY(left.ok());
        QCOMPARE(left->subscriptions.size(), std::size_t(1));
        QVERIFY(bench().callStatus([&](auto reply) { service().deleteTopic("sports", nullptr, reply); }).ok());
        auto topics = bench().call<TopicPage>([&](auto reply) { service().listTopics("", nullptr, reply); });
        QVERIFY(topics.ok());
        QVERIFY(topics->topicArns.empty());
    }

    void listTopics_byName()
    {
        QVERIFY(bench().createTopic("b-topic"));
        QVERIFY(bench().createTopic("a-topic"));
        auto topics = bench().call<TopicPage>([&](auto reply) { service().listTopics("", nullptr, reply); });
        QVERIFY(topics.ok());
        QCOMPARE(topics->topicArns, (std::vector<std::string>{BrokerIdentity{}.topicArn("a-topic"),
                                                               BrokerIdentity{}.topicArn("b-topic")}));
        QVERIFY(topics->nextToken.empty());
    }

    void topicAttributesAndTags_changedEvents()
    {
        QVERIFY(bench().createTopic("news"));
        bench().settle();
        QSignalSpy spy(&bench().engine(), &BrokerEngine::changesPublished);
        QVERIFY(bench().callStatus([&](auto reply) {
                           service().setTopicAttribute("news", "DisplayName", "Daily news", nullptr, reply);
                       })
                    .ok());
        QVERIFY(bench().callStatus([&](auto reply) {
                           service().tagTopic("news", {{"team", "red"}, {"env", "dev"}}, nullptr, reply);
                       })
                    .ok());
        QVERIFY(bench().callStatus([&](auto reply) { service().untagTopic("news", {"env"}, nullptr, reply); }).ok());
        auto attributes =
            bench().call<AttributeMap>([&](auto reply) { service().getTopicAttributes("news", nullptr, reply); });
        QVERIFY(attributes.ok());
        QCOMPARE(attributes->at("DisplayName"), std::string("Daily news"));
        auto tags = bench().call<TopicTags>([&](auto reply) { service().listTopicTags("news", nullptr, reply); });
        QVERIFY(tags.ok());
        QCOMPARE(*tags, (TopicTags{{"team", "red"}}));
        QTRY_VERIFY_WITH_TIMEOUT(allChanges(spy).contains(topicChange(Kind::Changed, "news")), kWaitMs);

        const std::string before = bench().snapshot();
        auto refused = bench().callStatus(
            [&](auto reply) { service().setTopicAttribute("news", "NoSuchAttribute", "x", nullptr, reply); });
        QVERIFY(!refused.ok());
        QCOMPARE(refused.error().code, Code::SnsInvalidParameter);
        QCOMPARE(bench().snapshot(), before);
    }

    void confirmSubscription_pendingBecomesConfirmed()
    {
        QVERIFY(bench().createTopic("news"));
        auto pending = bench().subscribe("news", "http", "http://127.0.0.1:9/hook");
        QVERIFY(pending.ok());
        QVERIFY(pending->pendingConfirmation);
        bench().settle();
        QSignalSpy spy(&bench().engine(), &BrokerEngine::changesPublished);
        auto confirmed = bench().call<std::string>([&](auto reply) {
            service().confirmSubscription("news", pending->confirmationToken, nullptr, reply);
        });
        QVERIFY(confirmed.ok());
        QCOMPARE(*confirmed, pending->subscriptionArn);
        QTRY_VERIFY_WITH_TIMEOUT(allChanges(spy).contains(subscriptionChange(Kind::Changed, *confirmed)), kWaitMs);
        auto attributes = bench().call<AttributeMap>(
            [&](auto reply) { service().getSubscriptionAttributes(*confirmed, nullptr, reply); });
        QVERIFY(attributes.ok());
        QCOMPARE(attributes->at("PendingConfirmation"), std::string("false"));
        auto again = bench().call<std::string>([&](auto reply) {
            service().confirmSubscription("news", pending->confirmationToken, nullptr, reply);
        });
        QVERIFY(!again.ok());
        QCOMPARE(again.error().code, Code::SnsInvalidParameter);
    }

    void subscriptions_listSetAndUnsubscribe()
    {
        QVERIFY(bench().createTopic("news"));
        QVERIFY(bench().createTopic("sports"));
        QVERIFY(bench().createQueue("inbox"));
        auto first = bench().subscribe("news", "sqs", BrokerIdentity{}.queueArn("inbox"));
        auto second = bench().subscribe("sports", "sqs", BrokerIdentity{}.queueArn("inbox"));
        QVERIFY(first.ok() && second.ok());
        auto all = subscriptionsOf("");
        QVERIFY(all.ok());
        QCOMPARE(all->subscriptions.size(), std::size_t(2));
        auto news = subscriptionsOf("news");
        QVERIFY(news.ok());
        QCOMPARE(news->subscriptions.size(), std::size_t(1));
        QCOMPARE(news->subscriptions.front().subscriptionArn, first->subscriptionArn);

        bench().settle();
        QSignalSpy spy(&bench().engine(), &BrokerEngine::changesPublished);
        QVERIFY(bench().callStatus([&](auto reply) {
                           service().setSubscriptionAttribute(first->subscriptionArn, "RawMessageDelivery", "true",
                                                              nullptr, reply);
                       })
                    .ok());
        auto attributes = bench().call<AttributeMap>(
            [&](auto reply) { service().getSubscriptionAttributes(first->subscriptionArn, nullptr, reply); });
        QVERIFY(attributes.ok());
        QCOMPARE(attributes->at("RawMessageDelivery"), std::string("true"));
        QVERIFY(bench().callStatus([&](auto reply) { service().unsubscribe(second->subscriptionArn, nullptr, reply); })
                    .ok());
        QTRY_VERIFY_WITH_TIMEOUT(allChanges(spy).contains(subscriptionChange(Kind::Deleted, second->subscriptionArn)),
                                 kWaitMs);
        QVERIFY(allChanges(spy).contains(subscriptionChange(Kind::Changed, first->subscriptionArn)));
        auto left = subscriptionsOf("");
        QVERIFY(left.ok());
        QCOMPARE(left->subscriptions.size(), std::size_t(1));
        auto gone = bench().callStatus(
            [&](auto reply) { service().unsubscribe(second->subscriptionArn, nullptr, reply); });
        QVERIFY(!gone.ok());
        QCOMPARE(gone.error().code, Code::SnsNotFound);
    }

    void publishBatch_wakesLongPollOnSubscribedQueue()
    {
        QVERIFY(bench().createTopic("news"));
        QVERIFY(bench().createQueue("inbox"));
        QVERIFY(bench().subscribe("news", "sqs", BrokerIdentity{}.queueArn("inbox"), {{"RawMessageDelivery", "true"}}).ok());
        auto polled = bench().startLongPoll("inbox", 20, 10);
        QTRY_COMPARE_WITH_TIMEOUT(bench().waitingReceives(), std::size_t(1), kWaitMs);
        bench().settle();
        QSignalSpy spy(&bench().engine(), &BrokerEngine::changesPublished);
        PublishRequest one;
        one.message = "first";
        PublishRequest two;
        two.message = "second";
        std::vector<BatchEntry<PublishRequest>> entries{{"1", one}, {"2", two}};
        auto published = bench().call<std::vector<BatchEntryResult<PublishReceipt>>>(
            [&](auto reply) { service().publishBatch("news", entries, nullptr, reply); });
        QVERIFY(published.ok());
        QVERIFY(published->at(0).ok() && published->at(1).ok());
        QCOMPARE(polled.wait_for(std::chrono::milliseconds(kWaitMs)), std::future_status::ready);
        auto received = polled.get();
        QVERIFY(received.ok());
        QVERIFY(!received->messages.empty());
        QCOMPARE(received->messages.front().body, std::string("first"));
        QTRY_VERIFY_WITH_TIMEOUT(allChanges(spy).contains(queueChange(Kind::CountsChanged, "inbox")), kWaitMs);
    }

    void publishBatch_refusedWholeChangesNothing()
    {
        QVERIFY(bench().createTopic("news"));
        const std::string before = bench().snapshot();
        auto published = bench().call<std::vector<BatchEntryResult<PublishReceipt>>>(
            [&](auto reply) { service().publishBatch("news", {}, nullptr, reply); });
        QVERIFY(!published.ok());
        QCOMPARE(published.error().code, Code::SnsEmptyBatchRequest);
        QCOMPARE(bench().snapshot(), before);
    }

    void receive_keepsSqsSubscriptionFromIdleDeletion_data()
    {
        QTest::addColumn<bool>("receiveMeanwhile");
        QTest::newRow("received at 200 s: alive at 300 s") << true;
        QTest::newRow("idle: deleted at 300 s with a Deleted event") << false;
    }

    void receive_keepsSqsSubscriptionFromIdleDeletion()
    {
        QFETCH(bool, receiveMeanwhile);
        QVERIFY(bench().createTopic("news"));
        QVERIFY(bench().createQueue("inbox"));
        auto subscription = bench().subscribe("news", "sqs", BrokerIdentity{}.queueArn("inbox"), {{"AutoDeleteOnIdle", "300"}});
        QVERIFY(subscription.ok());
        QVERIFY(bench().engine().advanceClockAndWait(200s).ok());
        if (receiveMeanwhile)
            QVERIFY(bench().receive("inbox").ok());
        bench().settle();
        QSignalSpy spy(&bench().engine(), &BrokerEngine::changesPublished);
        QVERIFY(bench().engine().advanceClockAndWait(100s).ok());
        bench().settle();
        auto left = subscriptionsOf("news");
        QVERIFY(left.ok());
        QCOMPARE(left->subscriptions.size(), std::size_t(receiveMeanwhile ? 1 : 0));
        const EntityChange deleted = subscriptionChange(Kind::Deleted, subscription->subscriptionArn);
        if (receiveMeanwhile) {
            QVERIFY(!allChanges(spy).contains(deleted));
            QVERIFY(bench().engine().advanceClockAndWait(200s).ok()); // 300 s after the receive
            auto later = subscriptionsOf("news");
            QVERIFY(later.ok());
            QCOMPARE(later->subscriptions.size(), std::size_t(0));
        } else {
            QTRY_VERIFY_WITH_TIMEOUT(allChanges(spy).contains(deleted), kWaitMs);
        }
    }

    void expiry_reportsCountsOnlyForQueuesItChanged()
    {
        QVERIFY(bench().createQueue("dead"));
        const std::string redrive = redriveTo("dead", 5);
        QVERIFY(bench().createQueue("expiring", {{"RedrivePolicy", redrive}, {"DeadLetteringOnMessageExpiration", "true"}}));
        QVERIFY(bench().createQueue("bystander"));
        SendRequest shortLived;
        shortLived.body = "stale soon";
        shortLived.timeToLiveSeconds = 10;
        QVERIFY(bench().call<SendReceipt>([&](auto reply) {
                           service().sendMessage("expiring", shortLived, nullptr, reply);
                       })
                    .ok());
        bench().settle();
        QSignalSpy spy(&bench().engine(), &BrokerEngine::changesPublished);
        QVERIFY(bench().engine().advanceClockAndWait(11s).ok());
        QTRY_VERIFY_WITH_TIMEOUT(allChanges(spy).contains(queueChange(Kind::CountsChanged, "expiring")), kWaitMs);
        bench().settle();
        const QList<EntityChange> changes = allChanges(spy);
        QVERIFY(changes.contains(queueChange(Kind::CountsChanged, "dead")));
        QVERIFY(!changes.contains(queueChange(Kind::CountsChanged, "bystander")));
    }

    void idleQueue_deletedEvent()
    {
        QVERIFY(bench().createQueue("brief", {{"AutoDeleteOnIdle", "300"}}));
        bench().settle();
        QSignalSpy spy(&bench().engine(), &BrokerEngine::changesPublished);
        QVERIFY(bench().engine().advanceClockAndWait(300s).ok());
        QTRY_VERIFY_WITH_TIMEOUT(allChanges(spy).contains(queueChange(Kind::Deleted, "brief")), kWaitMs);
    }
};

RELAYDESK_TEST_MAIN(BrokerServiceTopicsTest)
#include "broker_service_topics_test.moc"
