// SPDX-License-Identifier: MIT
// Restart (docs/behaviour.md §9): the database file is closed and reopened mid-scenario —
// in-flight messages and their visibility, delays, scheduled messages, FIFO
// gating, deduplication windows, receive counts — and everything continues.

#include "broker/queues/message_lifetime.h"
#include "queue_test_support.h"
#include "support/test_main.h"

using namespace relaydesk;
using namespace relaydesk::testing;

class QueueRestartTest final : public QObject {
    Q_OBJECT

private slots:
    void restart_standardQueue_continues();
    void restart_fifoQueue_continues();
    void restart_refusedOperation_leftNothing();
};

void QueueRestartTest::restart_standardQueue_continues()
{
    QueueTestBroker broker;
    QVERIFY(broker.create("q").ok());
    QVERIFY(broker.send("q", "inflight", at(0)).ok());
    QCOMPARE(broker.receiveBodies("q", 1, at(1)), QStringList{"inflight"});
    SendRequest delayed;
    delayed.body = "delayed";
    delayed.delaySeconds = 60;
    QVERIFY(broker.send("q", delayed, at(2)).ok());
    SendRequest scheduled;
    scheduled.body = "scheduled";
    scheduled.scheduledEnqueueTime = at(100);
    scheduled.timeToLiveSeconds = 10;
    QVERIFY(broker.send("q", scheduled, at(2)).ok());

    broker.reopen();

    QCOMPARE(broker.receiveBodies("q", 10, at(30.999)), QStringList{});
    QCOMPARE(message_lifetime::scheduledMessages(broker.db(), "q", at(31))->size(), std::size_t(1));
    Result<ReceiveResult> back = broker.receive("q", {}, at(31));
    QCOMPARE(back->messages.size(), std::size_t(1));
    QCOMPARE(back->messages[0].approximateReceiveCount, 2);
    QCOMPARE(back->messages[0].approximateFirstReceiveTimestamp, at(1));
    broker.reopen();
    QVERIFY(broker.remove("q", back->messages[0].receiptHandle, at(32)).ok());
    QCOMPARE(broker.receiveBodies("q", 10, at(62)), QStringList{"delayed"});
    broker.reopen();
    QCOMPARE(broker.receiveBodies("q", 10, at(100)), (QStringList{"delayed", "scheduled"}));
    QCOMPARE(broker.receiveBodies("q", 10, at(131)), QStringList{"delayed"});   // scheduled expired at 110, under lock until 130
}

void QueueRestartTest::restart_fifoQueue_continues()
{
    QueueTestBroker broker;
    QVERIFY(broker.create("q.fifo", {{"FifoQueue", "true"}}).ok());
    Result<SendReceipt> first = broker.sendFifo("q.fifo", "g1", "g", at(0));
    QVERIFY(broker.sendFifo("q.fifo", "g2", "g", at(0)).ok());
    QCOMPARE(broker.receiveBodies("q.fifo", 1, at(1)), QStringList{"g1"});

    broker.reopen();

    QCOMPARE(broker.receiveBodies("q.fifo", 10, at(2)), QStringList{});   // still gated
    Result<SendReceipt> duplicate = broker.sendFifo("q.fifo", "g1", "g", at(3));
    QVERIFY(duplicate->duplicate);
    QCOMPARE(duplicate->messageId, first->messageId);
    QVERIFY(broker.remove("q.fifo", broker.handleOf("g1"), at(4)).ok());

    broker.reopen();

    QCOMPARE(broker.receiveBodies("q.fifo", 10, at(5)), QStringList{"g2"});
    QVERIFY(broker.sendFifo("q.fifo", "g1", "g", at(299))->duplicate);
    QVERIFY(!broker.sendFifo("q.fifo", "g1", "g", at(300))->duplicate);
}

void QueueRestartTest::restart_refusedOperation_leftNothing()
{
    QueueTestBroker broker;
    QVERIFY(broker.create("q").ok());
    QVERIFY(broker.send("q", "m", at(0)).ok());
    const std::string before = broker.snapshot();
    std::vector<BatchEntry<SendRequest>> entries(11);
    for (std::size_t i = 0; i < entries.size(); ++i)
        entries[i] = {"e" + std::to_string(i), {}};
    QVERIFY(!broker.unit([&] { return MessageSender(broker.db(), broker.ids()).sendBatch("q", entries, at(1)); }).ok());
    broker.reopen();
    QCOMPARE(broker.snapshot(), before);
}

RELAYDESK_TEST_MAIN(QueueRestartTest)
#include "queue_restart_test.moc"
