// SPDX-License-Identifier: MIT
// The broker configuration file (docs/behaviour.md §8.3, config/broker_config.h): reading
// with errors that name entity and field, applying as one unit (a refused
// file changes nothing, a second apply changes nothing), export and the
// round trip, on real database files and a virtual clock.
#include "config/broker_config.h"

#include "support/engine_test_support.h"
#include "support/test_main.h"

#include <QTest>

#include <algorithm>

using namespace std::chrono_literals;

namespace relaydesk {

namespace {

using Json = nlohmann::json;
using testing::ServiceBench;

// JSON written with ' for " (moc cannot read raw string literals).
std::string jsonText(std::string text)
{
    std::replace(text.begin(), text.end(), '\'', '"');
    return text;
}
#define JSON_TEXT(text) jsonText(text)
#define JSON_QTEXT(text) QString::fromStdString(jsonText(text))

// QCOMPARE on the JSON text (QCOMPARE cannot take nlohmann::json).
#define JSON_COMPARE(actual, expected) QCOMPARE(Json(actual).dump(), Json(expected).dump())

const ClockTime kStart = fromEpochMilliseconds(1'800'000'000'000);

const std::string kConfigText = JSON_TEXT("{\n"
"  'version': 1,\n"
"  'queues': [\n"
"    {'name': 'orders', 'attributes': {'VisibilityTimeout': '45',\n"
"        'RedrivePolicy': {'deadLetterTargetArn': 'arn:aws:sqs:us-east-1:000000000000:orders-dlq', 'maxReceiveCount': 5}},\n"
"     'tags': {'team': 'shop'}},\n"
"    {'name': 'orders-dlq', 'attributes': {'MessageRetentionPeriod': 1209600}},\n"
"    {'name': 'audit.fifo', 'attributes': {'FifoQueue': true, 'ContentBasedDeduplication': 'true'}}\n"
"  ],\n"
"  'topics': [\n"
"    {'name': 'events', 'tags': {'team': 'shop'},\n"
"     'attributes': {'DisplayName': 'Events',\n"
"        'DeliveryPolicy': {'http': {'defaultHealthyRetryPolicy': {'minDelayTarget': 1, 'maxDelayTarget': 60,\n"
"            'numRetries': 10, 'numNoDelayRetries': 0, 'numMinDelayRetries': 0, 'numMaxDelayRetries': 0,\n"
"            'backoffFunction': 'exponential'}}}},\n"
"     'subscriptions': [\n"
"       {'protocol': 'sqs', 'endpoint': 'queue:orders',\n"
"        'attributes': {'RawMessageDelivery': 'true', 'FilterPolicy': {'kind': ['order']}}},\n"
"       {'protocol': 'http', 'endpoint': 'HOOK'}\n"
"     ]}\n"
"  ]\n"
"}");

// The http endpoint, put in here (the document text uses no "//").
const std::string kConfig = [] {
    std::string text = kConfigText;
    text.replace(text.find("HOOK"), 4, "http://127.0.0.1:9/hook");
    return text;
}();

Result<BrokerConfig> read(const std::string &text)
{
    return readBrokerConfigText(text, BrokerIdentity{});
}

Result<ConfigApplied> apply(ServiceBench &bench, const BrokerConfig &config)
{
    return bench.call<ConfigApplied>([&](auto reply) {
        applyBrokerConfig(bench.engine(), bench.service(), bench.identity(), config, nullptr, reply);
    });
}

// Reads and applies `text`: the first error, or what was applied.
Result<ConfigApplied> readAndApply(ServiceBench &bench, const std::string &text)
{
    auto config = read(text);
    if (!config)
        return config.error();
    return apply(bench, *config);
}

Json exported(ServiceBench &bench)
{
    auto config = bench.call<BrokerConfig>(
        [&](auto reply) { exportBrokerConfig(bench.engine(), bench.identity(), nullptr, reply); });
    if (!config)
        return Json("export failed: " + config.error().message);
    return writeBrokerConfig(*config, bench.identity());
}

// {"queues": [{"name": "q0"}, …]} with `count` queues.
QString manyQueues(std::size_t count)
{
    QString text = QStringLiteral("{\"queues\": [");
    for (std::size_t index = 0; index < count; ++index)
        text += QStringLiteral("%1{\"name\": \"q%2\"}").arg(QLatin1String(index == 0 ? "" : ", ")).arg(index);
    return text + QStringLiteral("]}");
}

} // namespace

class BrokerConfigTest final : public QObject {
    Q_OBJECT

private slots:
    void refusedFile_namesEntityAndFieldAndChangesNothing_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        QTest::newRow("not JSON") << "{" << "config: not valid JSON";
        QTest::newRow("unknown top-level key") << JSON_QTEXT("{'queus': []}") << "queus: unknown key";
        QTest::newRow("wrong version") << JSON_QTEXT("{'version': 2}") << "version: must be 1";
        QTest::newRow("unknown queue key") << JSON_QTEXT("{'queues': [{'name': 'orders', 'atributes': {}}]}")
                                           << "queues[0] (orders): atributes: unknown key";
        QTest::newRow("queue without name") << JSON_QTEXT("{'queues': [{'attributes': {}}]}") << "queues[0]: \"name\" is required";
        QTest::newRow("queues not an array") << JSON_QTEXT("{'queues': {'name': 'orders'}}") << "queues: must be an array";
        QTest::newRow("attribute of wrong type") << JSON_QTEXT("{'queues': [{'name': 'orders', 'attributes': {'VisibilityTimeout': 4.5}}]}")
                                                 << "queues[0] (orders): attributes.VisibilityTimeout: must be a string";
        QTest::newRow("attribute out of range")
            << JSON_QTEXT("{'queues': [{'name': 'a'}, {'name': 'orders', 'attributes': {'VisibilityTimeout': '50000'}}]}")
            << "queues[1] (orders): attributes.VisibilityTimeout: ";
        QTest::newRow("unknown attribute") << JSON_QTEXT("{'queues': [{'name': 'orders', 'attributes': {'Colour': 'red'}}]}")
                                           << "queues[0] (orders): attributes.Colour: not a settable queue attribute";
        QTest::newRow("computed attribute") << JSON_QTEXT("{'queues': [{'name': 'orders', 'attributes': {'QueueArn': 'x'}}]}")
                                            << "queues[0] (orders): attributes.QueueArn: not a settable queue attribute";
        QTest::newRow("tag not a string") << JSON_QTEXT("{'queues': [{'name': 'orders', 'tags': {'team': 1}}]}")
                                          << "queues[0] (orders): tags.team: must be a string";
        QTest::newRow("duplicate queue")
            << JSON_QTEXT("{'queues': [{'name': 'orders'}, {'name': 'orders'}]}")
            << "queues[1] (orders): name: declared twice (also queues[0] (orders))";
        QTest::newRow("duplicate topic") << JSON_QTEXT("{'topics': [{'name': 'events'}, {'name': 'events'}]}")
                                         << "topics[1] (events): name: declared twice (also topics[0] (events))";
        QTest::newRow("bad topic delivery policy")
            << JSON_QTEXT("{'topics': [{'name': 'events', 'attributes': {'DeliveryPolicy': {'http': {'defaultHealthyRetryPolicy': {'numRetries': 500}}}}}]}")
            << "topics[0] (events): attributes.DeliveryPolicy: ";
        QTest::newRow("bad subscription attribute")
            << JSON_QTEXT("{'topics': [{'name': 'events', 'subscriptions': [{'protocol': 'http', 'endpoint': 'http://127.0.0.1:9/', 'attributes': {'RawMessageDelivery': 'maybe'}}]}]}")
            << "topics[0] (events): subscriptions[0] (http http://127.0.0.1:9/): attributes.RawMessageDelivery: ";
        QTest::newRow("bad protocol")
            << JSON_QTEXT("{'topics': [{'name': 'events', 'subscriptions': [{'protocol': 'smtp', 'endpoint': 'a@b.c'}]}]}")
            << "topics[0] (events): subscriptions[0] (smtp a@b.c): protocol: ";
        QTest::newRow("duplicate subscription")
            << JSON_QTEXT("{'topics': [{'name': 'events', 'subscriptions': [{'protocol': 'http', 'endpoint': 'http://127.0.0.1:9/'}, {'protocol': 'http', 'endpoint': 'http://127.0.0.1:9/'}]}]}")
            << "topics[0] (events): subscriptions[1]: the same protocol and endpoint are declared twice";
        QTest::newRow("other region") << JSON_QTEXT("{'region': 'eu-west-1', 'queues': [{'name': 'x'}]}")
                                      << "region: the file is for region eu-west-1 but this broker runs with us-east-1";
        QTest::newRow("other account") << JSON_QTEXT("{'account': '123456789012'}")
                                       << "account: the file is for account 123456789012 but this broker runs with 000000000000";
        QTest::newRow("region not a string") << JSON_QTEXT("{'region': 1}") << "region: must be a string";
        QTest::newRow("unknown delete key") << JSON_QTEXT("{'delete': {'queue': ['x']}}") << "delete.queue: unknown key";
        QTest::newRow("one queue over the entity limit") << manyQueues(kMaxConfigEntities + 1)
                                                         << "config: declares 10001 entities; one document holds at most 10000";
        {
            // The limit counts subscriptions and deletions too.
            QString text = manyQueues(kMaxConfigEntities - 1);
            text.chop(2);
            text += QStringLiteral("], \"topics\": [{\"name\": \"t\", \"subscriptions\": [{\"protocol\": \"sqs\", "
                                   "\"endpoint\": \"queue:q0\"}]}]}");
            QTest::newRow("subscription over the entity limit") << text << "config: declares 10001 entities";
        }
        // Refused while applying: the queues before it were already written
        // in the unit, and are rolled back with it.
        QTest::newRow("unknown dead-letter queue")
            << JSON_QTEXT("{'queues': [{'name': 'fresh'}, {'name': 'orders', 'attributes': {'RedrivePolicy': {'deadLetterTargetArn': 'arn:aws:sqs:us-east-1:000000000000:missing', 'maxReceiveCount': 3}}}]}")
            << "queues[1] (orders): attributes.RedrivePolicy: the dead-letter queue missing neither exists nor is declared";
        QTest::newRow("subscription to a missing queue")
            << JSON_QTEXT("{'queues': [{'name': 'fresh'}], 'topics': [{'name': 'events', 'subscriptions': [{'protocol': 'sqs', 'endpoint': 'queue:missing'}]}]}")
            << "topics[0] (events): subscriptions[0] (sqs arn:aws:sqs:us-east-1:000000000000:missing): Invalid parameter: Endpoint Reason: queue does not exist";
    }

    void refusedFile_namesEntityAndFieldAndChangesNothing()
    {
        QFETCH(QString, text);
        QFETCH(QString, message);
        QTemporaryDir dir;
        ServiceBench bench(dir, "broker.db", kStart);
        QVERIFY(readAndApply(bench, JSON_TEXT("{'queues': [{'name': 'orders', 'attributes': {'VisibilityTimeout': '30'}}]}")));
        const std::string before = bench.snapshot();

        auto applied = readAndApply(bench, text.toStdString());
        QVERIFY(!applied);
        QVERIFY2(applied.error().message.rfind(message.toStdString(), 0) == 0, applied.error().message.c_str());
        QCOMPARE(bench.snapshot(), before);
    }

    // "region"/"account": what `serve --config` starts with; a file naming
    // the broker's own applies.
    void configIdentity_readAndMatched_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("region");    // read; "" = refused
        QTest::addColumn<QString>("account");
        QTest::newRow("both") << JSON_QTEXT("{'region': 'eu-west-1', 'account': '123456789012'}") << "eu-west-1"
                              << "123456789012";
        QTest::newRow("neither") << JSON_QTEXT("{'queues': []}") << "us-east-1" << "000000000000";
        QTest::newRow("region only") << JSON_QTEXT("{'region': 'ap-south-1'}") << "ap-south-1" << "000000000000";
        QTest::newRow("bad region") << JSON_QTEXT("{'region': 'EU WEST'}") << "" << "";
        QTest::newRow("short account") << JSON_QTEXT("{'account': '123'}") << "" << "";
    }
    void configIdentity_readAndMatched()
    {
        QFETCH(QString, text);
        QFETCH(QString, region);
        QFETCH(QString, account);
        const Json document = Json::parse(text.toStdString());
        const Result<BrokerIdentity> read = readConfigIdentity(document, BrokerIdentity{});
        QCOMPARE(read.ok(), !region.isEmpty());
        if (!read)
            return;
        QCOMPARE(QString::fromStdString(read->region), region);
        QCOMPARE(QString::fromStdString(read->accountId), account);
        QVERIFY(checkConfigIdentity(document, *read));
        QVERIFY(readBrokerConfig(document, *read));
    }

    // The limit itself is allowed (and applied in one unit).
    void documentAtTheEntityLimit_applies()
    {
        QTemporaryDir dir;
        ServiceBench bench(dir, "broker.db", kStart);
        auto applied = readAndApply(bench, manyQueues(kMaxConfigEntities).toStdString());
        QVERIFY2(applied, applied ? "" : applied.error().message.c_str());
        QCOMPARE(applied->created, int(kMaxConfigEntities));
    }

    void apply_createsEveryEntity()
    {
        QTemporaryDir dir;
        ServiceBench bench(dir, "broker.db", kStart);
        auto applied = readAndApply(bench, kConfig);
        QVERIFY2(applied, applied ? "" : applied.error().message.c_str());
        QCOMPARE(applied->created, 6);   // 3 queues, 1 topic, 2 subscriptions
        QCOMPARE(applied->deleted, 0);

        BrokerService &service = bench.service();
        auto orders = bench.call<AttributeMap>([&](auto reply) { service.getQueueAttributes("orders", {"All"}, nullptr, reply); });
        QVERIFY(orders);
        QCOMPARE(orders->at("VisibilityTimeout"), std::string("45"));
        JSON_COMPARE(Json::parse(orders->at("RedrivePolicy"))["deadLetterTargetArn"],
                 Json("arn:aws:sqs:us-east-1:000000000000:orders-dlq"));
        auto tags = bench.call<QueueTags>([&](auto reply) { service.listQueueTags("orders", nullptr, reply); });
        QVERIFY(tags);
        QCOMPARE(tags->at("team"), std::string("shop"));
        auto fifo = bench.call<AttributeMap>([&](auto reply) { service.getQueueAttributes("audit.fifo", {"All"}, nullptr, reply); });
        QVERIFY(fifo);
        QCOMPARE(fifo->at("ContentBasedDeduplication"), std::string("true"));

        auto topic = bench.call<AttributeMap>([&](auto reply) { service.getTopicAttributes("events", nullptr, reply); });
        QVERIFY(topic);
        QCOMPARE(topic->at("DisplayName"), std::string("Events"));
        JSON_COMPARE(Json::parse(topic->at("DeliveryPolicy"))["http"]["defaultHealthyRetryPolicy"]["numRetries"], Json(10));

        auto page = bench.call<SubscriptionPage>([&](auto reply) { service.listSubscriptions("events", {}, nullptr, reply); });
        QVERIFY(page);
        QCOMPARE(page->subscriptions.size(), std::size_t(2));
        for (const SubscriptionSummary &summary : page->subscriptions) {
            QVERIFY2(summary.subscriptionArn != "PendingConfirmation", summary.endpoint.c_str());   // declared = confirmed
            auto attributes = bench.call<AttributeMap>(
                [&](auto reply) { service.getSubscriptionAttributes(summary.subscriptionArn, nullptr, reply); });
            QVERIFY(attributes);
            if (summary.protocol == "sqs") {
                QCOMPARE(summary.endpoint, std::string("arn:aws:sqs:us-east-1:000000000000:orders"));
                QCOMPARE(attributes->at("RawMessageDelivery"), std::string("true"));
                JSON_COMPARE(Json::parse(attributes->at("FilterPolicy")), Json::parse(JSON_TEXT("{'kind': ['order']}")));
            }
        }
    }

    void applyTwice_changesNothing()
    {
        QTemporaryDir dir;
        ServiceBench bench(dir, "broker.db", kStart);
        QVERIFY(readAndApply(bench, kConfig));
        QVERIFY(bench.engine().advanceClockAndWait(10s));   // any write would show in the timestamps
        const std::string before = bench.snapshot();

        auto again = readAndApply(bench, kConfig);
        QVERIFY2(again, again ? "" : again.error().message.c_str());
        QCOMPARE(again->created + again->changed + again->deleted, 0);
        QCOMPARE(bench.snapshot(), before);
    }

    void changedFile_updatesOnlyWhatDiffers()
    {
        QTemporaryDir dir;
        ServiceBench bench(dir, "broker.db", kStart);
        QVERIFY(readAndApply(bench, kConfig));
        auto updated = readAndApply(bench, JSON_TEXT("{'queues': [{'name': 'orders', 'attributes': {'VisibilityTimeout': 60}, 'tags': {'tier': 'gold'}}],\n"
"            'topics': [{'name': 'events', 'subscriptions': [{'protocol': 'sqs', 'endpoint': 'queue:orders',\n"
"                         'attributes': {'FilterPolicy': {'kind': ['refund']}}}]}]}"));
        QVERIFY2(updated, updated ? "" : updated.error().message.c_str());
        QCOMPARE(updated->created, 0);
        QCOMPARE(updated->changed, 2);   // the queue and the subscription

        const Json state = exported(bench);
        const Json &orders = state["queues"][1];
        JSON_COMPARE(orders["name"], Json("orders"));
        JSON_COMPARE(orders["attributes"]["VisibilityTimeout"], Json("60"));
        QVERIFY(orders["attributes"].contains("RedrivePolicy"));   // undeclared attributes stay
        JSON_COMPARE(orders["tags"], Json::parse(JSON_TEXT("{'team': 'shop', 'tier': 'gold'}")));
        const Json &subscriptions = state["topics"][0]["subscriptions"];
        QCOMPARE(subscriptions.size(), std::size_t(2));
        JSON_COMPARE(subscriptions[1]["attributes"]["FilterPolicy"], Json::parse(JSON_TEXT("{'kind': ['refund']}")));
        JSON_COMPARE(subscriptions[1]["attributes"]["RawMessageDelivery"], Json("true"));
    }

    void deleteSection_deletesNamedEntities()
    {
        QTemporaryDir dir;
        ServiceBench bench(dir, "broker.db", kStart);
        QVERIFY(readAndApply(bench, kConfig));
        auto deleted = readAndApply(bench, JSON_TEXT("{'delete': {'queues': ['audit.fifo', 'never-was'],\n"
"            'subscriptions': [{'topic': 'events', 'protocol': 'http', 'endpoint': 'http://127.0.0.1:9/hook'}]}}"));
        QVERIFY2(deleted, deleted ? "" : deleted.error().message.c_str());
        QCOMPARE(deleted->deleted, 2);
        Json state = exported(bench);
        QCOMPARE(state["queues"].size(), std::size_t(2));
        QCOMPARE(state["topics"][0]["subscriptions"].size(), std::size_t(1));

        QVERIFY(readAndApply(bench, JSON_TEXT("{'delete': {'topics': ['events']}}")));
        state = exported(bench);
        JSON_COMPARE(state["topics"], Json::array());
    }

    void export_applyToFreshBroker_exportsTheSameDocument()
    {
        QTemporaryDir dir;
        ServiceBench first(dir, "first.db", kStart);
        QVERIFY(readAndApply(first, kConfig));
        const Json document = exported(first);
        // Policies come back as JSON, sqs endpoints as queue:NAME, defaults left out.
        JSON_COMPARE(document["queues"][0]["name"], Json("audit.fifo"));
        JSON_COMPARE(document["queues"][0]["attributes"]["FifoQueue"], Json("true"));
        QVERIFY(document["queues"][1]["attributes"]["RedrivePolicy"].is_object());
        QVERIFY(!document["queues"][1]["attributes"].contains("DelaySeconds"));
        QVERIFY(document["topics"][0]["attributes"]["DeliveryPolicy"].is_object());
        JSON_COMPARE(document["topics"][0]["subscriptions"][1]["endpoint"], Json("queue:orders"));
        QVERIFY(document["topics"][0]["subscriptions"][1]["attributes"]["FilterPolicy"].is_object());

        ServiceBench second(dir, "second.db", kStart + 1h);
        auto applied = readAndApply(second, document.dump(2));
        QVERIFY2(applied, applied ? "" : applied.error().message.c_str());
        JSON_COMPARE(exported(second), document);
        // And the exported document is itself a file that changes nothing.
        auto again = readAndApply(first, document.dump());
        QVERIFY(again);
        QCOMPARE(again->created + again->changed + again->deleted, 0);
    }
};

} // namespace relaydesk

RELAYDESK_TEST_MAIN(relaydesk::BrokerConfigTest)
#include "broker_config_test.moc"
