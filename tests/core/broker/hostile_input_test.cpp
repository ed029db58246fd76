// SPDX-License-Identifier: MIT
// Unit tests of the broker rules that hostile input found wanting:
// JSON nesting bound (item 1), publish of characters SQS cannot hold and
// fan-outs a queue refuses (4), attribute values with forbidden characters
// (9) and bad Number values (10), ReceiveRequestAttemptId (11), altered
// receipt handles (12), a queue as its own dead-letter queue (13), and
// echoed values cut in error messages (17). Every refusal changes nothing.

#include "broker/deliveries/attempt_log.h"
#include "broker/echoed_value.h"
#include "broker/queues/message_text.h"
#include "json/bounded_json.h"
#include "queue_test_support.h"
#include "topic_test_support.h"
#include "support/test_main.h"

using namespace relaydesk;
using namespace relaydesk::testing;

Q_DECLARE_METATYPE(relaydesk::BrokerErrorCode)

namespace {

// The first 10 log rows of one subscription.
AttemptQuery logOf(const std::string &subscriptionArn)
{
    AttemptQuery query;
    query.subscriptionArn = subscriptionArn;
    query.limit = 10;
    return query;
}

std::string nested(std::size_t depth)
{
    return std::string(depth, '[') + std::string(depth, ']');
}

} // namespace

class HostileInputTest final : public QObject {
    Q_OBJECT

private slots:
    void boundedJson_nesting_refusedPastLimit_data();
    void boundedJson_nesting_refusedPastLimit();
    void boundedJson_exceptions_tooDeepAndSyntaxThrow();
    void number_sqsRules_data();
    void number_sqsRules();
    void attributeValue_forbidden_refusedBySendAndPublish_data();
    void attributeValue_forbidden_refusedBySendAndPublish();
    void receive_attemptId_rules_data();
    void receive_attemptId_rules();
    void delete_alteredHandle_receiptHandleIsInvalid();
    void delete_staleGenuineHandle_succeeds();
    void redrivePolicy_ownQueue_refused();
    void errors_longEchoedValues_cut();
    void publish_charactersSqsForbids_refusedNothingStored_data();
    void publish_charactersSqsForbids_refusedNothingStored();
    void fanOut_queueRefuses_loggedAndDeadLettered();
    void fanOut_queueRefusesWithoutDeadLetterQueue_loggedDiscarded();
};

void HostileInputTest::boundedJson_nesting_refusedPastLimit_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<bool>("parsed");
    QTest::newRow("64 arrays") << QByteArray::fromStdString(nested(64)) << true;
    QTest::newRow("65 arrays") << QByteArray::fromStdString(nested(65)) << false;
    QTest::newRow("100 000 arrays") << QByteArray::fromStdString(nested(100000)) << false;
    QTest::newRow("100 000 open, never closed") << QByteArray(100000, '[') << false;
    QTest::newRow("objects past the bound")
        << QByteArray::fromStdString("{\"Attributes\":" + std::string(70, '[') + std::string(70, ']') + "}") << false;
    QTest::newRow("deep in an SQS body") << QByteArray::fromStdString("{\"QueueName\":\"q\",\"Attributes\":" + nested(100000) + "}")
                                         << false;
    QTest::newRow("flat object") << QByteArray("{\"a\":[1,2,{\"b\":null}]}") << true;
    QTest::newRow("syntax error") << QByteArray("{\"a\":") << false;
}

void HostileInputTest::boundedJson_nesting_refusedPastLimit()
{
    QFETCH(QByteArray, text);
    QFETCH(bool, parsed);
    const std::string_view view(text.constData(), std::size_t(text.size()));
    QCOMPARE(!parseBoundedJson(view).is_discarded(), parsed);
    QCOMPARE(!parseBoundedJson<nlohmann::ordered_json>(view).is_discarded(), parsed);
}

void HostileInputTest::boundedJson_exceptions_tooDeepAndSyntaxThrow()
{
    QVERIFY_THROWS_EXCEPTION(JsonTooDeep, parseBoundedJson(nested(100000), true));
    QVERIFY_THROWS_EXCEPTION(nlohmann::json::parse_error, parseBoundedJson("[1,", true));
    QVERIFY(parseBoundedJson("[[1]]", true) == nlohmann::json::parse("[[1]]"));
}

void HostileInputTest::number_sqsRules_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("valid");
    QTest::newRow("integer") << "42" << true;
    QTest::newRow("negative fraction") << "-1.5" << true;
    QTest::newRow("plus sign") << "+7" << true;
    QTest::newRow("exponent") << "1.5e3" << true;
    QTest::newRow("zero") << "0" << true;
    QTest::newRow("zero with exponent") << "0e999" << true;
    QTest::newRow("38 digits") << QString(38, QLatin1Char('9')) << true;
    QTest::newRow("38 digits, trailing zeros") << QString(38, QLatin1Char('9')) + "000" << true;
    QTest::newRow("39 digits") << QString(39, QLatin1Char('9')) << false;
    QTest::newRow("just under 10^126") << "9.99e125" << true;
    QTest::newRow("10^126") << "1e126" << false;
    QTest::newRow("-10^126") << "-1e126" << false;
    QTest::newRow("1e400") << "1e400" << false;
    QTest::newRow("10^-128") << "1e-128" << true;
    QTest::newRow("10^-129") << "1e-129" << false;
    QTest::newRow("letters") << "abc" << false;
    QTest::newRow("empty") << "" << false;
    QTest::newRow("sign only") << "-" << false;
    QTest::newRow("point only") << "." << false;
    QTest::newRow("exponent without digits") << "1e" << false;
    QTest::newRow("two points") << "1.2.3" << false;
    QTest::newRow("blank") << " 1" << false;
    QTest::newRow("hexadecimal") << "0x10" << false;
    QTest::newRow("infinity") << "inf" << false;
}

void HostileInputTest::number_sqsRules()
{
    QFETCH(QString, text);
    QFETCH(bool, valid);
    QCOMPARE(isSqsNumber(text.toStdString()), valid);
}

void HostileInputTest::attributeValue_forbidden_refusedBySendAndPublish_data()
{
    QTest::addColumn<QString>("dataType");
    QTest::addColumn<QByteArray>("value");
    QTest::addColumn<bool>("accepted");
    QTest::newRow("String plain") << "String" << QByteArray("plain") << true;
    QTest::newRow("String tab LF CR") << "String" << QByteArray("a\tb\nc\rd") << true;
    QTest::newRow("String NUL") << "String" << QByteArray("a\0b", 3) << false;
    QTest::newRow("String U+0001") << "String" << QByteArray("a\x01" "b") << false;
    QTest::newRow("String U+001F") << "String" << QByteArray("a\x1f") << false;
    QTest::newRow("String U+FFFE") << "String" << QByteArray("a\xEF\xBF\xBE") << false;
    QTest::newRow("String U+FFFF") << "String" << QByteArray("a\xEF\xBF\xBF") << false;
    QTest::newRow("String invalid UTF-8") << "String" << QByteArray("\xFF\xFE" "ab") << false;
    QTest::newRow("String.custom U+0002") << "String.label" << QByteArray("\x02") << false;
    QTest::newRow("Number 12.5") << "Number" << QByteArray("12.5") << true;
    QTest::newRow("Number abc") << "Number" << QByteArray("abc") << false;
    QTest::newRow("Number 1e400") << "Number" << QByteArray("1e400") << false;
    QTest::newRow("Number.int 39 digits") << "Number.int" << QByteArray(39, '1') << false;
}

void HostileInputTest::attributeValue_forbidden_refusedBySendAndPublish()
{
    QFETCH(QString, dataType);
    QFETCH(QByteArray, value);
    QFETCH(bool, accepted);
    const MessageAttributes attributes{{"a", {dataType.toStdString(), value.toStdString(), ""}}};

    QueueTestBroker queues;
    QVERIFY(queues.create("q").ok());
    const std::string before = queues.snapshot();
    SendRequest send;
    send.body = "body";
    send.attributes = attributes;
    Result<SendReceipt> sent = queues.send("q", send, at(1));
    QCOMPARE(sent.ok(), accepted);
    if (!accepted) {
        QCOMPARE(sent.error().code, BrokerErrorCode::InvalidParameterValue);
        QCOMPARE(queues.snapshot(), before);
    }

    TopicTestBroker topics;
    QVERIFY(topics.createTopic("t").ok());
    topics.subscribeQueue("t", "inbox", {{"RawMessageDelivery", "true"}});
    const std::string topicsBefore = topics.snapshot();
    PublishRequest publish;
    publish.message = "message";
    publish.attributes = attributes;
    Result<PublishReceipt> published = topics.publish("t", publish, at(1));
    QCOMPARE(published.ok(), accepted);
    if (!accepted) {
        QCOMPARE(published.error().code, BrokerErrorCode::SnsInvalidParameterValue);
        QCOMPARE(topics.snapshot(), topicsBefore);
    } else {
        QCOMPARE(topics.receiveAll("inbox", at(2)).size(), std::size_t(1));
    }
}

void HostileInputTest::receive_attemptId_rules_data()
{
    QTest::addColumn<QString>("attemptId");
    QTest::addColumn<bool>("accepted");
    QTest::newRow("128 characters") << QString(128, QLatin1Char('a')) << true;
    QTest::newRow("punctuation") << "a-b_c.d!~{}" << true;
    QTest::newRow("129 characters") << QString(129, QLatin1Char('a')) << false;
    QTest::newRow("empty") << "" << false;
    QTest::newRow("space") << "a b" << false;
    QTest::newRow("non-ASCII") << QStringLiteral("caf\u00e9") << false;
}

void HostileInputTest::receive_attemptId_rules()
{
    QFETCH(QString, attemptId);
    QFETCH(bool, accepted);
    QueueTestBroker broker;
    QVERIFY(broker.create("q.fifo", {{"FifoQueue", "true"}, {"ContentBasedDeduplication", "true"}}).ok());
    QVERIFY(broker.sendFifo("q.fifo", "one", "g", at(1)).ok());
    const std::string before = broker.snapshot();
    ReceiveRequest request;
    request.receiveRequestAttemptId = attemptId.toStdString();
    Result<ReceiveResult> received = broker.receive("q.fifo", request, at(2));
    QCOMPARE(received.ok(), accepted);
    if (accepted) {
        QCOMPARE(received->messages.size(), std::size_t(1));
    } else {
        QCOMPARE(received.error().code, BrokerErrorCode::InvalidParameterValue);
        QVERIFY(received.error().message.size() < 400);
        QCOMPARE(broker.snapshot(), before);
    }
}

void HostileInputTest::delete_alteredHandle_receiptHandleIsInvalid()
{
    QueueTestBroker broker;
    QVERIFY(broker.create("q").ok());
    QVERIFY(broker.send("q", "one", at(1)).ok());
    QCOMPARE(broker.receiveBodies("q", 1, at(2)), QStringList{"one"});
    const std::string handle = broker.handleOf("one");
    const std::string before = broker.snapshot();
    for (std::size_t at_ : {handle.size() - 1, handle.size() / 2, std::size_t(8)}) {
        std::string altered = handle;
        altered[at_] = altered[at_] == 'a' ? 'b' : 'a';
        Status removed = broker.remove("q", altered, at(3));
        QVERIFY2(!removed.ok(), altered.c_str());
        QCOMPARE(removed.error().code, BrokerErrorCode::ReceiptHandleIsInvalid);
    }
    QCOMPARE(broker.snapshot(), before);
    QVERIFY(broker.remove("q", handle, at(3)).ok());
    QCOMPARE(broker.receiveBodies("q", 1, at(100)), QStringList{});
}

void HostileInputTest::delete_staleGenuineHandle_succeeds()
{
    QueueTestBroker broker;
    QVERIFY(broker.create("q", {{"VisibilityTimeout", "5"}}).ok());
    QVERIFY(broker.send("q", "one", at(1)).ok());
    QCOMPARE(broker.receiveBodies("q", 1, at(2)), QStringList{"one"});
    const std::string first = broker.handleOf("one");
    QCOMPARE(broker.receiveBodies("q", 1, at(10)), QStringList{"one"});   // received again: `first` is stale
    QVERIFY(broker.remove("q", first, at(11)).ok());
    QCOMPARE(broker.receiveBodies("q", 1, at(20)), QStringList{"one"});   // a stale handle deleted nothing
}

void HostileInputTest::redrivePolicy_ownQueue_refused()
{
    QueueTestBroker broker;
    QVERIFY(broker.create("q").ok());
    const std::string before = broker.snapshot();
    const std::string policy = "{\"deadLetterTargetArn\":\"" + broker.identity().queueArn("q") + "\",\"maxReceiveCount\":3}";
    Status set = broker.unit([&] {
        return QueueCatalog(broker.db(), broker.identity()).setQueueAttributes("q", {{"RedrivePolicy", policy}}, at(1));
    });
    QVERIFY(!set.ok());
    QCOMPARE(set.error().code, BrokerErrorCode::InvalidParameterValue);
    QVERIFY(set.error().message.find("own dead-letter queue") != std::string::npos);
    QCOMPARE(broker.snapshot(), before);
}

void HostileInputTest::errors_longEchoedValues_cut()
{
    QueueTestBroker broker;
    QVERIFY(broker.create("q").ok());
    const std::string huge(1 << 20, 'x');
    Status removed = broker.remove("q", huge, at(1));
    QVERIFY(!removed.ok());
    QCOMPARE(removed.error().code, BrokerErrorCode::ReceiptHandleIsInvalid);
    QVERIFY(removed.error().message.size() < 200);
    QVERIFY(removed.error().message.find(huge.substr(0, kEchoedValueLimit) + "...") != std::string::npos);

    // The backstop: no message is longer than kMaxErrorMessageBytes (+ "...").
    const BrokerError error(BrokerErrorCode::InvalidParameterValue, "Value " + huge + " is invalid.");
    QCOMPARE(error.message.size(), kMaxErrorMessageBytes + 3);
    // A cut never splits a UTF-8 sequence.
    QCOMPARE(echoedValue(std::string(kEchoedValueLimit - 1, 'a') + "\xC3\xA9" + "tail"),
             std::string(kEchoedValueLimit - 1, 'a') + "...");
}

void HostileInputTest::publish_charactersSqsForbids_refusedNothingStored_data()
{
    QTest::addColumn<QByteArray>("message");
    QTest::addColumn<bool>("raw");
    QTest::newRow("U+0001, raw") << QByteArray("a\x01" "b") << true;
    QTest::newRow("U+0001, envelope") << QByteArray("a\x01" "b") << false;
    QTest::newRow("NUL, raw") << QByteArray("a\0b", 3) << true;
    QTest::newRow("U+FFFE, envelope") << QByteArray("a\xEF\xBF\xBE") << false;
    QTest::newRow("invalid UTF-8, raw") << QByteArray("\xFF\xFE" "ab") << true;
}

void HostileInputTest::publish_charactersSqsForbids_refusedNothingStored()
{
    QFETCH(QByteArray, message);
    QFETCH(bool, raw);
    TopicTestBroker broker;
    QVERIFY(broker.createTopic("t").ok());
    broker.subscribeQueue("t", "inbox", {{"RawMessageDelivery", raw ? "true" : "false"}});
    const std::string before = broker.snapshot();
    Result<PublishReceipt> published = broker.publish("t", message.toStdString());
    QVERIFY(!published.ok());
    QCOMPARE(published.error().code, BrokerErrorCode::SnsInvalidParameter);
    QCOMPARE(broker.snapshot(), before);
}

void HostileInputTest::fanOut_queueRefuses_loggedAndDeadLettered()
{
    TopicTestBroker broker;
    QVERIFY(broker.createTopic("t").ok());
    QVERIFY(broker.createQueue("dlq").ok());
    const std::string arn = broker.subscribeQueue(
        "t", "small",
        {{"RawMessageDelivery", "true"},
         {"RedrivePolicy", "{\"deadLetterTargetArn\":\"" + broker.identity().queueArn("dlq") + "\"}"}});
    QVERIFY(broker.unit([&] {
        return QueueCatalog(broker.db(), broker.identity()).setQueueAttributes("small", {{"MaximumMessageSize", "1024"}}, at(0));
    }).ok());
    const std::string message(2000, 'm');
    Result<PublishReceipt> published = broker.publish("t", message);
    QVERIFY(published.ok());

    QCOMPARE(broker.receiveAll("small", at(2)).size(), std::size_t(0));
    const std::vector<ReceivedMessage> dead = broker.receiveAll("dlq", at(2));
    QCOMPARE(dead.size(), std::size_t(1));
    QCOMPARE(dead.front().body, message);
    Result<std::vector<AttemptRecord>> log = attempt_log::query(broker.db(), logOf(arn));
    QVERIFY(log.ok());
    QCOMPARE(log->size(), std::size_t(1));
    QCOMPARE(log->front().messageId, published->messageId);
    QVERIFY(log->front().errorKind == std::optional<std::string>("queueRefused"));
    QCOMPARE(log->front().outcome, std::string("permanent"));
    QVERIFY(log->front().final == std::optional<std::string>("deadLettered"));
}

void HostileInputTest::fanOut_queueRefusesWithoutDeadLetterQueue_loggedDiscarded()
{
    TopicTestBroker broker;
    QVERIFY(broker.createTopic("t").ok());
    const std::string arn = broker.subscribeQueue("t", "small", {{"RawMessageDelivery", "true"}});
    QVERIFY(broker.unit([&] {
        return QueueCatalog(broker.db(), broker.identity()).setQueueAttributes("small", {{"MaximumMessageSize", "1024"}}, at(0));
    }).ok());
    Result<PublishReceipt> published = broker.publish("t", std::string(2000, 'm'));
    QVERIFY(published.ok());
    Result<std::vector<AttemptRecord>> log = attempt_log::query(broker.db(), logOf(arn));
    QVERIFY(log.ok());
    QCOMPARE(log->size(), std::size_t(1));
    QVERIFY(log->front().final == std::optional<std::string>("discarded"));
}

RELAYDESK_TEST_MAIN(HostileInputTest)
#include "hostile_input_test.moc"
