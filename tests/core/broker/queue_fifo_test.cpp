// SPDX-License-Identifier: MIT
// Unit tests of FIFO queues (docs/behaviour.md §5.2): required group id, strict order per
// group, group gating while a message is in flight, same-group-first filling,
// 5-minute deduplication (by id or content hash, also after delete),
// receive-attempt ids, sequence numbers, delay per queue only.

#include "queue_test_support.h"
#include "support/test_main.h"

using namespace relaydesk;
using namespace relaydesk::testing;

Q_DECLARE_METATYPE(relaydesk::BrokerErrorCode)

namespace {

const AttributeMap kFifo{{"FifoQueue", "true"}};

} // namespace

class QueueFifoTest final : public QObject {
    Q_OBJECT

private slots:
    void send_invalid_errorAndNothingStored_data();
    void send_invalid_errorAndNothingStored();
    void sequenceNumbers_strictlyIncreasing();
    void group_inFlight_blockedUntilDelete();
    void group_inFlight_blockedUntilVisibilityExpires();
    void receive_sameGroupFirst_thenOtherGroups();
    void dedup_withinFiveMinutes_firstIdsNotEnqueued_data();
    void dedup_withinFiveMinutes_firstIdsNotEnqueued();
    void dedup_afterDelete_stillDropped();
    void dedup_contentBased_hashOfBody();
    void dedup_messageGroupScope_perGroup();
    void receiveAttempt_retried_sameHandles();
    void receiveAttempt_afterVisibilityExpired_newReceive();
    void queueDelay_appliesToFifo();
    void receive_manyBlockedBeforeOtherGroup_otherGroupFound();
};

void QueueFifoTest::send_invalid_errorAndNothingStored_data()
{
    QTest::addColumn<QString>("group");   // "<none>" = absent
    QTest::addColumn<QString>("dedup");   // "<none>" = absent
    QTest::addColumn<int>("delay");       // -1 = absent
    QTest::addColumn<BrokerErrorCode>("code");
    QTest::newRow("no group id") << "<none>" << "d" << -1 << BrokerErrorCode::MissingParameter;
    QTest::newRow("group id 129") << QString(129, QLatin1Char('g')) << "d" << -1 << BrokerErrorCode::InvalidParameterValue;
    QTest::newRow("dedup id 129") << "g" << QString(129, QLatin1Char('d')) << -1 << BrokerErrorCode::InvalidParameterValue;
    QTest::newRow("no dedup, no content-based") << "g" << "<none>" << -1 << BrokerErrorCode::InvalidParameterValue;
    QTest::newRow("per-message delay") << "g" << "d" << 5 << BrokerErrorCode::InvalidParameterValue;
    QTest::newRow("per-message delay 0") << "g" << "d" << 0 << BrokerErrorCode::InvalidParameterValue;
}

void QueueFifoTest::send_invalid_errorAndNothingStored()
{
    QFETCH(QString, group);
    QFETCH(QString, dedup);
    QFETCH(int, delay);
    QFETCH(BrokerErrorCode, code);
    QueueTestBroker broker;
    QVERIFY(broker.create("q.fifo", kFifo).ok());
    QVERIFY(broker.sendFifo("q.fifo", "first", "g", at(0)).ok());
    const std::string before = broker.snapshot();
    SendRequest request;
    request.body = "x";
    if (group != "<none>")
        request.groupId = group.toStdString();
    if (dedup != "<none>")
        request.deduplicationId = dedup.toStdString();
    if (delay >= 0)
        request.delaySeconds = delay;
    Result<SendReceipt> sent = broker.send("q.fifo", request, at(1));
    QVERIFY(!sent.ok());
    QCOMPARE(sent.error().code, code);
    QCOMPARE(broker.snapshot(), before);
}

void QueueFifoTest::sequenceNumbers_strictlyIncreasing()
{
    QueueTestBroker broker;
    QVERIFY(broker.create("q.fifo", kFifo).ok());
    std::int64_t last = 0;
    for (int i = 0; i < 5; ++i) {
        Result<SendReceipt> sent = broker.sendFifo("q.fifo", "m" + std::to_string(i), i % 2 ? "a" : "b", at(i));
        QVERIFY(sent.ok());
        QVERIFY(sent->sequenceNumber);
        QVERIFY(*sent->sequenceNumber > last);
        last = *sent->sequenceNumber;
    }
    broker.reopen();
    Result<SendReceipt> afterRestart = broker.sendFifo("q.fifo", "after-restart", "a", at(10));
    QVERIFY2(afterRestart.ok(), afterRestart.ok() ? "" : afterRestart.error().message.c_str());
    QVERIFY(*afterRestart->sequenceNumber > last);
}

void QueueFifoTest::group_inFlight_blockedUntilDelete()
{
    QueueTestBroker broker;
    QVERIFY(broker.create("q.fifo", kFifo).ok());
    for (const char *body : {"g1", "g2", "g3"})
        QVERIFY(broker.sendFifo("q.fifo", body, "g", at(0)).ok());
    QCOMPARE(broker.receiveBodies("q.fifo", 1, at(1)), QStringList{"g1"});
    QCOMPARE(broker.receiveBodies("q.fifo", 10, at(2)), QStringList{});
    QCOMPARE(broker.receiveBodies("q.fifo", 10, at(20)), QStringList{});
    QVERIFY(broker.remove("q.fifo", broker.handleOf("g1"), at(21)).ok());
    QCOMPARE(broker.receiveBodies("q.fifo", 1, at(22)), QStringList{"g2"});
}

void QueueFifoTest::group_inFlight_blockedUntilVisibilityExpires()
{
    QueueTestBroker broker;
    QVERIFY(broker.create("q.fifo", kFifo).ok());
    for (const char *body : {"g1", "g2"})
        QVERIFY(broker.sendFifo("q.fifo", body, "g", at(0)).ok());
    QCOMPARE(broker.receiveBodies("q.fifo", 1, at(0)), QStringList{"g1"});
    QCOMPARE(broker.receiveBodies("q.fifo", 10, at(29.999)), QStringList{});
    // The lock ended: the same message comes back first, then the rest in order.
    QCOMPARE(broker.receiveBodies("q.fifo", 10, at(30)), (QStringList{"g1", "g2"}));
}

void QueueFifoTest::receive_sameGroupFirst_thenOtherGroups()
{
    QueueTestBroker broker;
    QVERIFY(broker.create("q.fifo", kFifo).ok());
    QVERIFY(broker.sendFifo("q.fifo", "a1", "a", at(0)).ok());
    QVERIFY(broker.sendFifo("q.fifo", "b1", "b", at(1)).ok());
    QVERIFY(broker.sendFifo("q.fifo", "a2", "a", at(2)).ok());
    QVERIFY(broker.sendFifo("q.fifo", "c1", "c", at(3)).ok());
    QVERIFY(broker.sendFifo("q.fifo", "b2", "b", at(4)).ok());
    QVERIFY(broker.sendFifo("q.fifo", "a3", "a", at(5)).ok());
    QCOMPARE(broker.receiveBodies("q.fifo", 4, at(10)), (QStringList{"a1", "a2", "a3", "b1"}));
    // a and b are in flight: only c remains.
    QCOMPARE(broker.receiveBodies("q.fifo", 10, at(11)), QStringList{"c1"});
}

void QueueFifoTest::dedup_withinFiveMinutes_firstIdsNotEnqueued_data()
{
    QTest::addColumn<double>("secondSendAt");
    QTest::addColumn<bool>("duplicate");
    QTest::newRow("same instant") << 0.0 << true;
    QTest::newRow("4:59.999 later") << 299.999 << true;
    QTest::newRow("5:00 later") << 300.0 << false;
}

void QueueFifoTest::dedup_withinFiveMinutes_firstIdsNotEnqueued()
{
    QFETCH(double, secondSendAt);
    QFETCH(bool, duplicate);
    QueueTestBroker broker;
    QVERIFY(broker.create("q.fifo", kFifo).ok());
    Result<SendReceipt> first = broker.sendFifo("q.fifo", "body", "g", at(0), "d1");
    Result<SendReceipt> second = broker.sendFifo("q.fifo", "other body", "g", at(secondSendAt), "d1");
    QVERIFY(second.ok());
    QCOMPARE(second->duplicate, duplicate);
    QCOMPARE(second->messageId == first->messageId, duplicate);
    QCOMPARE(second->sequenceNumber == first->sequenceNumber, duplicate);
    QCOMPARE(broker.count("SELECT count(*) FROM messages"), duplicate ? 1 : 2);
}

void QueueFifoTest::dedup_afterDelete_stillDropped()
{
    QueueTestBroker broker;
    QVERIFY(broker.create("q.fifo", kFifo).ok());
    Result<SendReceipt> first = broker.sendFifo("q.fifo", "body", "g", at(0), "d1");
    QCOMPARE(broker.receiveBodies("q.fifo", 1, at(1)), QStringList{"body"});
    QVERIFY(broker.remove("q.fifo", broker.handleOf("body"), at(2)).ok());
    Result<SendReceipt> again = broker.sendFifo("q.fifo", "body", "g", at(100), "d1");
    QVERIFY(again->duplicate);
    QCOMPARE(again->messageId, first->messageId);
    QCOMPARE(again->sequenceNumber, first->sequenceNumber);
    QCOMPARE(broker.count("SELECT count(*) FROM messages"), 0);
}

void QueueFifoTest::dedup_contentBased_hashOfBody()
{
    QueueTestBroker broker;
    QVERIFY(broker.create("q.fifo", {{"FifoQueue", "true"}, {"ContentBasedDeduplication", "true"}}).ok());
    SendRequest request;
    request.body = "same";
    request.groupId = "g";
    Result<SendReceipt> first = broker.send("q.fifo", request, at(0));
    QVERIFY(first.ok());
    QVERIFY(broker.send("q.fifo", request, at(1))->duplicate);
    request.body = "different";
    QVERIFY(!broker.send("q.fifo", request, at(2))->duplicate);
    QCOMPARE(broker.count("SELECT count(*) FROM messages"), 2);
}

void QueueFifoTest::dedup_messageGroupScope_perGroup()
{
    QueueTestBroker broker;
    QVERIFY(broker.create("q.fifo", {{"FifoQueue", "true"}, {"DeduplicationScope", "messageGroup"}}).ok());
    QVERIFY(!broker.sendFifo("q.fifo", "x", "a", at(0), "d")->duplicate);
    QVERIFY(!broker.sendFifo("q.fifo", "x", "b", at(0), "d")->duplicate);
    QVERIFY(broker.sendFifo("q.fifo", "x", "a", at(1), "d")->duplicate);
    Result<ReceiveResult> received = broker.receive("q.fifo", {}, at(2));
    QCOMPARE(received->messages.at(0).deduplicationId, std::optional<std::string>("d"));
}

void QueueFifoTest::receiveAttempt_retried_sameHandles()
{
    QueueTestBroker broker;
    QVERIFY(broker.create("q.fifo", kFifo).ok());
    for (const char *body : {"a1", "a2", "b1"})
        QVERIFY(broker.sendFifo("q.fifo", body, body[0] == 'a' ? "a" : "b", at(0)).ok());
    ReceiveRequest request;
    request.maxNumberOfMessages = 2;
    request.receiveRequestAttemptId = "attempt-1";
    Result<ReceiveResult> first = broker.receive("q.fifo", request, at(1));
    QCOMPARE(first->messages.size(), std::size_t(2));
    Result<ReceiveResult> retried = broker.receive("q.fifo", request, at(10));
    QCOMPARE(retried->messages.size(), std::size_t(2));
    for (std::size_t i = 0; i < 2; ++i) {
        QCOMPARE(retried->messages[i].receiptHandle, first->messages[i].receiptHandle);
        QCOMPARE(retried->messages[i].messageId, first->messages[i].messageId);
        QCOMPARE(retried->messages[i].approximateReceiveCount, 1);
    }
    broker.reopen();
    QCOMPARE(broker.receive("q.fifo", request, at(20))->messages.at(0).receiptHandle,
             first->messages[0].receiptHandle);
}

void QueueFifoTest::receiveAttempt_afterVisibilityExpired_newReceive()
{
    QueueTestBroker broker;
    QVERIFY(broker.create("q.fifo", kFifo).ok());
    QVERIFY(broker.sendFifo("q.fifo", "a1", "a", at(0)).ok());
    ReceiveRequest request;
    request.receiveRequestAttemptId = "attempt-1";
    Result<ReceiveResult> first = broker.receive("q.fifo", request, at(1));
    Result<ReceiveResult> later = broker.receive("q.fifo", request, at(31));
    QCOMPARE(later->messages.size(), std::size_t(1));
    QVERIFY(later->messages[0].receiptHandle != first->messages[0].receiptHandle);
    QCOMPARE(later->messages[0].approximateReceiveCount, 2);
}

void QueueFifoTest::queueDelay_appliesToFifo()
{
    QueueTestBroker broker;
    QVERIFY(broker.create("q.fifo", {{"FifoQueue", "true"}, {"DelaySeconds", "5"}}).ok());
    QVERIFY(broker.sendFifo("q.fifo", "a1", "a", at(0)).ok());
    QCOMPARE(broker.receiveBodies("q.fifo", 1, at(4.999)), QStringList{});
    QCOMPARE(broker.receiveBodies("q.fifo", 1, at(5)), QStringList{"a1"});
}

void QueueFifoTest::receive_manyBlockedBeforeOtherGroup_otherGroupFound()
{
    QueueTestBroker broker;
    QVERIFY(broker.create("q.fifo", kFifo).ok());
    QVERIFY(broker.unit([&]() -> Status {
        for (int i = 0; i < 600; ++i) {
            SendRequest request;
            request.body = "a" + std::to_string(i);
            request.groupId = "a";
            request.deduplicationId = request.body;
            if (Result<SendReceipt> sent = MessageSender(broker.db(), broker.ids()).send("q.fifo", request, at(0)); !sent)
                return sent.error();
        }
        return {};
    }).ok());
    QVERIFY(broker.sendFifo("q.fifo", "b0", "b", at(1)).ok());
    QCOMPARE(broker.receiveBodies("q.fifo", 10, at(2)).size(), 10);   // a0..a9, group a now in flight
    QCOMPARE(broker.receiveBodies("q.fifo", 10, at(3)), QStringList{"b0"});
}

RELAYDESK_TEST_MAIN(QueueFifoTest)
#include "queue_fifo_test.moc"
