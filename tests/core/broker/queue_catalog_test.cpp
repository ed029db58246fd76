// SPDX-License-Identifier: MIT
// Unit tests of QueueCatalog (docs/behaviour.md §1, 5, 10): create (idempotent with the
// same attributes), delete, URL, list by prefix, attributes with the
// approximate counts, tags, dead-letter source queues. Real SQLite file.

#include "broker/queues/queue_catalog.h"
#include "queue_test_support.h"
#include "support/test_main.h"

using namespace relaydesk;
using namespace relaydesk::testing;

Q_DECLARE_METATYPE(relaydesk::BrokerErrorCode)

class QueueCatalogTest final : public QObject {
    Q_OBJECT

private slots:
    void create_newQueue_urlAndDefaults();
    void create_sameAttributes_idempotent();
    void create_differentAttributes_queueAlreadyExists();
    void create_invalid_errorAndNothingStored_data();
    void create_invalid_errorAndNothingStored();
    void delete_queue_goneWithMessages();
    void unknownQueue_queueDoesNotExist();
    void list_prefix_matchingUrlsByName();
    void attributes_counts_followMessageStates();
    void attributes_unknownName_invalidAttributeName();
    void setAttributes_changes_keptAndLastModified();
    void tags_tagUntagList_roundTrip();
    void tags_outsideTheRules_refusedAndNothingChanges_data();
    void tags_outsideTheRules_refusedAndNothingChanges();
    void list_garbageNextToken_refused();
    void deadLetterSources_listed();
};

void QueueCatalogTest::create_newQueue_urlAndDefaults()
{
    QueueTestBroker broker;
    Result<std::string> url = broker.create("orders");
    QVERIFY(url.ok());
    QCOMPARE(QString::fromStdString(*url), QStringLiteral("http://127.0.0.1:9911/000000000000/orders"));
    QueueCatalog catalog(broker.db(), broker.identity());
    Result<AttributeMap> attributes = catalog.queueAttributes("orders", {"All"}, at(5));
    QVERIFY(attributes.ok());
    QCOMPARE(attributes->at("VisibilityTimeout"), std::string("30"));
    QCOMPARE(attributes->at("QueueArn"), std::string("arn:aws:sqs:us-east-1:000000000000:orders"));
    QCOMPARE(attributes->at("ApproximateNumberOfMessages"), std::string("0"));
    QCOMPARE(attributes->at("CreatedTimestamp"), std::to_string(toEpochMilliseconds(at(0)) / 1000));
}

void QueueCatalogTest::create_sameAttributes_idempotent()
{
    QueueTestBroker broker;
    QVERIFY(broker.create("orders", {{"VisibilityTimeout", "45"}}).ok());
    QVERIFY(broker.create("orders", {{"VisibilityTimeout", "45"}}, at(10)).ok());
    QVERIFY(broker.create("orders", {}, at(10)).ok());
    QCOMPARE(broker.count("SELECT count(*) FROM queues"), 1);
}

void QueueCatalogTest::create_differentAttributes_queueAlreadyExists()
{
    QueueTestBroker broker;
    QVERIFY(broker.create("orders", {{"VisibilityTimeout", "45"}}).ok());
    const std::string before = broker.snapshot();
    Result<std::string> again = broker.create("orders", {{"VisibilityTimeout", "46"}}, at(10));
    QVERIFY(!again.ok());
    QCOMPARE(again.error().code, BrokerErrorCode::QueueAlreadyExists);
    QCOMPARE(broker.snapshot(), before);
}

void QueueCatalogTest::create_invalid_errorAndNothingStored_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("attribute");
    QTest::addColumn<QString>("value");
    QTest::addColumn<BrokerErrorCode>("code");
    QTest::newRow("empty name") << "" << "" << "" << BrokerErrorCode::InvalidParameterValue;
    QTest::newRow("81 characters") << QString(81, QLatin1Char('a')) << "" << "" << BrokerErrorCode::InvalidParameterValue;
    QTest::newRow("bad character") << "a b" << "" << "" << BrokerErrorCode::InvalidParameterValue;
    QTest::newRow("fifo without suffix") << "plain" << "FifoQueue" << "true" << BrokerErrorCode::InvalidParameterValue;
    QTest::newRow("visibility 43201") << "q" << "VisibilityTimeout" << "43201" << BrokerErrorCode::InvalidParameterValue;
    QTest::newRow("delay 901") << "q" << "DelaySeconds" << "901" << BrokerErrorCode::InvalidParameterValue;
    QTest::newRow("retention 59") << "q" << "MessageRetentionPeriod" << "59" << BrokerErrorCode::InvalidAttributeValue;
    QTest::newRow("retention 1209601") << "q" << "MessageRetentionPeriod" << "1209601"
                                       << BrokerErrorCode::InvalidAttributeValue;
    QTest::newRow("max size 1023") << "q" << "MaximumMessageSize" << "1023" << BrokerErrorCode::InvalidParameterValue;
    QTest::newRow("wait 21") << "q" << "ReceiveMessageWaitTimeSeconds" << "21" << BrokerErrorCode::InvalidParameterValue;
    QTest::newRow("missing dead-letter queue")
        << "q" << "RedrivePolicy"
        << R"({"deadLetterTargetArn":"arn:aws:sqs:us-east-1:000000000000:nowhere","maxReceiveCount":3})"
        << BrokerErrorCode::InvalidParameterValue;
    QTest::newRow("dead-letter queue denies all")
        << "q" << "RedrivePolicy"
        << R"({"deadLetterTargetArn":"arn:aws:sqs:us-east-1:000000000000:closed","maxReceiveCount":3})"
        << BrokerErrorCode::InvalidParameterValue;
    QTest::newRow("unknown attribute") << "q" << "Colour" << "blue" << BrokerErrorCode::InvalidAttributeName;
}

void QueueCatalogTest::create_invalid_errorAndNothingStored()
{
    QFETCH(QString, name);
    QFETCH(QString, attribute);
    QFETCH(QString, value);
    QFETCH(BrokerErrorCode, code);
    QueueTestBroker broker;
    AttributeMap attributes;
    if (!attribute.isEmpty())
        attributes[attribute.toStdString()] = value.toStdString();
    QVERIFY(broker.create("closed", {{"RedriveAllowPolicy", R"({"redrivePermission":"denyAll"})"}}).ok());
    const std::string before = broker.snapshot();
    Result<std::string> created = broker.create(name.toStdString(), attributes);
    QVERIFY(!created.ok());
    QCOMPARE(created.error().code, code);
    QCOMPARE(broker.snapshot(), before);
}

void QueueCatalogTest::delete_queue_goneWithMessages()
{
    QueueTestBroker broker;
    QVERIFY(broker.create("orders").ok());
    QVERIFY(broker.send("orders", "one", at(1)).ok());
    QVERIFY(broker.unit([&] { return QueueCatalog(broker.db(), broker.identity()).deleteQueue("orders"); }).ok());
    QCOMPARE(broker.count("SELECT count(*) FROM queues"), 0);
    QCOMPARE(broker.count("SELECT count(*) FROM messages"), 0);
}

void QueueCatalogTest::unknownQueue_queueDoesNotExist()
{
    QueueTestBroker broker;
    QueueCatalog catalog(broker.db(), broker.identity());
    QCOMPARE(catalog.queueUrl("nope").error().code, BrokerErrorCode::QueueDoesNotExist);
    QCOMPARE(catalog.deleteQueue("nope").error().code, BrokerErrorCode::QueueDoesNotExist);
    QCOMPARE(catalog.queueAttributes("nope", {"All"}, at(0)).error().code, BrokerErrorCode::QueueDoesNotExist);
    QCOMPARE(broker.send("nope", "x", at(0)).error().code, BrokerErrorCode::QueueDoesNotExist);
}

void QueueCatalogTest::list_prefix_matchingUrlsByName()
{
    QueueTestBroker broker;
    for (const char *name : {"beta", "alpha-2", "alpha-1", "gamma"})
        QVERIFY(broker.create(name).ok());
    QueueCatalog catalog(broker.db(), broker.identity());
    Result<std::vector<std::string>> urls = catalog.listQueueUrls("alpha");
    QVERIFY(urls.ok());
    QCOMPARE(urls->size(), std::size_t(2));
    QCOMPARE(urls->at(0), broker.identity().queueUrl("alpha-1"));
    QCOMPARE(catalog.listQueueUrls("").value().size(), std::size_t(4));
    QCOMPARE(catalog.listQueueUrls("", 2).value().size(), std::size_t(2));
    QCOMPARE(catalog.listQueueUrls("%").value().size(), std::size_t(0));
}

void QueueCatalogTest::attributes_counts_followMessageStates()
{
    QueueTestBroker broker;
    QVERIFY(broker.create("orders").ok());
    QVERIFY(broker.send("orders", "a", at(1)).ok());
    QVERIFY(broker.send("orders", "b", at(1)).ok());
    SendRequest delayed;
    delayed.body = "c";
    delayed.delaySeconds = 60;
    QVERIFY(broker.send("orders", delayed, at(1)).ok());
    QCOMPARE(broker.receiveBodies("orders", 1, at(2)).size(), 1);
    QueueCatalog catalog(broker.db(), broker.identity());
    Result<AttributeMap> counts = catalog.queueAttributes(
        "orders",
        {"ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible", "ApproximateNumberOfMessagesDelayed"},
        at(3));
    QVERIFY(counts.ok());
    QCOMPARE(counts->size(), std::size_t(3));
    QCOMPARE(counts->at("ApproximateNumberOfMessages"), std::string("1"));
    QCOMPARE(counts->at("ApproximateNumberOfMessagesNotVisible"), std::string("1"));
    QCOMPARE(counts->at("ApproximateNumberOfMessagesDelayed"), std::string("1"));
    // After the visibility timeout (30 s) and the delay (60 s) all three are visible.
    QCOMPARE(catalog.queueAttributes("orders", {"ApproximateNumberOfMessages"}, at(61)).value().at(
                 "ApproximateNumberOfMessages"),
             std::string("3"));
}

void QueueCatalogTest::attributes_unknownName_invalidAttributeName()
{
    QueueTestBroker broker;
    QVERIFY(broker.create("orders").ok());
    QueueCatalog catalog(broker.db(), broker.identity());
    QCOMPARE(catalog.queueAttributes("orders", {"Colour"}, at(0)).error().code, BrokerErrorCode::InvalidAttributeName);
}

void QueueCatalogTest::setAttributes_changes_keptAndLastModified()
{
    QueueTestBroker broker;
    QVERIFY(broker.create("orders").ok());
    QVERIFY(broker.unit([&] {
        return QueueCatalog(broker.db(), broker.identity())
            .setQueueAttributes("orders", {{"VisibilityTimeout", "90"}, {"DelaySeconds", "5"}}, at(100));
    }).ok());
    const std::string before = broker.snapshot();
    Status refused = broker.unit([&] {
        return QueueCatalog(broker.db(), broker.identity())
            .setQueueAttributes("orders", {{"VisibilityTimeout", "10"}, {"DelaySeconds", "9999"}}, at(200));
    });
    QCOMPARE(refused.error().code, BrokerErrorCode::InvalidParameterValue);
    QCOMPARE(broker.snapshot(), before);
    broker.reopen();
    Result<AttributeMap> attributes =
        QueueCatalog(broker.db(), broker.identity()).queueAttributes("orders", {"All"}, at(300));
    QCOMPARE(attributes->at("VisibilityTimeout"), std::string("90"));
    QCOMPARE(attributes->at("DelaySeconds"), std::string("5"));
    QCOMPARE(attributes->at("LastModifiedTimestamp"), std::to_string(toEpochMilliseconds(at(100)) / 1000));
}

void QueueCatalogTest::tags_tagUntagList_roundTrip()
{
    QueueTestBroker broker;
    QVERIFY(broker.unit([&] {
        return QueueCatalog(broker.db(), broker.identity()).createQueue("orders", {}, {{"team", "a"}}, at(0));
    }).ok());
    QueueCatalog catalog(broker.db(), broker.identity());
    QVERIFY(catalog.tagQueue("orders", {{"env", "dev"}, {"team", "b"}}).ok());
    QVERIFY(catalog.untagQueue("orders", {"env"}).ok());
    Result<QueueTags> tags = catalog.queueTags("orders");
    QCOMPARE(tags->size(), std::size_t(1));
    QCOMPARE(tags->at("team"), std::string("b"));
    QCOMPARE(catalog.tagQueue("orders", {{"", "x"}}).error().code, BrokerErrorCode::InvalidParameterValue);
}

void QueueCatalogTest::tags_outsideTheRules_refusedAndNothingChanges_data()
{
    QTest::addColumn<std::string>("key");
    QTest::addColumn<std::string>("value");
    QTest::addColumn<bool>("allowed");
    QTest::newRow("plain") << std::string("team") << std::string("payments") << true;
    QTest::newRow("all punctuation allowed") << std::string("a_b.c:d/e=f+g-h@i j") << std::string("x_y.z:/=+-@ ") << true;
    QTest::newRow("other scripts") << std::string("équipe") << std::string("支払い") << true;
    QTest::newRow("empty value") << std::string("flag") << std::string() << true;
    QTest::newRow("128-character key") << std::string(128, 'k') << std::string("v") << true;
    QTest::newRow("129-character key") << std::string(129, 'k') << std::string("v") << false;
    QTest::newRow("128 two-byte characters") << [] { std::string k; for (int i = 0; i < 128; ++i) k += "é"; return k; }()
                                             << std::string("v") << true;
    QTest::newRow("257-character value") << std::string("k") << std::string(257, 'v') << false;
    QTest::newRow("NUL in key") << std::string("a\0b", 3) << std::string("v") << false;
    QTest::newRow("newline in value") << std::string("k") << std::string("a\nb") << false;
    QTest::newRow("reserved aws: prefix") << std::string("aws:cloudformation") << std::string("v") << false;
    QTest::newRow("reserved AWS: prefix") << std::string("AWS:x") << std::string("v") << false;
    QTest::newRow("semicolon") << std::string("a;b") << std::string("v") << false;
    QTest::newRow("quote in value") << std::string("k") << std::string("\"") << false;
}

void QueueCatalogTest::tags_outsideTheRules_refusedAndNothingChanges()
{
    QFETCH(std::string, key);
    QFETCH(std::string, value);
    QFETCH(bool, allowed);
    QueueTestBroker broker;
    QVERIFY(broker.create("orders").ok());
    QueueCatalog catalog(broker.db(), broker.identity());
    const Status tagged = catalog.tagQueue("orders", {{key, value}});
    QCOMPARE(tagged.ok(), allowed);
    if (!allowed) {
        QCOMPARE(tagged.error().code, BrokerErrorCode::InvalidParameterValue);
        QCOMPARE(catalog.queueTags("orders")->size(), std::size_t(0));
        const Result<std::string> created = broker.unit(
            [&] { return QueueCatalog(broker.db(), broker.identity()).createQueue("other", {}, {{key, value}}, at(0)); });
        QVERIFY(!created.ok());
    }
}

void QueueCatalogTest::list_garbageNextToken_refused()
{
    QueueTestBroker broker;
    for (const char *name : {"a", "b", "c"})
        QVERIFY(broker.create(name).ok());
    QueueCatalog catalog(broker.db(), broker.identity());
    Result<QueuePage> first = catalog.listQueues("", 2, "");
    QVERIFY(first.ok());
    QCOMPARE(first->queueUrls.size(), std::size_t(2));
    Result<QueuePage> second = catalog.listQueues("", 2, first->nextToken);
    QCOMPARE(second->queueUrls, std::vector<std::string>{broker.identity().queueUrl("c")});
    for (const char *garbage : {"!!!", "%%garbage%%", "a b"}) {
        Result<QueuePage> page = catalog.listQueues("", 2, garbage);
        QVERIFY2(!page.ok(), garbage);
        QCOMPARE(page.error().code, BrokerErrorCode::InvalidParameterValue);
    }
}

void QueueCatalogTest::deadLetterSources_listed()
{
    QueueTestBroker broker;
    QVERIFY(broker.create("dlq").ok());
    const std::string policy = R"({"deadLetterTargetArn":"arn:aws:sqs:us-east-1:000000000000:dlq","maxReceiveCount":2})";
    QVERIFY(broker.create("source-b", {{"RedrivePolicy", policy}}).ok());
    QVERIFY(broker.create("source-a", {{"RedrivePolicy", policy}}).ok());
    QVERIFY(broker.create("other").ok());
    Result<std::vector<std::string>> sources =
        QueueCatalog(broker.db(), broker.identity()).deadLetterSourceQueueUrls("dlq");
    QVERIFY(sources.ok());
    QCOMPARE(sources->size(), std::size_t(2));
    QCOMPARE(sources->at(0), broker.identity().queueUrl("source-a"));
}

RELAYDESK_TEST_MAIN(QueueCatalogTest)
#include "queue_catalog_test.moc"
