// SPDX-License-Identifier: MIT
// Unit tests of browse (docs/behaviour.md §8.4): every message of a queue in every state,
// with its times, paged, without changing anything.

#include "broker/queues/message_browser.h"
#include "queue_test_support.h"
#include "support/test_main.h"

using namespace relaydesk;
using namespace relaydesk::testing;

Q_DECLARE_METATYPE(relaydesk::BrokerErrorCode)
Q_DECLARE_METATYPE(relaydesk::MessageState)

class QueueBrowseTest final : public QObject {
    Q_OBJECT

private slots:
    void browse_everyState_data();
    void browse_everyState();
    void browse_pages_allOnceInOrder();
    void browse_changesNothing();
    void browse_invalid_errors();
};

void QueueBrowseTest::browse_everyState_data()
{
    QTest::addColumn<QString>("body");
    QTest::addColumn<MessageState>("state");
    QTest::newRow("available") << "available" << MessageState::Available;
    QTest::newRow("in flight") << "inflight" << MessageState::InFlight;
    QTest::newRow("delayed") << "delayed" << MessageState::Delayed;
    QTest::newRow("scheduled") << "scheduled" << MessageState::Scheduled;
    QTest::newRow("expired") << "expired" << MessageState::Expired;
}

void QueueBrowseTest::browse_everyState()
{
    QFETCH(QString, body);
    QFETCH(MessageState, state);
    QueueTestBroker broker;
    QVERIFY(broker.create("q").ok());
    SendRequest request;
    request.body = "inflight";
    QVERIFY(broker.send("q", request, at(0)).ok());
    QCOMPARE(broker.receiveBodies("q", 1, at(1)), QStringList{"inflight"});
    request.body = "available";
    QVERIFY(broker.send("q", request, at(2)).ok());
    request.body = "delayed";
    request.delaySeconds = 100;
    QVERIFY(broker.send("q", request, at(2)).ok());
    request.delaySeconds.reset();
    request.body = "scheduled";
    request.scheduledEnqueueTime = at(500);
    QVERIFY(broker.send("q", request, at(2)).ok());
    request.scheduledEnqueueTime.reset();
    request.body = "expired";
    request.timeToLiveSeconds = 3;
    QVERIFY(broker.send("q", request, at(2)).ok());

    Result<BrowsePage> page = browseQueue(broker.db(), "q", at(10));
    QVERIFY(page.ok());
    QCOMPARE(page->messages.size(), std::size_t(5));
    for (const BrowsedMessage &message : page->messages)
        if (message.body == body.toStdString()) {
            QCOMPARE(message.state, state);
            if (state == MessageState::InFlight) {
                QCOMPARE(message.receiveCount, 1);
                QCOMPARE(message.firstReceive, std::optional<ClockTime>(at(1)));
                QCOMPARE(message.visibleAt, at(31));
            }
            if (state == MessageState::Scheduled)
                QCOMPARE(message.scheduledEnqueueTime, std::optional<ClockTime>(at(500)));
            if (state == MessageState::Delayed)
                QCOMPARE(message.visibleAt, at(102));
            return;
        }
    QFAIL("message not browsed");
}

void QueueBrowseTest::browse_pages_allOnceInOrder()
{
    QueueTestBroker broker;
    QVERIFY(broker.create("q").ok());
    for (int i = 0; i < 7; ++i)
        QVERIFY(broker.send("q", "m" + std::to_string(i), at(i)).ok());
    QStringList seen;
    std::optional<std::int64_t> token;
    int pages = 0;
    do {
        Result<BrowsePage> page = browseQueue(broker.db(), "q", at(10), token, 3);
        QVERIFY(page.ok());
        for (const BrowsedMessage &message : page->messages)
            seen << QString::fromStdString(message.body);
        // The first page carries the queue's depth (the window's "row N of M"), searching or not.
        QCOMPARE(page->total, token ? std::optional<std::int64_t>() : std::optional<std::int64_t>(7));
        token = page->nextPageToken;
        ++pages;
    } while (token);
    QCOMPARE(pages, 3);
    QCOMPARE(seen, (QStringList{"m0", "m1", "m2", "m3", "m4", "m5", "m6"}));
}

void QueueBrowseTest::browse_changesNothing()
{
    QueueTestBroker broker;
    QVERIFY(broker.create("q").ok());
    QVERIFY(broker.send("q", "m", at(0)).ok());
    const std::string before = broker.snapshot();
    QVERIFY(browseQueue(broker.db(), "q", at(5)).ok());
    QCOMPARE(broker.snapshot(), before);
    QCOMPARE(broker.receiveBodies("q", 1, at(6)), QStringList{"m"});
}

void QueueBrowseTest::browse_invalid_errors()
{
    QueueTestBroker broker;
    QVERIFY(broker.create("q").ok());
    QCOMPARE(browseQueue(broker.db(), "nope", at(0)).error().code, BrokerErrorCode::QueueDoesNotExist);
    QCOMPARE(browseQueue(broker.db(), "q", at(0), std::nullopt, 0).error().code, BrokerErrorCode::InvalidParameterValue);
    QCOMPARE(browseQueue(broker.db(), "q", at(0), std::nullopt, 1001).error().code,
             BrokerErrorCode::InvalidParameterValue);
}

RELAYDESK_TEST_MAIN(QueueBrowseTest)
#include "queue_browse_test.moc"
