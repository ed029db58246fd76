// SPDX-License-Identifier: MIT
// Unit tests of standard queues (docs/behaviour.md §5.1, 10): send and send-batch,
// receive with visibility timeout, receive counts, system attributes,
// delete, change visibility, purge, delay, and every limit with its error
// code and no change to the store. Time moves by passing later `now`. (The
// MD5 digests are the SQS layer's: tests/e2e sqs_scenarios.)

#include "queue_test_support.h"
#include "support/test_main.h"

#include <array>

using namespace relaydesk;
using namespace relaydesk::testing;

Q_DECLARE_METATYPE(relaydesk::BrokerErrorCode)

class QueueStandardTest final : public QObject {
    Q_OBJECT

private slots:
    void send_receive_bodyAndAttributesAsSent();
    void receive_visibilityTimeout_hiddenThenBack_data();
    void receive_visibilityTimeout_hiddenThenBack();
    void receive_again_countAndFirstReceiveKept();
    void receive_max_upToTen();
    void receive_nothingVisible_nextVisibleAtForLongPoll();
    void delete_handle_gone();
    void delete_staleHandle_succeedsAndKeepsMessage();
    void delete_foreignHandle_receiptHandleIsInvalid();
    void changeVisibility_extendsOrReleases();
    void changeVisibility_notInFlight_messageNotInflight();
    void delay_perMessageAndQueue_hidden();
    void purge_everyState_empty();
    void purge_againWithinSixtySeconds_purgeQueueInProgress_data();
    void purge_againWithinSixtySeconds_purgeQueueInProgress();
    void changeVisibility_twelveHoursSinceReceive_cap_data();
    void changeVisibility_twelveHoursSinceReceive_cap();
    void sendBatch_perEntryFailures_othersStored();
    void batch_wholeBatchRules_errorAndNothingStored_data();
    void batch_wholeBatchRules_errorAndNothingStored();
    void limits_invalid_errorAndNothingChanged_data();
    void limits_invalid_errorAndNothingChanged();
    void deleteBatch_andChangeVisibilityBatch_perEntry();
    void sendBatch_overOneMebibyte_batchRequestTooLong();
    void unknownQueue_everyOperation_queueDoesNotExist();
};

void QueueStandardTest::send_receive_bodyAndAttributesAsSent()
{
    QueueTestBroker broker;
    QVERIFY(broker.create("q").ok());
    SendRequest request;
    request.body = "hello";
    request.attributes["colour"] = {"String", "red", ""};
    request.attributes["bytes"] = {"Binary", "", std::string("\x00\x01", 2)};
    Result<SendReceipt> sent = broker.send("q", request, at(10));
    QVERIFY(sent.ok());
    QVERIFY(!sent->sequenceNumber);

    Result<ReceiveResult> received = broker.receive("q", {}, at(12));
    QVERIFY(received.ok());
    QCOMPARE(received->messages.size(), std::size_t(1));
    const ReceivedMessage &message = received->messages.front();
    QCOMPARE(message.messageId, sent->messageId);
    QCOMPARE(message.body, std::string("hello"));
    QVERIFY(message.attributes == request.attributes);
    QCOMPARE(message.sentTimestamp, at(10));
    QCOMPARE(message.approximateReceiveCount, 1);
    QCOMPARE(message.approximateFirstReceiveTimestamp, at(12));
    QVERIFY(!message.receiptHandle.empty());
}

void QueueStandardTest::receive_visibilityTimeout_hiddenThenBack_data()
{
    QTest::addColumn<int>("queueTimeout");
    QTest::addColumn<int>("requestTimeout");   // -1: none
    QTest::addColumn<int>("effective");
    QTest::newRow("queue default 30") << 30 << -1 << 30;
    QTest::newRow("queue 90") << 90 << -1 << 90;
    QTest::newRow("request 5 overrides") << 30 << 5 << 5;
    QTest::newRow("request 0: visible at once") << 30 << 0 << 0;
}

void QueueStandardTest::receive_visibilityTimeout_hiddenThenBack()
{
    QFETCH(int, queueTimeout);
    QFETCH(int, requestTimeout);
    QFETCH(int, effective);
    QueueTestBroker broker;
    QVERIFY(broker.create("q", {{"VisibilityTimeout", std::to_string(queueTimeout)}}).ok());
    QVERIFY(broker.send("q", "m", at(0)).ok());
    const std::optional<int> timeout = requestTimeout < 0 ? std::nullopt : std::optional<int>(requestTimeout);
    QCOMPARE(broker.receiveBodies("q", 1, at(100), timeout), QStringList{"m"});
    if (effective > 0)
        QCOMPARE(broker.receiveBodies("q", 1, at(100 + effective - 0.001)), QStringList{});
    QCOMPARE(broker.receiveBodies("q", 1, at(100 + effective)), QStringList{"m"});
}

void QueueStandardTest::receive_again_countAndFirstReceiveKept()
{
    QueueTestBroker broker;
    QVERIFY(broker.create("q").ok());
    QVERIFY(broker.send("q", "m", at(0)).ok());
    QVERIFY(broker.receive("q", {}, at(1)).ok());
    Result<ReceiveResult> second = broker.receive("q", {}, at(40));
    QCOMPARE(second->messages.size(), std::size_t(1));
    QCOMPARE(second->messages[0].approximateReceiveCount, 2);
    QCOMPARE(second->messages[0].approximateFirstReceiveTimestamp, at(1));
}

void QueueStandardTest::receive_max_upToTen()
{
    QueueTestBroker broker;
    QVERIFY(broker.create("q").ok());
    for (int i = 0; i < 12; ++i)
        QVERIFY(broker.send("q", "m" + std::to_string(i), at(0)).ok());
    QCOMPARE(broker.receiveBodies("q", 1, at(1)).size(), 1);
    QCOMPARE(broker.receiveBodies("q", 10, at(1)).size(), 10);
    QCOMPARE(broker.receiveBodies("q", 10, at(1)).size(), 1);
    QCOMPARE(broker.receiveBodies("q", 10, at(1)).size(), 0);
}

void QueueStandardTest::receive_nothingVisible_nextVisibleAtForLongPoll()
{
    QueueTestBroker broker;
    QVERIFY(broker.create("q").ok());
    SendRequest request;
    request.body = "later";
    request.delaySeconds = 20;
    QVERIFY(broker.send("q", request, at(0)).ok());
    Result<ReceiveResult> empty = broker.receive("q", {}, at(5));
    QVERIFY(empty->messages.empty());
    QCOMPARE(empty->nextVisibleAt, std::optional<ClockTime>(at(20)));
    QCOMPARE(broker.receive("q", {}, at(20))->messages.size(), std::size_t(1));
}

void QueueStandardTest::delete_handle_gone()
{
    QueueTestBroker broker;
    QVERIFY(broker.create("q").ok());
    QVERIFY(broker.send("q", "m", at(0)).ok());
    QCOMPARE(broker.receiveBodies("q", 1, at(1)), QStringList{"m"});
    QVERIFY(broker.remove("q", broker.handleOf("m"), at(2)).ok());
    QCOMPARE(broker.count("SELECT count(*) FROM messages"), 0);
    // Deleting again with the same handle succeeds, as in SQS.
    QVERIFY(broker.remove("q", broker.handleOf("m"), at(3)).ok());
}

void QueueStandardTest::delete_staleHandle_succeedsAndKeepsMessage()
{
    QueueTestBroker broker;
    QVERIFY(broker.create("q").ok());
    QVERIFY(broker.send("q", "m", at(0)).ok());
    QCOMPARE(broker.receiveBodies("q", 1, at(1)), QStringList{"m"});
    const std::string first = broker.handleOf("m");
    QCOMPARE(broker.receiveBodies("q", 1, at(40)), QStringList{"m"});
    QVERIFY(broker.remove("q", first, at(41)).ok());
    QCOMPARE(broker.count("SELECT count(*) FROM messages"), 1);
    QVERIFY(broker.remove("q", broker.handleOf("m"), at(42)).ok());
    QCOMPARE(broker.count("SELECT count(*) FROM messages"), 0);
}

void QueueStandardTest::delete_foreignHandle_receiptHandleIsInvalid()
{
    QueueTestBroker broker;
    QVERIFY(broker.create("q").ok());
    QVERIFY(broker.create("other").ok());
    QVERIFY(broker.send("q", "m", at(0)).ok());
    QCOMPARE(broker.receiveBodies("q", 1, at(1)), QStringList{"m"});
    const std::string before = broker.snapshot();
    for (const char *handle : {"garbage", "", "q1m1", "q1m-x"})
        QCOMPARE(broker.remove("q", handle, at(2)).error().code, BrokerErrorCode::ReceiptHandleIsInvalid);
    QCOMPARE(broker.remove("other", broker.handleOf("m"), at(2)).error().code, BrokerErrorCode::ReceiptHandleIsInvalid);
    QCOMPARE(broker.snapshot(), before);
}

void QueueStandardTest::changeVisibility_extendsOrReleases()
{
    QueueTestBroker broker;
    QVERIFY(broker.create("q").ok());
    QVERIFY(broker.send("q", "m", at(0)).ok());
    QCOMPARE(broker.receiveBodies("q", 1, at(0)), QStringList{"m"});
    auto change = [&](int seconds, ClockTime now) {
        return broker.unit([&] {
            return MessageReceiver(broker.db(), broker.ids()).changeVisibility("q", broker.handleOf("m"), seconds, now);
        });
    };
    QVERIFY(change(100, at(10)).ok());
    QCOMPARE(broker.receiveBodies("q", 1, at(109)), QStringList{});
    QVERIFY(change(0, at(50)).ok());
    QCOMPARE(broker.receiveBodies("q", 1, at(50)), QStringList{"m"});
}

void QueueStandardTest::changeVisibility_notInFlight_messageNotInflight()
{
    QueueTestBroker broker;
    QVERIFY(broker.create("q").ok());
    QVERIFY(broker.send("q", "m", at(0)).ok());
    QCOMPARE(broker.receiveBodies("q", 1, at(0)), QStringList{"m"});
    MessageReceiver receiver(broker.db(), broker.ids());
    QCOMPARE(receiver.changeVisibility("q", broker.handleOf("m"), 10, at(31)).error().code,
             BrokerErrorCode::MessageNotInflight);
    QCOMPARE(receiver.changeVisibility("q", broker.handleOf("m"), 43201, at(1)).error().code,
             BrokerErrorCode::InvalidParameterValue);
}

void QueueStandardTest::delay_perMessageAndQueue_hidden()
{
    QueueTestBroker broker;
    QVERIFY(broker.create("q", {{"DelaySeconds", "10"}}).ok());
    QVERIFY(broker.send("q", "queue-delay", at(0)).ok());
    SendRequest request;
    request.body = "no-delay";
    request.delaySeconds = 0;
    QVERIFY(broker.send("q", request, at(0)).ok());
    QCOMPARE(broker.receiveBodies("q", 10, at(9.999)), QStringList{"no-delay"});
    QCOMPARE(broker.receiveBodies("q", 10, at(10)), QStringList{"queue-delay"});
}

void QueueStandardTest::purge_everyState_empty()
{
    QueueTestBroker broker;
    QVERIFY(broker.create("q").ok());
    QVERIFY(broker.send("q", "a", at(0)).ok());
    QVERIFY(broker.send("q", "b", at(0)).ok());
    QCOMPARE(broker.receiveBodies("q", 1, at(0)).size(), 1);
    QVERIFY(broker.unit([&] { return MessageReceiver(broker.db(), broker.ids()).purge("q", at(1)); }).ok());
    QCOMPARE(broker.count("SELECT count(*) FROM messages"), 0);
}

void QueueStandardTest::purge_againWithinSixtySeconds_purgeQueueInProgress_data()
{
    QTest::addColumn<double>("second");
    QTest::addColumn<bool>("refused");
    QTest::newRow("same time") << 1.0 << true;
    QTest::newRow("59.999 s later") << 60.999 << true;
    QTest::newRow("60 s later") << 61.0 << false;
}

void QueueStandardTest::purge_againWithinSixtySeconds_purgeQueueInProgress()
{
    QFETCH(double, second);
    QFETCH(bool, refused);
    QueueTestBroker broker;
    QVERIFY(broker.create("q").ok());
    QVERIFY(broker.unit([&] { return MessageReceiver(broker.db(), broker.ids()).purge("q", at(1)); }).ok());
    QVERIFY(broker.send("q", "kept?", at(second)).ok());
    auto again = broker.unit([&] { return MessageReceiver(broker.db(), broker.ids()).purge("q", at(second)); });
    QCOMPARE(!again.ok(), refused);
    if (refused)
        QCOMPARE(again.error().code, BrokerErrorCode::PurgeQueueInProgress);
    QCOMPARE(broker.count("SELECT count(*) FROM messages"), refused ? 1 : 0);
}

void QueueStandardTest::changeVisibility_twelveHoursSinceReceive_cap_data()
{
    QTest::addColumn<double>("changeAt");
    QTest::addColumn<int>("seconds");
    QTest::addColumn<bool>("accepted");
    QTest::newRow("12 h from the receive") << 0.0 << 43200 << true;
    QTest::newRow("after 10 s: 43 190 fits") << 10.0 << 43190 << true;
    QTest::newRow("after 10 s: 43 191 exceeds") << 10.0 << 43191 << false;
    QTest::newRow("after 10 s: 0 releases") << 10.0 << 0 << true;
}

void QueueStandardTest::changeVisibility_twelveHoursSinceReceive_cap()
{
    QFETCH(double, changeAt);
    QFETCH(int, seconds);
    QFETCH(bool, accepted);
    QueueTestBroker broker;
    QVERIFY(broker.create("q", {{"VisibilityTimeout", "600"}}).ok());
    QVERIFY(broker.send("q", "m", at(0)).ok());
    QCOMPARE(broker.receiveBodies("q", 1, at(0)), QStringList{"m"});
    Status changed = broker.unit([&] {
        return MessageReceiver(broker.db(), broker.ids()).changeVisibility("q", broker.handleOf("m"), seconds, at(changeAt));
    });
    QCOMPARE(changed.ok(), accepted);
    if (!accepted) {
        QCOMPARE(changed.error().code, BrokerErrorCode::InvalidParameterValue);
        QCOMPARE(broker.receiveBodies("q", 1, at(600)), QStringList{"m"}); // its old timeout still holds
    }
}

void QueueStandardTest::sendBatch_perEntryFailures_othersStored()
{
    QueueTestBroker broker;
    QVERIFY(broker.create("q").ok());
    std::vector<BatchEntry<SendRequest>> entries(3);
    entries[0] = {"a", {}};
    entries[0].request.body = "first";
    entries[1] = {"b", {}};
    entries[1].request.body = "";   // empty body: this entry fails
    entries[2] = {"c", {}};
    entries[2].request.body = "third";
    entries[2].request.delaySeconds = 901;   // fails too
    auto results = broker.unit([&] { return MessageSender(broker.db(), broker.ids()).sendBatch("q", entries, at(0)); });
    QVERIFY(results.ok());
    QCOMPARE(results->size(), std::size_t(3));
    QVERIFY(results->at(0).ok());
    QCOMPARE(results->at(1).error->code, BrokerErrorCode::InvalidParameterValue);
    QCOMPARE(results->at(2).error->code, BrokerErrorCode::InvalidParameterValue);
    QCOMPARE(results->at(2).id, std::string("c"));
    QCOMPARE(broker.count("SELECT count(*) FROM messages"), 1);
}

void QueueStandardTest::batch_wholeBatchRules_errorAndNothingStored_data()
{
    QTest::addColumn<QStringList>("ids");
    QTest::addColumn<BrokerErrorCode>("code");
    QTest::newRow("empty") << QStringList{} << BrokerErrorCode::EmptyBatchRequest;
    QStringList eleven;
    for (int i = 0; i < 11; ++i)
        eleven << QStringLiteral("id%1").arg(i);
    QTest::newRow("eleven") << eleven << BrokerErrorCode::TooManyEntriesInBatchRequest;
    QTest::newRow("duplicate ids") << QStringList{"a", "b", "a"} << BrokerErrorCode::BatchEntryIdsNotDistinct;
    QTest::newRow("id 81 chars") << QStringList{QString(81, QLatin1Char('x'))} << BrokerErrorCode::InvalidBatchEntryId;
    QTest::newRow("id with dot") << QStringList{"a.b"} << BrokerErrorCode::InvalidBatchEntryId;
    QTest::newRow("empty id") << QStringList{""} << BrokerErrorCode::InvalidBatchEntryId;
}

void QueueStandardTest::batch_wholeBatchRules_errorAndNothingStored()
{
    QFETCH(QStringList, ids);
    QFETCH(BrokerErrorCode, code);
    QueueTestBroker broker;
    QVERIFY(broker.create("q").ok());
    QVERIFY(broker.send("q", "m", at(0)).ok());
    QCOMPARE(broker.receiveBodies("q", 1, at(0)), QStringList{"m"});
    const std::string before = broker.snapshot();
    std::vector<BatchEntry<SendRequest>> sends;
    std::vector<BatchEntry<std::string>> deletes;
    std::vector<BatchEntry<VisibilityChange>> changes;
    for (const QString &id : ids) {
        SendRequest request;
        request.body = "x";
        sends.push_back({id.toStdString(), request});
        deletes.push_back({id.toStdString(), broker.handleOf("m")});
        changes.push_back({id.toStdString(), {broker.handleOf("m"), 5}});
    }
    MessageSender sender(broker.db(), broker.ids());
    MessageReceiver receiver(broker.db(), broker.ids());
    QCOMPARE(broker.unit([&] { return sender.sendBatch("q", sends, at(1)); }).error().code, code);
    QCOMPARE(broker.unit([&] { return receiver.deleteMessageBatch("q", deletes, at(1)); }).error().code, code);
    QCOMPARE(broker.unit([&] { return receiver.changeVisibilityBatch("q", changes, at(1)); }).error().code, code);
    QCOMPARE(broker.snapshot(), before);
}

void QueueStandardTest::limits_invalid_errorAndNothingChanged_data()
{
    QTest::addColumn<QString>("operation");
    QTest::addColumn<int>("value");
    QTest::addColumn<BrokerErrorCode>("code");
    QTest::newRow("body empty") << "body" << 0 << BrokerErrorCode::InvalidParameterValue;
    QTest::newRow("body over max size") << "body" << 1025 << BrokerErrorCode::InvalidParameterValue;
    QTest::newRow("body invalid character") << "control" << 1 << BrokerErrorCode::InvalidMessageContents;
    QTest::newRow("delay -1") << "delay" << -1 << BrokerErrorCode::InvalidParameterValue;
    QTest::newRow("delay 901") << "delay" << 901 << BrokerErrorCode::InvalidParameterValue;
    QTest::newRow("receive max 0") << "max" << 0 << BrokerErrorCode::InvalidParameterValue;
    QTest::newRow("receive max 11") << "max" << 11 << BrokerErrorCode::InvalidParameterValue;
    QTest::newRow("wait 21") << "wait" << 21 << BrokerErrorCode::InvalidParameterValue;
    QTest::newRow("wait -1") << "wait" << -1 << BrokerErrorCode::InvalidParameterValue;
    QTest::newRow("visibility 43201") << "visibility" << 43201 << BrokerErrorCode::InvalidParameterValue;
    QTest::newRow("visibility -1") << "visibility" << -1 << BrokerErrorCode::InvalidParameterValue;
    QTest::newRow("dedup id on standard") << "dedup" << 1 << BrokerErrorCode::InvalidParameterValue;
    QTest::newRow("eleven attributes") << "attributes" << 11 << BrokerErrorCode::InvalidParameterValue;
    QTest::newRow("ttl 0") << "ttl" << 0 << BrokerErrorCode::InvalidParameterValue;
    QTest::newRow("attribute name AWS.") << "attributeName" << 0 << BrokerErrorCode::InvalidParameterValue;
    QTest::newRow("attribute name with space") << "attributeName" << 1 << BrokerErrorCode::InvalidParameterValue;
    QTest::newRow("attribute name double dot") << "attributeName" << 2 << BrokerErrorCode::InvalidParameterValue;
    QTest::newRow("attribute type unknown") << "attributeType" << 0 << BrokerErrorCode::InvalidParameterValue;
    QTest::newRow("attribute value empty") << "attributeType" << 1 << BrokerErrorCode::InvalidParameterValue;
}

void QueueStandardTest::limits_invalid_errorAndNothingChanged()
{
    QFETCH(QString, operation);
    QFETCH(int, value);
    QFETCH(BrokerErrorCode, code);
    QueueTestBroker broker;
    QVERIFY(broker.create("q", {{"MaximumMessageSize", "1024"}}).ok());
    QVERIFY(broker.send("q", "already", at(0)).ok());
    const std::string before = broker.snapshot();
    SendRequest send;
    send.body = "x";
    ReceiveRequest receive;
    bool isReceive = false;
    if (operation == "body")
        send.body = std::string(static_cast<std::size_t>(value), 'b');
    else if (operation == "control")
        send.body = std::string("a\x01", 2);
    else if (operation == "delay")
        send.delaySeconds = value;
    else if (operation == "dedup")
        send.deduplicationId = "d";
    else if (operation == "ttl")
        send.timeToLiveSeconds = value;
    else if (operation == "attributeName")
        send.attributes[std::array{"AWS.x", "a b", "a..b"}[static_cast<std::size_t>(value)]] = {"String", "v", ""};
    else if (operation == "attributeType")
        send.attributes["a"] = value == 0 ? MessageAttributeValue{"Text", "v", ""} : MessageAttributeValue{"String", "", ""};
    else if (operation == "attributes")
        for (int i = 0; i < value; ++i)
            send.attributes["a" + std::to_string(i)] = {"String", "v", ""};
    else {
        isReceive = true;
        if (operation == "max")
            receive.maxNumberOfMessages = value;
        else if (operation == "wait")
            receive.waitTimeSeconds = value;
        else
            receive.visibilityTimeout = value;
    }
    if (isReceive) {
        Result<ReceiveResult> received = broker.receive("q", receive, at(1));
        QVERIFY(!received.ok());
        QCOMPARE(received.error().code, code);
    } else {
        Result<SendReceipt> sent = broker.send("q", send, at(1));
        QVERIFY(!sent.ok());
        QCOMPARE(sent.error().code, code);
    }
    QCOMPARE(broker.snapshot(), before);
}

void QueueStandardTest::deleteBatch_andChangeVisibilityBatch_perEntry()
{
    QueueTestBroker broker;
    QVERIFY(broker.create("q").ok());
    QVERIFY(broker.send("q", "a", at(0)).ok());
    QVERIFY(broker.send("q", "b", at(0)).ok());
    QCOMPARE(broker.receiveBodies("q", 10, at(0)).size(), 2);
    MessageReceiver receiver(broker.db(), broker.ids());
    auto changed = broker.unit([&] {
        return receiver.changeVisibilityBatch("q", {{"1", {broker.handleOf("a"), 0}}, {"2", {"bad", 0}}}, at(1));
    });
    QVERIFY(changed.ok());
    QVERIFY(changed->at(0).ok());
    QCOMPARE(changed->at(1).error->code, BrokerErrorCode::ReceiptHandleIsInvalid);
    auto deleted = broker.unit(
        [&] { return receiver.deleteMessageBatch("q", {{"1", broker.handleOf("b")}, {"2", "bad"}}, at(1)); });
    QVERIFY(deleted.ok());
    QVERIFY(deleted->at(0).ok());
    QVERIFY(!deleted->at(1).ok());
    QCOMPARE(broker.count("SELECT count(*) FROM messages"), 1);
    QCOMPARE(broker.receiveBodies("q", 10, at(2)), QStringList{"a"});
}

void QueueStandardTest::sendBatch_overOneMebibyte_batchRequestTooLong()
{
    QueueTestBroker broker;
    QVERIFY(broker.create("q").ok());
    std::vector<BatchEntry<SendRequest>> entries(2);
    entries[0] = {"a", {}};
    entries[0].request.body = std::string(600 * 1024, 'a');
    entries[1] = {"b", {}};
    entries[1].request.body = std::string(600 * 1024, 'b');
    auto results = broker.unit([&] { return MessageSender(broker.db(), broker.ids()).sendBatch("q", entries, at(0)); });
    QCOMPARE(results.error().code, BrokerErrorCode::BatchRequestTooLong);
    QCOMPARE(broker.count("SELECT count(*) FROM messages"), 0);
}

void QueueStandardTest::unknownQueue_everyOperation_queueDoesNotExist()
{
    QueueTestBroker broker;
    MessageReceiver receiver(broker.db(), broker.ids());
    QCOMPARE(broker.receive("nope", {}, at(0)).error().code, BrokerErrorCode::QueueDoesNotExist);
    QCOMPARE(receiver.deleteMessage("nope", "q1m1-x", at(0)).error().code, BrokerErrorCode::QueueDoesNotExist);
    QCOMPARE(receiver.changeVisibility("nope", "q1m1-x", 1, at(0)).error().code, BrokerErrorCode::QueueDoesNotExist);
    QCOMPARE(receiver.purge("nope", at(0)).error().code, BrokerErrorCode::QueueDoesNotExist);
    QCOMPARE(receiver.deleteMessageBatch("nope", {{"a", "q1m1-x"}}, at(0)).error().code,
             BrokerErrorCode::QueueDoesNotExist);
}

RELAYDESK_TEST_MAIN(QueueStandardTest)
#include "queue_standard_test.moc"
