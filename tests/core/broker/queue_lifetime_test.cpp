// SPDX-License-Identifier: MIT
// Unit tests of message lifetime on queues (docs/behaviour.md §6): TTL and the queue's
// default TTL and retention as caps, scheduled messages (TTL from the
// scheduled time, list, cancel), expiry never returned, lock protection,
// dead-letter on expiry with its reason, auto-delete on idle, due times.

#include "broker/queues/dead_letter_queue.h"
#include "broker/queues/message_browser.h"
#include "broker/queues/message_lifetime.h"
#include "queue_test_support.h"
#include "support/test_main.h"

using namespace relaydesk;
using namespace relaydesk::testing;

Q_DECLARE_METATYPE(relaydesk::BrokerErrorCode)

class QueueLifetimeTest final : public QObject {
    Q_OBJECT

private slots:
    void ttl_capsAndDefaults_expiresAt_data();
    void ttl_capsAndDefaults_expiresAt();
    void expired_neverReturned_removed();
    void scheduled_ttlFromScheduledTime();
    void scheduled_listAndCancel();
    void expiredUnderLock_keptUntilLockEnds_thenDeadLettered();
    void expired_noDeadLetterFlag_dropped();
    void autoDeleteOnIdle_afterIdlePeriodNotBefore();
    void dueTimes_nextOfEachKind();
    void dueTimes_lockedPastExpiry_dueWhenTheLockEnds();
    void receive_expiredBacklog_removesAFewReturnsOnlyLive_data();
    void receive_expiredBacklog_removesAFewReturnsOnlyLive();
    void expireEverywhere_inChunks_tellsWhenMoreIsDue();
};

void QueueLifetimeTest::ttl_capsAndDefaults_expiresAt_data()
{
    QTest::addColumn<QString>("defaultTtl");   // "" = none
    QTest::addColumn<int>("retention");
    QTest::addColumn<int>("messageTtl");       // -1 = none
    QTest::addColumn<int>("expiresAfter");
    QTest::newRow("nothing: retention default") << "" << 345600 << -1 << 345600;
    QTest::newRow("message ttl") << "" << 345600 << 60 << 60;
    QTest::newRow("default ttl used") << "100" << 345600 << -1 << 100;
    QTest::newRow("longer message ttl cut to default") << "100" << 345600 << 1000 << 100;
    QTest::newRow("shorter message ttl kept") << "100" << 345600 << 50 << 50;
    QTest::newRow("retention caps message ttl") << "" << 60 << 1000 << 60;
    QTest::newRow("retention caps default ttl") << "1000" << 120 << -1 << 120;
}

void QueueLifetimeTest::ttl_capsAndDefaults_expiresAt()
{
    QFETCH(QString, defaultTtl);
    QFETCH(int, retention);
    QFETCH(int, messageTtl);
    QFETCH(int, expiresAfter);
    QueueTestBroker broker;
    AttributeMap attributes{{"MessageRetentionPeriod", std::to_string(retention)}};
    if (!defaultTtl.isEmpty())
        attributes["DefaultMessageTimeToLive"] = defaultTtl.toStdString();
    QVERIFY(broker.create("q", attributes).ok());
    SendRequest request;
    request.body = "m";
    if (messageTtl >= 0)
        request.timeToLiveSeconds = messageTtl;
    QVERIFY(broker.send("q", request, at(10)).ok());
    Result<BrowsePage> page = browseQueue(broker.db(), "q", at(10));
    QCOMPARE(page->messages.at(0).expiresAt, std::optional<ClockTime>(at(10 + expiresAfter)));
}

void QueueLifetimeTest::expired_neverReturned_removed()
{
    QueueTestBroker broker;
    QVERIFY(broker.create("q").ok());
    SendRequest request;
    request.body = "short";
    request.timeToLiveSeconds = 60;
    QVERIFY(broker.send("q", request, at(0)).ok());
    QCOMPARE(browseQueue(broker.db(), "q", at(60))->messages.at(0).state, MessageState::Expired);
    QCOMPARE(broker.receiveBodies("q", 10, at(60)), QStringList{});
    QCOMPARE(broker.count("SELECT count(*) FROM messages"), 0);
}

void QueueLifetimeTest::scheduled_ttlFromScheduledTime()
{
    QueueTestBroker broker;
    QVERIFY(broker.create("q").ok());
    SendRequest request;
    request.body = "later";
    request.timeToLiveSeconds = 50;
    request.scheduledEnqueueTime = at(100);
    QVERIFY(broker.send("q", request, at(0)).ok());
    QCOMPARE(browseQueue(broker.db(), "q", at(1))->messages.at(0).state, MessageState::Scheduled);
    QCOMPARE(browseQueue(broker.db(), "q", at(1))->messages.at(0).expiresAt, std::optional<ClockTime>(at(150)));
    QCOMPARE(broker.receiveBodies("q", 1, at(99.999)), QStringList{});
    QCOMPARE(broker.receiveBodies("q", 1, at(100), 0), QStringList{"later"});
    QCOMPARE(broker.receiveBodies("q", 1, at(149.999), 0), QStringList{"later"});
    QCOMPARE(broker.receiveBodies("q", 1, at(150)), QStringList{});
}

void QueueLifetimeTest::scheduled_listAndCancel()
{
    QueueTestBroker broker;
    QVERIFY(broker.create("q").ok());
    SendRequest request;
    request.body = "b";
    request.scheduledEnqueueTime = at(200);
    Result<SendReceipt> second = broker.send("q", request, at(0));
    request.body = "a";
    request.scheduledEnqueueTime = at(100);
    Result<SendReceipt> first = broker.send("q", request, at(0));
    QVERIFY(broker.send("q", "now", at(0)).ok());
    Result<std::vector<ScheduledMessage>> listed = message_lifetime::scheduledMessages(broker.db(), "q", at(1));
    QCOMPARE(listed->size(), std::size_t(2));
    QCOMPARE(listed->at(0).messageId, first->messageId);
    QCOMPARE(listed->at(0).scheduledEnqueueTime, at(100));
    QVERIFY(message_lifetime::cancelScheduledMessage(broker.db(), "q", second->messageId, at(2)).ok());
    QCOMPARE(message_lifetime::cancelScheduledMessage(broker.db(), "q", first->messageId, at(100)).error().code,
             BrokerErrorCode::ResourceNotFound);
    QCOMPARE(message_lifetime::scheduledMessages(broker.db(), "q", at(100))->size(), std::size_t(0));
    QCOMPARE(broker.count("SELECT count(*) FROM messages"), 2);
}

void QueueLifetimeTest::expiredUnderLock_keptUntilLockEnds_thenDeadLettered()
{
    QueueTestBroker broker;
    QVERIFY(broker.create("dlq").ok());
    QVERIFY(broker.create("q", {{"DeadLetteringOnMessageExpiration", "true"},
                                {"RedrivePolicy", R"({"deadLetterTargetArn":"arn:aws:sqs:us-east-1:000000000000:dlq","maxReceiveCount":10})"}})
                .ok());
    SendRequest request;
    request.body = "m";
    request.timeToLiveSeconds = 60;
    QVERIFY(broker.send("q", request, at(0)).ok());
    QCOMPARE(broker.receiveBodies("q", 1, at(50), 30), QStringList{"m"});   // locked until 80
    QCOMPARE(broker.unit([&] { return message_lifetime::applyExpiryEverywhere(broker.db(), at(70)); }).value(), 0);
    QCOMPARE(browseQueue(broker.db(), "q", at(70))->messages.at(0).state, MessageState::InFlight);
    // The holder may still delete it while the lock holds.
    QVERIFY(broker.unit([&] {
        return MessageReceiver(broker.db(), broker.ids()).changeVisibility("q", broker.handleOf("m"), 10, at(75));
    }).ok());
    QCOMPARE(broker.unit([&] { return message_lifetime::applyExpiryEverywhere(broker.db(), at(84.999)); }).value(), 0);
    QCOMPARE(broker.unit([&] { return message_lifetime::applyExpiryEverywhere(broker.db(), at(85)); }).value(), 1);
    QCOMPARE(broker.count("SELECT count(*) FROM messages WHERE queue_id = (SELECT id FROM queues WHERE name = 'q')"), 0);
    Result<BrowsePage> dead = browseQueue(broker.db(), "dlq", at(86));
    QCOMPARE(dead->messages.size(), std::size_t(1));
    QCOMPARE(dead->messages[0].state, MessageState::DeadLettered);
    QCOMPARE(dead->messages[0].deadLetterReason, std::optional<std::string>(std::string(kTtlExpiredException)));
    QCOMPARE(dead->messages[0].sourceQueue, std::optional<std::string>("q"));
    QCOMPARE(broker.receiveBodies("dlq", 1, at(87)), QStringList{"m"});
}

void QueueLifetimeTest::expired_noDeadLetterFlag_dropped()
{
    QueueTestBroker broker;
    QVERIFY(broker.create("dlq").ok());
    QVERIFY(broker.create("q", {{"RedrivePolicy", R"({"deadLetterTargetArn":"arn:aws:sqs:us-east-1:000000000000:dlq","maxReceiveCount":10})"}})
                .ok());
    SendRequest request;
    request.body = "m";
    request.timeToLiveSeconds = 5;
    QVERIFY(broker.send("q", request, at(0)).ok());
    QCOMPARE(broker.receiveBodies("q", 1, at(5)), QStringList{});
    QCOMPARE(broker.count("SELECT count(*) FROM messages"), 0);
}

void QueueLifetimeTest::autoDeleteOnIdle_afterIdlePeriodNotBefore()
{
    QueueTestBroker broker;
    QVERIFY(broker.create("idle", {{"AutoDeleteOnIdle", "300"}}).ok());
    QVERIFY(broker.create("kept").ok());
    QVERIFY(broker.send("idle", "m", at(100)).ok());   // use resets the idle clock
    auto sweep = [&](double seconds) {
        return broker.unit([&] { return message_lifetime::deleteIdleQueues(broker.db(), at(seconds)); }).value();
    };
    QCOMPARE(sweep(399.999).size(), std::size_t(0));
    QCOMPARE(broker.receiveBodies("idle", 1, at(350)), QStringList{"m"});
    QCOMPARE(sweep(649.999).size(), std::size_t(0));
    const std::vector<std::string> deleted = sweep(650);
    QCOMPARE(deleted, std::vector<std::string>{"idle"});
    QCOMPARE(broker.count("SELECT count(*) FROM queues"), 1);
}

void QueueLifetimeTest::dueTimes_nextOfEachKind()
{
    QueueTestBroker broker;
    QVERIFY(broker.create("q", {{"AutoDeleteOnIdle", "300"}}).ok());
    SendRequest request;
    request.body = "m";
    request.timeToLiveSeconds = 100;
    request.delaySeconds = 20;
    QVERIFY(broker.send("q", request, at(0)).ok());
    Result<QueueDueTimes> due = message_lifetime::dueTimes(broker.db(), at(1));
    QCOMPARE(due->nextExpiry, std::optional<ClockTime>(at(100)));
    QCOMPARE(due->nextAutoDelete, std::optional<ClockTime>(at(300)));
}

void QueueLifetimeTest::dueTimes_lockedPastExpiry_dueWhenTheLockEnds()
{
    QueueTestBroker broker;
    QVERIFY(broker.create("q", {{"VisibilityTimeout", "60"}}).ok());
    SendRequest request;
    request.body = "m";
    request.timeToLiveSeconds = 10;
    QVERIFY(broker.send("q", request, at(0)).ok());
    QCOMPARE(broker.receiveBodies("q", 1, at(5)), QStringList{"m"});   // locked until 65
    QCOMPARE(message_lifetime::dueTimes(broker.db(), at(1))->nextExpiry, std::optional<ClockTime>(at(10)));
    QCOMPARE(message_lifetime::dueTimes(broker.db(), at(10))->nextExpiry, std::optional<ClockTime>(at(65)));
    // Its lock over, it waits for its expiry: due now.
    QCOMPARE(message_lifetime::dueTimes(broker.db(), at(65))->nextExpiry, std::optional<ClockTime>(at(65)));
    QVERIFY(broker.unit([&] { return message_lifetime::expireEverywhere(broker.db(), at(65)); }).ok());
    QCOMPARE(message_lifetime::dueTimes(broker.db(), at(65))->nextExpiry, std::optional<ClockTime>());
}

RELAYDESK_TEST_MAIN(QueueLifetimeTest)
#include "queue_lifetime_test.moc"

// A receive removes at most a few expired messages itself (the lifetime
// unit's chunks take a backlog: bulk_removal.h) and never returns one of
// those still there.
void QueueLifetimeTest::receive_expiredBacklog_removesAFewReturnsOnlyLive_data()
{
    QTest::addColumn<bool>("fifo");
    QTest::newRow("standard") << false;
    QTest::newRow("fifo") << true;
}

void QueueLifetimeTest::receive_expiredBacklog_removesAFewReturnsOnlyLive()
{
    QFETCH(bool, fifo);
    const std::string queue = fifo ? "q.fifo" : "q";
    QueueTestBroker broker;
    AttributeMap attributes{{"MessageRetentionPeriod", "60"}};
    if (fifo)
        attributes["FifoQueue"] = "true";
    QVERIFY(broker.create(queue, attributes).ok());
    constexpr int kBacklog = 1000;
    for (int i = 0; i < kBacklog; ++i) {
        const std::string body = "old-" + std::to_string(i);
        auto sent = fifo ? broker.sendFifo(queue, body, "g", at(0)) : broker.send(queue, body, at(0));
        QVERIFY2(sent.ok(), sent ? "" : sent.error().message.c_str());
    }
    QVERIFY(fifo ? broker.sendFifo(queue, "fresh", "g", at(30)).ok() : broker.send(queue, "fresh", at(30)).ok());
    QCOMPARE(broker.receiveBodies(queue, 10, at(61)), QStringList{"fresh"});
    const int left = broker.count("SELECT count(*) FROM messages");
    QVERIFY2(left > 1 && left < kBacklog + 1, std::to_string(left).c_str());
}

void QueueLifetimeTest::expireEverywhere_inChunks_tellsWhenMoreIsDue()
{
    QueueTestBroker broker;
    QVERIFY(broker.create("a", {{"MessageRetentionPeriod", "60"}}).ok());
    QVERIFY(broker.create("b", {{"MessageRetentionPeriod", "60"}}).ok());
    for (int i = 0; i < 30; ++i) {
        QVERIFY(broker.send("a", "m", at(0)).ok());
        QVERIFY(broker.send("b", "m", at(0)).ok());
    }
    std::vector<std::int64_t> chunks;
    for (bool more = true; more;) {
        auto outcome = broker.unit([&] { return message_lifetime::expireEverywhere(broker.db(), at(61), 25); });
        QVERIFY(outcome.ok());
        chunks.push_back(outcome->expired);
        more = outcome->more;
        QVERIFY(chunks.size() < 10);
    }
    QCOMPARE(chunks, (std::vector<std::int64_t>{25, 25, 10}));
    QCOMPARE(broker.count("SELECT count(*) FROM messages"), 0);
}
