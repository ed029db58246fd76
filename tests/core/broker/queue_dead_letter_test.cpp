// SPDX-License-Identifier: MIT
// Unit tests of dead-letter queues (docs/behaviour.md §5.3): a message received
// maxReceiveCount times moves on the next receive, FIFO to FIFO, the source
// list, and the move back to the source or a chosen queue.

#include "broker/queues/dead_letter_queue.h"
#include "broker/queues/message_browser.h"
#include "queue_test_support.h"
#include "support/test_main.h"

using namespace relaydesk;
using namespace relaydesk::testing;

Q_DECLARE_METATYPE(relaydesk::BrokerErrorCode)

namespace {

AttributeMap redrive(const std::string &target, int maxReceiveCount, bool fifo = false)
{
    AttributeMap map{{"RedrivePolicy", R"({"deadLetterTargetArn":"arn:aws:sqs:us-east-1:000000000000:)" + target
                                           + R"(","maxReceiveCount":)" + std::to_string(maxReceiveCount) + "}"}};
    if (fifo)
        map["FifoQueue"] = "true";
    return map;
}

} // namespace

class QueueDeadLetterTest final : public QObject {
    Q_OBJECT

private slots:
    void receivedMaxTimes_movesOnNextReceive_data();
    void receivedMaxTimes_movesOnNextReceive();
    void fifo_movesToFifo_groupUnblocked();
    void fifoSource_standardTarget_refused();
    void deadLetterQueueDeleted_messageStays();
    void moveBack_toSource_availableAgain();
    void moveBack_toChosenQueue_andLimits();
    void moveBack_notADeadLetterQueue_resourceNotFound();
    void moveBack_sourceGone_neverTakenAndCounted();
};

void QueueDeadLetterTest::receivedMaxTimes_movesOnNextReceive_data()
{
    QTest::addColumn<int>("maxReceiveCount");
    QTest::newRow("1") << 1;
    QTest::newRow("3") << 3;
}

void QueueDeadLetterTest::receivedMaxTimes_movesOnNextReceive()
{
    QFETCH(int, maxReceiveCount);
    QueueTestBroker broker;
    QVERIFY(broker.create("dlq").ok());
    QVERIFY(broker.create("q", redrive("dlq", maxReceiveCount)).ok());
    Result<SendReceipt> sent = broker.send("q", "poison", at(0));
    for (int i = 0; i < maxReceiveCount; ++i)
        QCOMPARE(broker.receiveBodies("q", 1, at(100.0 * i), 0), QStringList{"poison"});
    QCOMPARE(broker.receiveBodies("q", 1, at(1000)), QStringList{});
    QCOMPARE(broker.count("SELECT count(*) FROM messages WHERE queue_id = (SELECT id FROM queues WHERE name = 'q')"), 0);
    Result<ReceiveResult> dead = broker.receive("dlq", {}, at(1001));
    QCOMPARE(dead->messages.size(), std::size_t(1));
    QCOMPARE(dead->messages[0].messageId, sent->messageId);
    QCOMPARE(dead->messages[0].deadLetterReason, std::optional<std::string>(std::string(kMaxReceiveCountExceeded)));
    QCOMPARE(dead->messages[0].approximateReceiveCount, 1);
}

void QueueDeadLetterTest::fifo_movesToFifo_groupUnblocked()
{
    QueueTestBroker broker;
    QVERIFY(broker.create("dlq.fifo", {{"FifoQueue", "true"}}).ok());
    QVERIFY(broker.create("q.fifo", redrive("dlq.fifo", 1, true)).ok());
    QVERIFY(broker.sendFifo("q.fifo", "m1", "g", at(0)).ok());
    QVERIFY(broker.sendFifo("q.fifo", "m2", "g", at(0)).ok());
    QCOMPARE(broker.receiveBodies("q.fifo", 1, at(1), 0), QStringList{"m1"});
    // m1 was received once: the next receive moves it and returns m2.
    QCOMPARE(broker.receiveBodies("q.fifo", 1, at(2)), QStringList{"m2"});
    Result<ReceiveResult> dead = broker.receive("dlq.fifo", {}, at(3));
    QCOMPARE(dead->messages.size(), std::size_t(1));
    QCOMPARE(dead->messages[0].body, std::string("m1"));
    QCOMPARE(dead->messages[0].groupId, std::optional<std::string>("g"));
    QVERIFY(dead->messages[0].sequenceNumber);
}

void QueueDeadLetterTest::fifoSource_standardTarget_refused()
{
    QueueTestBroker broker;
    QVERIFY(broker.create("dlq").ok());
    Result<std::string> created = broker.create("q.fifo", redrive("dlq", 1, true));
    QCOMPARE(created.error().code, BrokerErrorCode::InvalidParameterValue);
    QCOMPARE(broker.count("SELECT count(*) FROM queues"), 1);
}

void QueueDeadLetterTest::deadLetterQueueDeleted_messageStays()
{
    QueueTestBroker broker;
    QVERIFY(broker.create("dlq").ok());
    QVERIFY(broker.create("q", redrive("dlq", 1)).ok());
    QVERIFY(broker.send("q", "m", at(0)).ok());
    QCOMPARE(broker.receiveBodies("q", 1, at(0), 0), QStringList{"m"});
    QVERIFY(broker.unit([&] { return QueueCatalog(broker.db(), broker.identity()).deleteQueue("dlq"); }).ok());
    QCOMPARE(broker.receiveBodies("q", 1, at(1)), QStringList{"m"});
}

void QueueDeadLetterTest::moveBack_toSource_availableAgain()
{
    QueueTestBroker broker;
    QVERIFY(broker.create("dlq").ok());
    QVERIFY(broker.create("q", redrive("dlq", 1)).ok());
    QVERIFY(broker.send("q", "m", at(0)).ok());
    QCOMPARE(broker.receiveBodies("q", 1, at(0), 0), QStringList{"m"});
    QCOMPARE(broker.receiveBodies("q", 1, at(1)), QStringList{});
    Result<MessageMoveOutcome> moved =
        broker.unit([&] { return moveDeadLettersBack(broker.db(), "dlq", std::nullopt, std::nullopt, at(2)); });
    QVERIFY(moved.ok());
    QCOMPARE(moved->moved, 1);
    Result<ReceiveResult> back = broker.receive("q", {}, at(3));
    QCOMPARE(back->messages.size(), std::size_t(1));
    QCOMPARE(back->messages[0].approximateReceiveCount, 1);
    QVERIFY(!back->messages[0].deadLetterReason);
}

void QueueDeadLetterTest::moveBack_toChosenQueue_andLimits()
{
    QueueTestBroker broker;
    QVERIFY(broker.create("dlq").ok());
    QVERIFY(broker.create("elsewhere").ok());
    QVERIFY(broker.create("other.fifo", {{"FifoQueue", "true"}}).ok());
    QVERIFY(broker.create("q", redrive("dlq", 1)).ok());
    for (const char *body : {"a", "b", "c"})
        QVERIFY(broker.send("q", body, at(0)).ok());
    QCOMPARE(broker.receiveBodies("q", 10, at(0), 0).size(), 3);
    QCOMPARE(broker.receiveBodies("q", 10, at(1)).size(), 0);
    QCOMPARE(broker.unit([&] {
                     return moveDeadLettersBack(broker.db(), "dlq", std::string("other.fifo"), std::nullopt, at(2));
                 }).error().code,
             BrokerErrorCode::InvalidParameterValue);
    Result<MessageMoveOutcome> moved = broker.unit(
        [&] { return moveDeadLettersBack(broker.db(), "dlq", std::string("elsewhere"), std::int64_t(2), at(2)); });
    QCOMPARE(moved->moved, 2);
    QCOMPARE(broker.receiveBodies("elsewhere", 10, at(3)), (QStringList{"a", "b"}));
    QCOMPARE(broker.receiveBodies("dlq", 10, at(3)), QStringList{"c"});
}

void QueueDeadLetterTest::moveBack_notADeadLetterQueue_resourceNotFound()
{
    QueueTestBroker broker;
    QVERIFY(broker.create("plain").ok());
    QCOMPARE(moveDeadLettersBack(broker.db(), "plain", std::nullopt, std::nullopt, at(0)).error().code,
             BrokerErrorCode::ResourceNotFound);
    QCOMPARE(moveDeadLettersBack(broker.db(), "nope", std::nullopt, std::nullopt, at(0)).error().code,
             BrokerErrorCode::QueueDoesNotExist);
}

void QueueDeadLetterTest::moveBack_sourceGone_neverTakenAndCounted()
{
    QueueTestBroker broker;
    QVERIFY(broker.create("dlq").ok());
    QVERIFY(broker.create("gone", redrive("dlq", 1)).ok());
    QVERIFY(broker.create("q", redrive("dlq", 1)).ok());
    QVERIFY(broker.send("gone", "orphan", at(0)).ok());
    QVERIFY(broker.send("q", "m", at(0)).ok());
    for (const char *queue : {"gone", "q"}) {
        QCOMPARE(broker.receiveBodies(queue, 1, at(0), 0).size(), 1);
        QCOMPARE(broker.receiveBodies(queue, 1, at(1)), QStringList{});
    }
    QVERIFY(broker.unit([&] { return QueueCatalog(broker.db(), broker.identity()).deleteQueue("gone"); }).ok());
    // A chunk of one takes the movable message, not the orphan before it; the orphan is counted as left.
    Result<MessageMoveOutcome> moved =
        broker.unit([&] { return moveDeadLettersBack(broker.db(), "dlq", std::nullopt, std::int64_t(1), at(2)); });
    QVERIFY(moved.ok());
    QCOMPARE(moved->moved, 1);
    QCOMPARE(moved->failed, 1);
    Result<MessageMoveOutcome> again =
        broker.unit([&] { return moveDeadLettersBack(broker.db(), "dlq", std::nullopt, std::int64_t(1), at(2)); });
    QCOMPARE(again->moved, 0);
    QCOMPARE(again->failed, 1);
    QCOMPARE(broker.receiveBodies("q", 1, at(3)), QStringList{"m"});
}

RELAYDESK_TEST_MAIN(QueueDeadLetterTest)
#include "queue_dead_letter_test.moc"
