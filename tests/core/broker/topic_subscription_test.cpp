// SPDX-License-Identifier: MIT
// SubscriptionCatalog: subscribe (http/https pending, sqs confirmed, auto
// confirm), confirm by token, unsubscribe, list, attributes and the
// EffectiveDeliveryPolicy; topic deletion cascades; refusals change nothing.
#include "topic_test_support.h"
#include "support/test_main.h"

#include <nlohmann/json.hpp>

using namespace relaydesk;
using namespace relaydesk::testing;

class TopicSubscriptionTest final : public QObject {
    Q_OBJECT

private slots:
    void subscribe_httpStartsPendingSqsConfirmed()
    {
        TopicTestBroker broker;
        QVERIFY(broker.createTopic("orders").ok());
        Result<SubscribeReceipt> http = broker.subscribe("orders", "http", "http://localhost:8080/hook");
        QVERIFY(http.ok());
        QVERIFY(http->pendingConfirmation);
        QVERIFY(!http->confirmationToken.empty());
        QVERIFY(http->subscriptionArn.starts_with("arn:aws:sns:us-east-1:000000000000:orders:"));
        const std::string sqs = broker.subscribeQueue("orders", "inbox");
        Result<AttributeMap> sqsMap = broker.unit([&] { return broker.subscriptions().subscriptionAttributes(sqs); });
        QCOMPARE(sqsMap->at("PendingConfirmation"), std::string("false"));
        QCOMPARE(sqsMap->at("Protocol"), std::string("sqs"));
        QCOMPARE(sqsMap->at("Endpoint"), std::string("arn:aws:sqs:us-east-1:000000000000:inbox"));
        Result<AttributeMap> httpMap =
            broker.unit([&] { return broker.subscriptions().subscriptionAttributes(http->subscriptionArn); });
        QCOMPARE(httpMap->at("PendingConfirmation"), std::string("true"));
        QCOMPARE(httpMap->at("ConfirmationWasAuthenticated"), std::string("false"));
        QCOMPARE(httpMap->at("TopicArn"), std::string("arn:aws:sns:us-east-1:000000000000:orders"));
        QCOMPARE(httpMap->at("Owner"), std::string("000000000000"));
        Result<AttributeMap> topicMap = broker.unit([&] { return broker.topics().topicAttributes("orders"); });
        QCOMPARE(topicMap->at("SubscriptionsConfirmed"), std::string("1"));
        QCOMPARE(topicMap->at("SubscriptionsPending"), std::string("1"));
    }

    void subscribe_autoConfirmAndIdempotent()
    {
        TopicTestBroker broker;
        QVERIFY(broker.createTopic("orders").ok());
        Result<SubscribeReceipt> first = broker.subscribe("orders", "https", "https://example.com/x", {}, true);
        QVERIFY(first.ok());
        QVERIFY(!first->pendingConfirmation);
        Result<SubscribeReceipt> again = broker.subscribe("orders", "https", "https://example.com/x", {}, true);
        QCOMPARE(again->subscriptionArn, first->subscriptionArn);
        QCOMPARE(broker.count("SELECT count(*) FROM subscriptions"), std::int64_t(1));
    }

    void confirm_byToken()
    {
        TopicTestBroker broker;
        QVERIFY(broker.createTopic("orders").ok());
        Result<SubscribeReceipt> http = broker.subscribe("orders", "http", "http://localhost/hook");
        const std::string before = broker.snapshot();
        Result<std::string> wrong = broker.unit([&] { return broker.subscriptions().confirmSubscription("orders", "nope"); });
        QCOMPARE(wrong.error().code, BrokerErrorCode::SnsInvalidParameter);
        QCOMPARE(broker.snapshot(), before);
        Result<std::string> confirmed = broker.unit(
            [&] { return broker.subscriptions().confirmSubscription("orders", http->confirmationToken); });
        QVERIFY(confirmed.ok());
        QCOMPARE(*confirmed, http->subscriptionArn);
        QCOMPARE(broker.count("SELECT count(*) FROM subscriptions WHERE state = 'confirmed' AND confirmation_token IS NULL"),
                 std::int64_t(1));
    }

    void subscribe_refused_data()
    {
        QTest::addColumn<QString>("topic");
        QTest::addColumn<QString>("protocol");
        QTest::addColumn<QString>("endpoint");
        QTest::addColumn<QString>("attribute");
        QTest::addColumn<QString>("value");
        QTest::addColumn<int>("code");
        const int invalid = int(BrokerErrorCode::SnsInvalidParameter);
        QTest::newRow("unknown topic") << "nope" << "http" << "http://h/x" << "" << "" << int(BrokerErrorCode::SnsNotFound);
        QTest::newRow("email protocol") << "orders" << "email" << "a@b.c" << "" << "" << invalid;
        QTest::newRow("http endpoint for https") << "orders" << "https" << "http://h/x" << "" << "" << invalid;
        QTest::newRow("missing queue") << "orders" << "sqs" << "arn:aws:sqs:us-east-1:000000000000:ghost" << "" << "" << invalid;
        QTest::newRow("fifo queue on standard topic") << "orders" << "sqs" << "arn:aws:sqs:us-east-1:000000000000:q.fifo" << "" << "" << invalid;
        QTest::newRow("bad filter policy") << "orders" << "http" << "http://h/x" << "FilterPolicy" << "{\"a\": 5}" << invalid;
        QTest::newRow("delivery policy on sqs") << "orders" << "sqs" << "arn:aws:sqs:us-east-1:000000000000:inbox"
                                                << "DeliveryPolicy" << "{\"healthyRetryPolicy\":{\"numRetries\":3}}" << invalid;
        QTest::newRow("bad delivery policy") << "orders" << "http" << "http://h/x" << "DeliveryPolicy"
                                             << "{\"healthyRetryPolicy\":{\"numRetries\":101}}" << invalid;
        QTest::newRow("different attributes") << "orders" << "http" << "http://h/existing" << "RawMessageDelivery" << "true" << invalid;
    }
    void subscribe_refused()
    {
        QFETCH(QString, topic);
        QFETCH(QString, protocol);
        QFETCH(QString, endpoint);
        QFETCH(QString, attribute);
        QFETCH(QString, value);
        QFETCH(int, code);
        TopicTestBroker broker;
        QVERIFY(broker.createTopic("orders").ok());
        QVERIFY(broker.createQueue("inbox").ok());
        QVERIFY(broker.createQueue("q.fifo", {{"FifoQueue", "true"}}).ok());
        QVERIFY(broker.subscribe("orders", "http", "http://h/existing").ok());
        const std::string before = broker.snapshot();
        AttributeMap attributes;
        if (!attribute.isEmpty())
            attributes[attribute.toStdString()] = value.toStdString();
        Result<SubscribeReceipt> refused =
            broker.subscribe(topic.toStdString(), protocol.toStdString(), endpoint.toStdString(), attributes);
        QVERIFY(!refused.ok());
        QCOMPARE(int(refused.error().code), code);
        QCOMPARE(broker.snapshot(), before);
    }

    void unsubscribe_andList()
    {
        TopicTestBroker broker;
        QVERIFY(broker.createTopic("orders").ok());
        QVERIFY(broker.createTopic("other").ok());
        const std::string a = broker.subscribeQueue("orders", "qa");
        QVERIFY(broker.subscribe("orders", "http", "http://h/pending").ok());
        QVERIFY(broker.subscribe("other", "http", "http://h/o", {}, true).ok());
        Result<SubscriptionPage> all = broker.unit([&] { return broker.subscriptions().listSubscriptions(""); });
        QCOMPARE(all->subscriptions.size(), std::size_t(3));
        QCOMPARE(all->subscriptions[1].subscriptionArn, std::string("PendingConfirmation"));
        Result<SubscriptionPage> ofOrders = broker.unit([&] { return broker.subscriptions().listSubscriptions("orders"); });
        QCOMPARE(ofOrders->subscriptions.size(), std::size_t(2));
        QCOMPARE(ofOrders->subscriptions[0].subscriptionArn, a);
        QVERIFY(broker.unit([&] { return broker.subscriptions().unsubscribe(a); }).ok());
        Status gone = broker.unit([&] { return broker.subscriptions().unsubscribe(a); });
        QCOMPARE(gone.error().code, BrokerErrorCode::SnsNotFound);
        QCOMPARE(broker.count("SELECT count(*) FROM subscriptions"), std::int64_t(2));
    }

    void list_pagesWithToken()
    {
        TopicTestBroker broker;
        QVERIFY(broker.createTopic("orders").ok());
        for (int i = 0; i < 120; ++i)
            QVERIFY(broker.subscribe("orders", "http", "http://h/" + std::to_string(i), {}, true).ok());
        Result<SubscriptionPage> first = broker.unit([&] { return broker.subscriptions().listSubscriptions("orders"); });
        QCOMPARE(first->subscriptions.size(), std::size_t(100));
        Result<SubscriptionPage> second =
            broker.unit([&] { return broker.subscriptions().listSubscriptions("orders", first->nextToken); });
        QCOMPARE(second->subscriptions.size(), std::size_t(20));
        QVERIFY(second->nextToken.empty());
        QCOMPARE(second->subscriptions.back().endpoint, std::string("http://h/119"));
    }

    void setAttributes_storedAndRefused()
    {
        TopicTestBroker broker;
        QVERIFY(broker.createTopic("orders").ok());
        const std::string arn = broker.subscribeQueue("orders", "inbox");
        const std::string filter = R"({"sport":["rugby"]})";
        QVERIFY(broker.unit([&] { return broker.subscriptions().setSubscriptionAttribute(arn, "FilterPolicy", filter); }).ok());
        QVERIFY(broker.unit([&] { return broker.subscriptions().setSubscriptionAttribute(arn, "RawMessageDelivery", "true"); }).ok());
        Result<AttributeMap> map = broker.unit([&] { return broker.subscriptions().subscriptionAttributes(arn); });
        QCOMPARE(map->at("FilterPolicy"), filter);
        QCOMPARE(map->at("FilterPolicyScope"), std::string("MessageAttributes"));
        QCOMPARE(map->at("RawMessageDelivery"), std::string("true"));
        QCOMPARE(broker.count("SELECT raw_delivery FROM subscriptions"), std::int64_t(1));
        const std::string before = broker.snapshot();
        Status refused = broker.unit([&] { return broker.subscriptions().setSubscriptionAttribute(arn, "FilterPolicyScope", "MessageBody"); });
        QCOMPARE(refused.error().code, BrokerErrorCode::SnsInvalidParameter);
        Status badArn = broker.unit([&] { return broker.subscriptions().setSubscriptionAttribute("arn:x", "RawMessageDelivery", "true"); });
        QVERIFY(!badArn.ok());
        QCOMPARE(broker.snapshot(), before);
    }

    void effectivePolicy_data()
    {
        QTest::addColumn<QString>("topicPolicy");
        QTest::addColumn<QString>("subscriptionPolicy");
        QTest::addColumn<int>("numRetries");
        QTest::addColumn<bool>("disabled");
        QTest::addColumn<QString>("contentType");
        QTest::newRow("defaults") << "" << "" << 3 << false << "text/plain; charset=UTF-8";
        QTest::newRow("subscription wins")
            << R"({"http":{"defaultHealthyRetryPolicy":{"numRetries":7,"minDelayTarget":1,"maxDelayTarget":20}}})"
            << R"({"healthyRetryPolicy":{"numRetries":9,"minDelayTarget":1,"maxDelayTarget":20},"requestPolicy":{"headerContentType":"application/json"}})"
            << 9 << false << "application/json";
        QTest::newRow("topic when subscription has none")
            << R"({"http":{"defaultHealthyRetryPolicy":{"numRetries":7,"minDelayTarget":1,"maxDelayTarget":20}}})" << "" << 7
            << false << "text/plain; charset=UTF-8";
        QTest::newRow("overrides disabled")
            << R"({"http":{"defaultHealthyRetryPolicy":{"numRetries":7,"minDelayTarget":1,"maxDelayTarget":20},"disableSubscriptionOverrides":true}})"
            << R"({"healthyRetryPolicy":{"numRetries":9,"minDelayTarget":1,"maxDelayTarget":20}})" << 7 << true
            << "text/plain; charset=UTF-8";
    }
    void effectivePolicy()
    {
        QFETCH(QString, topicPolicy);
        QFETCH(QString, subscriptionPolicy);
        QFETCH(int, numRetries);
        QFETCH(bool, disabled);
        QFETCH(QString, contentType);
        TopicTestBroker broker;
        AttributeMap topicAttributes;
        if (!topicPolicy.isEmpty())
            topicAttributes["DeliveryPolicy"] = topicPolicy.toStdString();
        QVERIFY(broker.createTopic("orders", topicAttributes).ok());
        AttributeMap attributes;
        if (!subscriptionPolicy.isEmpty())
            attributes["DeliveryPolicy"] = subscriptionPolicy.toStdString();
        Result<SubscribeReceipt> sub = broker.subscribe("orders", "https", "https://h/x", attributes, true);
        QVERIFY2(sub.ok(), sub.ok() ? "" : sub.error().message.c_str());
        Result<AttributeMap> map = broker.unit([&] { return broker.subscriptions().subscriptionAttributes(sub->subscriptionArn); });
        const nlohmann::json effective = nlohmann::json::parse(map->at("EffectiveDeliveryPolicy"));
        QCOMPARE(effective["http"]["defaultHealthyRetryPolicy"]["numRetries"].get<int>(), numRetries);
        QCOMPARE(effective["http"]["disableSubscriptionOverrides"].get<bool>(), disabled);
        QCOMPARE(QString::fromStdString(effective["http"]["defaultRequestPolicy"]["headerContentType"].get<std::string>()),
                 contentType);
        QVERIFY(effective["http"]["defaultHealthyRetryPolicy"].contains("backoffFunction"));
        QVERIFY(!effective["http"].contains("defaultThrottlePolicy"));
        if (!subscriptionPolicy.isEmpty())
            QCOMPARE(QString::fromStdString(map->at("DeliveryPolicy")), subscriptionPolicy);
    }

    void effectivePolicy_throttleWhenSet()
    {
        TopicTestBroker broker;
        QVERIFY(broker.createTopic("orders").ok());
        Result<SubscribeReceipt> sub = broker.subscribe(
            "orders", "http", "http://h/x",
            {{"DeliveryPolicy", R"({"healthyRetryPolicy":{"numRetries":3},"throttlePolicy":{"maxReceivesPerSecond":5}})"}}, true);
        QVERIFY2(sub.ok(), sub.ok() ? "" : sub.error().message.c_str());
        Result<AttributeMap> map = broker.unit([&] { return broker.subscriptions().subscriptionAttributes(sub->subscriptionArn); });
        const nlohmann::json effective = nlohmann::json::parse(map->at("EffectiveDeliveryPolicy"));
        QCOMPARE(effective["http"]["defaultThrottlePolicy"]["maxReceivesPerSecond"].get<int>(), 5);
    }

    void deleteTopic_removesSubscriptions()
    {
        TopicTestBroker broker;
        QVERIFY(broker.createTopic("orders").ok());
        QVERIFY(broker.createTopic("other").ok());
        broker.subscribeQueue("orders", "inbox");
        QVERIFY(broker.subscribe("orders", "http", "http://h/x", {}, true).ok());
        QVERIFY(broker.subscribe("other", "http", "http://h/x", {}, true).ok());
        QVERIFY(broker.publish("orders", "hello").ok());
        QCOMPARE(broker.count("SELECT count(*) FROM pending_deliveries"), std::int64_t(1));
        QVERIFY(broker.unit([&] { return broker.topics().deleteTopic("orders"); }).ok());
        QCOMPARE(broker.count("SELECT count(*) FROM subscriptions"), std::int64_t(1));
        QCOMPARE(broker.count("SELECT count(*) FROM pending_deliveries"), std::int64_t(0));
        QCOMPARE(broker.count("SELECT count(*) FROM queues"), std::int64_t(1));   // the queue stays
    }
};

RELAYDESK_TEST_MAIN(TopicSubscriptionTest)
#include "topic_subscription_test.moc"
