// SPDX-License-Identifier: MIT
// TopicPublisher: fan-out in the publish transaction to sqs subscriptions
// (raw and envelope) and http/https ones (pending deliveries), filter
// policies, confirmation, FIFO topics, limits (each refusal changes
// nothing), batches, TTL caps and a restart.
#include "topic_test_support.h"
#include "support/test_main.h"

#include <nlohmann/json.hpp>

using namespace relaydesk;
using namespace relaydesk::testing;

namespace {

MessageAttributes stringAttribute(const std::string &name, const std::string &value, const std::string &type = "String")
{
    return {{name, MessageAttributeValue{type, value, {}}}};
}

} // namespace

class TopicPublishTest final : public QObject {
    Q_OBJECT

private slots:
    void publish_fansOutToQueuesAndHttp()
    {
        TopicTestBroker broker;
        QVERIFY(broker.createTopic("orders").ok());
        broker.subscribeQueue("orders", "raw", {{"RawMessageDelivery", "true"}});
        const std::string envelopeArn = broker.subscribeQueue("orders", "wrapped");
        QVERIFY(broker.subscribe("orders", "http", "http://localhost/hook", {}, true).ok());
        PublishRequest request;
        request.message = "hello";
        request.subject = "Greeting";
        request.attributes = stringAttribute("colour", "red");
        Result<PublishReceipt> receipt = broker.publish("orders", request, at(10));
        QVERIFY(receipt.ok());

        const std::vector<ReceivedMessage> raw = broker.receiveAll("raw", at(11));
        QCOMPARE(raw.size(), std::size_t(1));
        QCOMPARE(raw[0].body, std::string("hello"));
        QCOMPARE(raw[0].attributes, request.attributes);

        const std::vector<ReceivedMessage> wrapped = broker.receiveAll("wrapped", at(11));
        QCOMPARE(wrapped.size(), std::size_t(1));
        QVERIFY(wrapped[0].attributes.empty());
        const nlohmann::json envelope = nlohmann::json::parse(wrapped[0].body);
        QCOMPARE(envelope["Type"].get<std::string>(), std::string("Notification"));
        QCOMPARE(envelope["MessageId"].get<std::string>(), receipt->messageId);
        QCOMPARE(envelope["TopicArn"].get<std::string>(), std::string("arn:aws:sns:us-east-1:000000000000:orders"));
        QCOMPARE(envelope["Subject"].get<std::string>(), std::string("Greeting"));
        QCOMPARE(envelope["Message"].get<std::string>(), std::string("hello"));
        QCOMPARE(envelope["Timestamp"].get<std::string>(), std::string("2026-01-01T00:00:10.000Z"));
        QCOMPARE(envelope["SignatureVersion"].get<std::string>(), std::string("1"));
        QCOMPARE(envelope["Signature"].get<std::string>(), std::string());
        QVERIFY(envelope["SigningCertURL"].get<std::string>().ends_with(".pem"));
        QVERIFY(envelope["UnsubscribeURL"].get<std::string>().ends_with(envelopeArn));
        QCOMPARE(envelope["MessageAttributes"]["colour"]["Type"].get<std::string>(), std::string("String"));
        QCOMPARE(envelope["MessageAttributes"]["colour"]["Value"].get<std::string>(), std::string("red"));
        // Key order as AWS writes it.
        QVERIFY(wrapped[0].body.starts_with("{\"Type\":\"Notification\",\"MessageId\""));

        QCOMPARE(broker.count("SELECT count(*) FROM published_messages"), std::int64_t(1));
        QCOMPARE(broker.count("SELECT count(*) FROM pending_deliveries WHERE attempt = 0"), std::int64_t(1));
        QCOMPARE(broker.count("SELECT due_ms FROM pending_deliveries"), toEpochMilliseconds(at(10)));
        QCOMPARE(broker.count("SELECT count(*) FROM published_messages WHERE subject = 'Greeting' AND body = 'hello'"),
                 std::int64_t(1));
        // sqs deliveries reset the subscriptions' idle clock; the topic's too.
        QCOMPARE(broker.count("SELECT count(*) FROM subscriptions WHERE protocol = 'sqs' AND last_used_ms = "
                              + std::to_string(toEpochMilliseconds(at(10)))),
                 std::int64_t(2));
        QCOMPARE(broker.count("SELECT last_used_ms FROM topics"), toEpochMilliseconds(at(10)));
    }

    void publish_withoutSubjectOrAttributesLeavesThemOut()
    {
        TopicTestBroker broker;
        QVERIFY(broker.createTopic("orders").ok());
        broker.subscribeQueue("orders", "wrapped");
        QVERIFY(broker.publish("orders", "plain").ok());
        const nlohmann::json envelope = nlohmann::json::parse(broker.receiveAll("wrapped", at(2))[0].body);
        QVERIFY(!envelope.contains("Subject"));
        QVERIFY(!envelope.contains("MessageAttributes"));
    }

    void filterPolicy_decidesDelivery_data()
    {
        QTest::addColumn<QString>("policy");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("type");
        QTest::addColumn<QString>("value");
        QTest::addColumn<bool>("delivered");
        QTest::newRow("exact match") << R"({"sport":["rugby"]})" << "sport" << "String" << "rugby" << true;
        QTest::newRow("exact mismatch") << R"({"sport":["rugby"]})" << "sport" << "String" << "golf" << false;
        QTest::newRow("no attributes") << R"({"sport":["rugby"]})" << "" << "" << "" << false;
        QTest::newRow("prefix") << R"({"sport":[{"prefix":"rug"}]})" << "sport" << "String" << "rugby" << true;
        QTest::newRow("numeric range in") << R"({"price":[{"numeric":[">",0,"<=",150]}]})" << "price" << "Number" << "100" << true;
        QTest::newRow("numeric range out") << R"({"price":[{"numeric":[">",0,"<=",150]}]})" << "price" << "Number" << "200" << false;
        QTest::newRow("anything-but") << R"({"sport":[{"anything-but":"golf"}]})" << "sport" << "String" << "rugby" << true;
        QTest::newRow("anything-but excluded") << R"({"sport":[{"anything-but":"golf"}]})" << "sport" << "String" << "golf" << false;
        QTest::newRow("exists false") << R"({"sport":[{"exists":false}]})" << "other" << "String" << "x" << true;
        QTest::newRow("exists true absent") << R"({"sport":[{"exists":true}]})" << "other" << "String" << "x" << false;
        QTest::newRow("string array") << R"({"sport":["rugby"]})" << "sport" << "String.Array" << R"(["golf","rugby"])" << true;
    }
    void filterPolicy_decidesDelivery()
    {
        QFETCH(QString, policy);
        QFETCH(QString, name);
        QFETCH(QString, type);
        QFETCH(QString, value);
        QFETCH(bool, delivered);
        TopicTestBroker broker;
        QVERIFY(broker.createTopic("orders").ok());
        broker.subscribeQueue("orders", "filtered", {{"FilterPolicy", policy.toStdString()}});
        broker.subscribeQueue("orders", "everything");
        QVERIFY(broker.subscribe("orders", "http", "http://h/x", {{"FilterPolicy", policy.toStdString()}}, true).ok());
        PublishRequest request;
        request.message = "m";
        if (!name.isEmpty())
            request.attributes = stringAttribute(name.toStdString(), value.toStdString(), type.toStdString());
        QVERIFY(broker.publish("orders", request, at(1)).ok());
        QCOMPARE(broker.receiveAll("filtered", at(2)).size(), std::size_t(delivered ? 1 : 0));
        QCOMPARE(broker.receiveAll("everything", at(2)).size(), std::size_t(1));
        QCOMPARE(broker.count("SELECT count(*) FROM pending_deliveries"), std::int64_t(delivered ? 1 : 0));
    }

    void pendingHttp_getsNothingUntilConfirmed()
    {
        TopicTestBroker broker;
        QVERIFY(broker.createTopic("orders").ok());
        Result<SubscribeReceipt> http = broker.subscribe("orders", "http", "http://h/x");
        QVERIFY(broker.publish("orders", "first", at(1)).ok());
        QCOMPARE(broker.count("SELECT count(*) FROM pending_deliveries"), std::int64_t(0));
        QCOMPARE(broker.count("SELECT count(*) FROM published_messages"), std::int64_t(0));
        QVERIFY(broker.unit([&] { return broker.subscriptions().confirmSubscription("orders", http->confirmationToken); }).ok());
        QVERIFY(broker.publish("orders", "second", at(2)).ok());
        QCOMPARE(broker.count("SELECT count(*) FROM pending_deliveries"), std::int64_t(1));
        QCOMPARE(broker.count("SELECT count(*) FROM published_messages WHERE body = 'second'"), std::int64_t(1));
    }

    void limits_refusedAndNothingChanges_data()
    {
        QTest::addColumn<QString>("topic");
        QTest::addColumn<int>("messageBytes");
        QTest::addColumn<QString>("subject");
        QTest::addColumn<int>("attributeCount");
        QTest::addColumn<QString>("group");
        QTest::addColumn<QString>("dedup");
        QTest::addColumn<int>("code");
        const int invalid = int(BrokerErrorCode::SnsInvalidParameter);
        const int invalidValue = int(BrokerErrorCode::SnsInvalidParameterValue);
        QTest::newRow("256 KiB + 1") << "orders" << 256 * 1024 + 1 << "" << 0 << "" << "" << invalid;
        QTest::newRow("empty message") << "orders" << 0 << "" << 0 << "" << "" << invalid;
        QTest::newRow("subject too long") << "orders" << 5 << QString(101, QLatin1Char('s')) << 0 << "" << "" << invalid;
        QTest::newRow("subject with newline") << "orders" << 5 << "a\nb" << 0 << "" << "" << invalid;
        QTest::newRow("11 attributes") << "orders" << 5 << "" << 11 << "" << "" << invalidValue;
        QTest::newRow("group on standard") << "orders" << 5 << "" << 0 << "g" << "" << invalid;
        QTest::newRow("fifo without group") << "events.fifo" << 5 << "" << 0 << "" << "d" << invalid;
        QTest::newRow("fifo without dedup") << "events.fifo" << 5 << "" << 0 << "g" << "" << invalid;
        QTest::newRow("unknown topic") << "nope" << 5 << "" << 0 << "" << "" << int(BrokerErrorCode::SnsNotFound);
    }
    void limits_refusedAndNothingChanges()
    {
        QFETCH(QString, topic);
        QFETCH(int, messageBytes);
        QFETCH(QString, subject);
        QFETCH(int, attributeCount);
        QFETCH(QString, group);
        QFETCH(QString, dedup);
        QFETCH(int, code);
        TopicTestBroker broker;
        QVERIFY(broker.createTopic("orders").ok());
        QVERIFY(broker.createTopic("events.fifo", {{"FifoTopic", "true"}}).ok());
        broker.subscribeQueue("orders", "inbox");
        broker.subscribeQueue("events.fifo", "inbox.fifo");
        QVERIFY(broker.subscribe("orders", "http", "http://h/x", {}, true).ok());
        const std::string before = broker.snapshot();
        PublishRequest request;
        request.message = std::string(std::size_t(messageBytes), 'm');
        if (!subject.isEmpty())
            request.subject = subject.toStdString();
        for (int i = 0; i < attributeCount; ++i)
            request.attributes["a" + std::to_string(i)] = MessageAttributeValue{"String", "v", {}};
        if (!group.isEmpty())
            request.groupId = group.toStdString();
        if (!dedup.isEmpty())
            request.deduplicationId = dedup.toStdString();
        Result<PublishReceipt> refused = broker.publish(topic.toStdString(), request, at(5));
        QVERIFY(!refused.ok());
        QCOMPARE(int(refused.error().code), code);
        QCOMPARE(broker.snapshot(), before);
    }

    void publish_atLimitIsAccepted()
    {
        TopicTestBroker broker;
        QVERIFY(broker.createTopic("orders").ok());
        QVERIFY(broker.publish("orders", std::string(256 * 1024, 'm')).ok());
    }

    void fifo_passesGroupAndDeduplicates()
    {
        TopicTestBroker broker;
        QVERIFY(broker.createTopic("events.fifo", {{"FifoTopic", "true"}, {"ContentBasedDeduplication", "true"}}).ok());
        broker.subscribeQueue("events.fifo", "inbox.fifo", {{"RawMessageDelivery", "true"}});
        PublishRequest request;
        request.message = "one";
        request.groupId = "g1";
        Result<PublishReceipt> first = broker.publish("events.fifo", request, at(1));
        QVERIFY(first.ok());
        QCOMPARE(first->sequenceNumber.value_or(0), std::int64_t(1));
        Result<PublishReceipt> duplicate = broker.publish("events.fifo", request, at(60));
        QVERIFY(duplicate->duplicate);
        QCOMPARE(duplicate->messageId, first->messageId);
        request.deduplicationId = "explicit";
        Result<PublishReceipt> second = broker.publish("events.fifo", request, at(61));
        QVERIFY(!second->duplicate);
        QCOMPARE(second->sequenceNumber.value_or(0), std::int64_t(2));
        request.deduplicationId.reset();
        Result<PublishReceipt> afterWindow = broker.publish("events.fifo", request, at(302));
        QVERIFY(!afterWindow->duplicate);
        const std::vector<ReceivedMessage> received = broker.receiveAll("inbox.fifo", at(303));
        QCOMPARE(received.size(), std::size_t(3));
        QCOMPARE(received[0].groupId.value_or(""), std::string("g1"));
        QCOMPARE(received[1].deduplicationId.value_or(""), std::string("explicit"));
    }

    void batch_rulesAndEntries()
    {
        TopicTestBroker broker;
        QVERIFY(broker.createTopic("orders").ok());
        broker.subscribeQueue("orders", "inbox", {{"RawMessageDelivery", "true"}});
        const std::string before = broker.snapshot();
        auto batch = [&](const std::vector<BatchEntry<PublishRequest>> &entries) {
            return broker.unit([&] { return broker.publisher().publishBatch("orders", entries, at(3)); });
        };
        QCOMPARE(batch({}).error().code, BrokerErrorCode::SnsEmptyBatchRequest);
        std::vector<BatchEntry<PublishRequest>> eleven;
        for (int i = 0; i < 11; ++i)
            eleven.push_back({"e" + std::to_string(i), PublishRequest{"m", {}, {}, {}, {}, {}}});
        QCOMPARE(batch(eleven).error().code, BrokerErrorCode::SnsTooManyEntriesInBatchRequest);
        QCOMPARE(batch({{"a", {"m", {}, {}, {}, {}, {}}}, {"a", {"n", {}, {}, {}, {}, {}}}}).error().code,
                 BrokerErrorCode::SnsBatchEntryIdsNotDistinct);
        QCOMPARE(batch({{"a", {std::string(200 * 1024, 'x'), {}, {}, {}, {}, {}}},
                        {"b", {std::string(100 * 1024, 'y'), {}, {}, {}, {}, {}}}})
                     .error()
                     .code,
                 BrokerErrorCode::SnsBatchRequestTooLong);
        QCOMPARE(broker.snapshot(), before);
        auto results = batch({{"ok", {"fine", {}, {}, {}, {}, {}}}, {"bad", {"", {}, {}, {}, {}, {}}}});
        QVERIFY(results.ok());
        QVERIFY((*results)[0].ok());
        QCOMPARE((*results)[1].error->code, BrokerErrorCode::SnsInvalidParameter);
        QCOMPARE(broker.receiveAll("inbox", at(4)).size(), std::size_t(1));
    }

    void ttl_cappedBySmallerDefault()
    {
        TopicTestBroker broker;
        QVERIFY(broker.createTopic("orders", {{"DefaultMessageTimeToLive", "60"}}).ok());
        broker.subscribeQueue("orders", "short", {{"DefaultMessageTimeToLive", "30"}});
        broker.subscribeQueue("orders", "long");
        QVERIFY(broker.subscribe("orders", "http", "http://h/x", {{"DefaultMessageTimeToLive", "20"}}, true).ok());
        PublishRequest request;
        request.message = "m";
        request.timeToLiveSeconds = 100;
        QVERIFY(broker.publish("orders", request, at(0)).ok());
        const std::int64_t base = toEpochMilliseconds(at(0));
        QCOMPARE(broker.count("SELECT m.expires_at_ms FROM messages m JOIN queues q ON q.id = m.queue_id WHERE q.name = 'short'"),
                 base + 30'000);
        QCOMPARE(broker.count("SELECT m.expires_at_ms FROM messages m JOIN queues q ON q.id = m.queue_id WHERE q.name = 'long'"),
                 base + 60'000);
        QCOMPARE(broker.count("SELECT expires_at_ms FROM pending_deliveries"), base + 20'000);
        QCOMPARE(broker.count("SELECT expires_at_ms FROM published_messages"), base + 60'000);
    }

    void restart_keepsPendingDeliveriesAndStates()
    {
        TopicTestBroker broker;
        QVERIFY(broker.createTopic("orders").ok());
        Result<SubscribeReceipt> pending = broker.subscribe("orders", "http", "http://h/pending");
        Result<SubscribeReceipt> confirmed = broker.subscribe("orders", "https", "https://h/ok", {}, true);
        QVERIFY(broker.publish("orders", "kept", at(7)).ok());
        broker.reopen();
        QCOMPARE(broker.count("SELECT count(*) FROM pending_deliveries WHERE attempt = 0 AND due_ms = "
                              + std::to_string(toEpochMilliseconds(at(7)))),
                 std::int64_t(1));
        Result<AttributeMap> a = broker.unit([&] { return broker.subscriptions().subscriptionAttributes(pending->subscriptionArn); });
        QCOMPARE(a->at("PendingConfirmation"), std::string("true"));
        Result<AttributeMap> b = broker.unit([&] { return broker.subscriptions().subscriptionAttributes(confirmed->subscriptionArn); });
        QCOMPARE(b->at("PendingConfirmation"), std::string("false"));
        QVERIFY(broker.unit([&] { return broker.subscriptions().confirmSubscription("orders", pending->confirmationToken); }).ok());
    }
};

RELAYDESK_TEST_MAIN(TopicPublishTest)
#include "topic_publish_test.moc"
