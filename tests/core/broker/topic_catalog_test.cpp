// SPDX-License-Identifier: MIT
// TopicCatalog: create (idempotent), delete, list with a page token,
// attributes, tags; every refusal changes nothing.
#include "topic_test_support.h"
#include "support/test_main.h"

#include <nlohmann/json.hpp>

using namespace relaydesk;
using namespace relaydesk::testing;

class TopicCatalogTest final : public QObject {
    Q_OBJECT

private slots:
    void create_returnsArnAndIsIdempotent()
    {
        TopicTestBroker broker;
        Result<std::string> arn = broker.createTopic("orders", {{"DisplayName", "Orders"}});
        QVERIFY(arn.ok());
        QCOMPARE(*arn, std::string("arn:aws:sns:us-east-1:000000000000:orders"));
        Result<std::string> again = broker.createTopic("orders", {{"DisplayName", "Orders"}});
        QVERIFY(again.ok());
        QCOMPARE(*again, *arn);
        QCOMPARE(broker.count("SELECT count(*) FROM topics"), std::int64_t(1));
    }

    void create_refused_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("attribute");
        QTest::addColumn<QString>("value");
        QTest::newRow("different attributes") << "orders" << "DisplayName" << "Other";
        QTest::newRow("bad name") << "bad name" << "" << "";
        QTest::newRow("fifo without suffix") << "plain" << "FifoTopic" << "true";
        QTest::newRow("fifo suffix without flag") << "x.fifo" << "" << "";
        QTest::newRow("dedup on standard") << "std" << "ContentBasedDeduplication" << "true";
        QTest::newRow("bad delivery policy") << "dp" << "DeliveryPolicy"
                                             << R"({"http":{"defaultHealthyRetryPolicy":{"numRetries":500}}})";
        QTest::newRow("short idle") << "idle" << "AutoDeleteOnIdle" << "10";
        QTest::newRow("zero ttl") << "ttl" << "DefaultMessageTimeToLive" << "0";
        QTest::newRow("unknown attribute") << "unk" << "Colour" << "blue";
    }
    void create_refused()
    {
        QFETCH(QString, name);
        QFETCH(QString, attribute);
        QFETCH(QString, value);
        TopicTestBroker broker;
        QVERIFY(broker.createTopic("orders", {{"DisplayName", "Orders"}}).ok());
        const std::string before = broker.snapshot();
        AttributeMap attributes;
        if (!attribute.isEmpty())
            attributes[attribute.toStdString()] = value.toStdString();
        Result<std::string> refused = broker.createTopic(name.toStdString(), attributes);
        QVERIFY(!refused.ok());
        QCOMPARE(refused.error().code, BrokerErrorCode::SnsInvalidParameter);
        QCOMPARE(broker.snapshot(), before);
    }

    void attributes_storedAsGivenAndComputed()
    {
        TopicTestBroker broker;
        const std::string policy =
            R"({"http":{"defaultHealthyRetryPolicy":{"numRetries":5,"minDelayTarget":1,"maxDelayTarget":10},"disableSubscriptionOverrides":true}})";
        QVERIFY(broker.createTopic("events.fifo", {{"FifoTopic", "true"}, {"ContentBasedDeduplication", "true"},
                                                    {"DeliveryPolicy", policy}, {"DefaultMessageTimeToLive", "60"},
                                                    {"AutoDeleteOnIdle", "600"}})
                    .ok());
        Result<AttributeMap> map = broker.unit([&] { return broker.topics().topicAttributes("events.fifo"); });
        QVERIFY(map.ok());
        QCOMPARE(map->at("DeliveryPolicy"), policy);
        QCOMPARE(map->at("FifoTopic"), std::string("true"));
        QCOMPARE(map->at("ContentBasedDeduplication"), std::string("true"));
        QCOMPARE(map->at("DefaultMessageTimeToLive"), std::string("60"));
        QCOMPARE(map->at("AutoDeleteOnIdle"), std::string("600"));
        QCOMPARE(map->at("TopicArn"), std::string("arn:aws:sns:us-east-1:000000000000:events.fifo"));
        QCOMPARE(map->at("Owner"), std::string("000000000000"));
        QCOMPARE(map->at("SubscriptionsConfirmed"), std::string("0"));
        const nlohmann::json effective = nlohmann::json::parse(map->at("EffectiveDeliveryPolicy"));
        QCOMPARE(effective["http"]["defaultHealthyRetryPolicy"]["numRetries"].get<int>(), 5);
        QCOMPARE(effective["http"]["disableSubscriptionOverrides"].get<bool>(), true);
        QCOMPARE(effective["http"]["defaultRequestPolicy"]["headerContentType"].get<std::string>(),
                 std::string("text/plain; charset=UTF-8"));
        QCOMPARE(broker.count("SELECT default_ttl_ms FROM topics"), std::int64_t(60'000));
        QCOMPARE(broker.count("SELECT auto_delete_on_idle_ms FROM topics"), std::int64_t(600'000));
    }

    void setAttribute_changesAndTouches()
    {
        TopicTestBroker broker;
        QVERIFY(broker.createTopic("orders").ok());
        Status set = broker.unit([&] { return broker.topics().setTopicAttribute("orders", "DisplayName", "Shop", at(50)); });
        QVERIFY(set.ok());
        Result<AttributeMap> map = broker.unit([&] { return broker.topics().topicAttributes("orders"); });
        QCOMPARE(map->at("DisplayName"), std::string("Shop"));
        QCOMPARE(broker.count("SELECT last_used_ms FROM topics"), toEpochMilliseconds(at(50)));
    }

    void setAttribute_refusedChangesNothing_data()
    {
        QTest::addColumn<QString>("topic");
        QTest::addColumn<QString>("attribute");
        QTest::addColumn<QString>("value");
        QTest::addColumn<int>("code");
        QTest::newRow("unknown topic") << "nope" << "DisplayName" << "x" << int(BrokerErrorCode::SnsNotFound);
        QTest::newRow("fifo flag") << "orders" << "FifoTopic" << "true" << int(BrokerErrorCode::SnsInvalidParameter);
        QTest::newRow("long display name") << "orders" << "DisplayName" << QString(101, QLatin1Char('a'))
                                           << int(BrokerErrorCode::SnsInvalidParameter);
        QTest::newRow("bad policy") << "orders" << "DeliveryPolicy" << "{\"http\":7}"
                                    << int(BrokerErrorCode::SnsInvalidParameter);
    }
    void setAttribute_refusedChangesNothing()
    {
        QFETCH(QString, topic);
        QFETCH(QString, attribute);
        QFETCH(QString, value);
        QFETCH(int, code);
        TopicTestBroker broker;
        QVERIFY(broker.createTopic("orders").ok());
        const std::string before = broker.snapshot();
        Status refused = broker.unit([&] {
            return broker.topics().setTopicAttribute(topic.toStdString(), attribute.toStdString(), value.toStdString(),
                                                     at(9));
        });
        QVERIFY(!refused.ok());
        QCOMPARE(int(refused.error().code), code);
        QCOMPARE(broker.snapshot(), before);
    }

    void list_pagesWithToken()
    {
        TopicTestBroker broker;
        for (int i = 0; i < 150; ++i)
            QVERIFY(broker.createTopic("t" + std::to_string(1000 + i)).ok());
        Result<TopicPage> first = broker.unit([&] { return broker.topics().listTopics(); });
        QVERIFY(first.ok());
        QCOMPARE(first->topicArns.size(), std::size_t(100));
        QVERIFY(!first->nextToken.empty());
        Result<TopicPage> second = broker.unit([&] { return broker.topics().listTopics(first->nextToken); });
        QCOMPARE(second->topicArns.size(), std::size_t(50));
        QVERIFY(second->nextToken.empty());
        QCOMPARE(second->topicArns.back(), std::string("arn:aws:sns:us-east-1:000000000000:t1149"));
    }

    void delete_removesTopicAndTags()
    {
        TopicTestBroker broker;
        QVERIFY(broker.createTopic("orders").ok());
        QVERIFY(broker.unit([&] { return broker.topics().tagTopic("orders", {{"team", "a"}}); }).ok());
        QVERIFY(broker.unit([&] { return broker.topics().deleteTopic("orders"); }).ok());
        QCOMPARE(broker.count("SELECT count(*) FROM topics"), std::int64_t(0));
        QCOMPARE(broker.count("SELECT count(*) FROM topic_tags"), std::int64_t(0));
        QVERIFY(broker.unit([&] { return broker.topics().deleteTopic("orders"); }).ok());   // as SNS: no error
        Result<AttributeMap> gone = broker.unit([&] { return broker.topics().topicAttributes("orders"); });
        QCOMPARE(gone.error().code, BrokerErrorCode::SnsNotFound);
    }

    void tags_addRemoveAndLimit()
    {
        TopicTestBroker broker;
        QVERIFY(broker.unit([&] { return broker.topics().createTopic("orders", {}, {{"a", "1"}}, at(0)); }).ok());
        QVERIFY(broker.unit([&] { return broker.topics().tagTopic("orders", {{"b", "2"}, {"a", "3"}}); }).ok());
        QVERIFY(broker.unit([&] { return broker.topics().untagTopic("orders", {"b"}); }).ok());
        Result<TopicTags> tags = broker.unit([&] { return broker.topics().topicTags("orders"); });
        QCOMPARE(*tags, (TopicTags{{"a", "3"}}));
        TopicTags many;
        for (int i = 0; i < 50; ++i)
            many["k" + std::to_string(i)] = "v";
        const std::string before = broker.snapshot();
        Status refused = broker.unit([&] { return broker.topics().tagTopic("orders", many); });
        QCOMPARE(refused.error().code, BrokerErrorCode::SnsInvalidParameter);
        Status emptyKey = broker.unit([&] { return broker.topics().tagTopic("orders", {{"", "v"}}); });
        QCOMPARE(emptyKey.error().code, BrokerErrorCode::SnsInvalidParameter);
        QCOMPARE(broker.snapshot(), before);
    }
};

RELAYDESK_TEST_MAIN(TopicCatalogTest)
#include "topic_catalog_test.moc"
