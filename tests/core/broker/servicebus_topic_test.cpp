// SPDX-License-Identifier: MIT
// Unit tests of Service Bus topics over the broker (docs/behaviour.md §8.6): a topic and
// its subscriptions from the emulator's Config.json form, each
// subscription a Service Bus queue with its dead-letter sub-queue, and a
// send to the topic copying each message once into every subscription one
// of whose rules matches.

#include "broker/servicebus/servicebus_topic.h"
#include "queue_test_support.h"
#include "support/test_main.h"

#include <nlohmann/json.hpp>

using namespace relaydesk;
using namespace relaydesk::testing;

namespace {

using Json = nlohmann::json;

// Three subscriptions: a correlation filter, a SQL filter with two rules
// (a message matching both is copied once), and none given ($Default).
const char *const kTopic = R"({
  "Name": "orders",
  "Properties": {"DefaultMessageTimeToLive": "PT1H", "DuplicateDetectionHistoryTimeWindow": "PT20S",
                 "RequiresDuplicateDetection": false},
  "Subscriptions": [
    {"Name": "invoices", "Properties": {"LockDuration": "PT30S", "MaxDeliveryCount": 3},
     "Rules": [{"Name": "by-label", "Properties": {"FilterType": "Correlation",
                "CorrelationFilter": {"Label": "invoice", "Properties": {"region": "eu"}}}}]},
    {"Name": "large", "Properties": {"DeadLetteringOnFilterEvaluationExceptions": false},
     "Rules": [{"Name": "big", "Properties": {"FilterType": "Sql", "SqlFilter": {"SqlExpression": "quantity > 10"}}},
               {"Name": "eu", "Properties": {"FilterType": "Sql", "SqlFilter": {"SqlExpression": "region = 'eu'"}}}]},
    {"Name": "all"}
  ]})";

ServiceBusMessageFacts message(const std::string &label, const std::string &region, std::int64_t quantity)
{
    ServiceBusMessageFacts facts;
    facts.system["Label"] = label;
    facts.application["region"] = region;
    facts.application["quantity"] = quantity;
    return facts;
}

class TopicBroker final {
public:
    TopicBroker()
    {
        topic = parseServiceBusTopic(Json::parse(kTopic)).value();
        created = broker.unit([&] { return servicebus_topics::create(broker.db(), topic, broker.identity(), at(0)); });
    }
    Result<std::vector<std::pair<std::string, std::int64_t>>> publish(const std::vector<ServiceBusMessageFacts> &facts)
    {
        std::vector<SendRequest> messages(facts.size());
        for (std::size_t i = 0; i < facts.size(); ++i)
            messages[i].body = "m" + std::to_string(i);
        return broker.unit([&] {
            return servicebus_topics::publish(broker.db(), broker.ids(), "orders", messages, facts, {}, at(1));
        });
    }
    std::int64_t depth(const std::string &queue)
    {
        return *broker.db().queryInt64("SELECT count(*) FROM messages m JOIN queues q ON q.id = m.queue_id WHERE q.name = '"
                                       + queue + "'");
    }

    QueueTestBroker broker;
    ServiceBusTopic topic;
    Result<bool> created = false;
};

} // namespace

class ServiceBusTopicTest final : public QObject {
    Q_OBJECT

private slots:
    void createsSubscriptionsAsQueues()
    {
        TopicBroker sb;
        QVERIFY2(sb.created.ok(), sb.created ? "" : sb.created.error().message.c_str());
        QVERIFY(*sb.created);
        for (const char *queue : {"orders/Subscriptions/invoices", "orders/Subscriptions/invoices/$DeadLetterQueue",
                                  "orders/Subscriptions/large", "orders/Subscriptions/all/$DeadLetterQueue"})
            QVERIFY2(sb.depth(queue) == 0 && sb.broker.unit([&] { return servicebus_queues::find(sb.broker.db(), queue); }).ok(),
                     queue);
        // The same topic again changes nothing; the queues list leaves subscriptions out.
        QCOMPARE(sb.broker.unit([&] { return servicebus_topics::create(sb.broker.db(), sb.topic, sb.broker.identity(), at(2)); })
                     .value(),
                 false);
        QCOMPARE(sb.broker.unit([&] { return servicebus_queues::list(sb.broker.db()); }).value().size(), std::size_t(0));
        // Read back as written: the topic's TTL caps each subscription's.
        const ServiceBusTopic found = sb.broker.unit([&] { return servicebus_topics::find(sb.broker.db(), "orders"); }).value();
        QCOMPARE(found.subscriptions.size(), std::size_t(3));
        QCOMPARE(found.subscriptions[0].name, std::string("all"));
        QCOMPARE(found.subscriptions[0].rules.front().name, std::string("$Default"));
        QCOMPARE(found.subscriptions[1].properties.lockDuration, std::int64_t(30));
        QCOMPARE(found.subscriptions[1].properties.defaultMessageTimeToLive.value_or(0), std::int64_t(3600));
        QCOMPARE(serviceBusSubscriptionJson(found.subscriptions[2]),
                 serviceBusSubscriptionJson(sb.topic.subscriptions[1]));
    }

    void entities()
    {
        TopicBroker sb;
        auto entity = [&](const char *address) {
            return sb.broker.unit([&] { return servicebus_topics::findEntity(sb.broker.db(), address); });
        };
        QVERIFY(entity("orders").value().topic);
        QVERIFY(!entity("orders/Subscriptions/all").value().topic);
        QVERIFY(entity("orders/Subscriptions/all/$DeadLetterQueue").value().deadLetterQueue);
        QCOMPARE(entity("orders/Subscriptions/missing").error().code, BrokerErrorCode::QueueDoesNotExist);
        QCOMPARE(entity("other").error().code, BrokerErrorCode::QueueDoesNotExist);
        // A queue and a topic never share a name.
        ServiceBusQueueProperties queue;
        queue.name = "orders";
        QCOMPARE(sb.broker.unit([&] { return servicebus_queues::create(sb.broker.db(), queue, sb.broker.identity(), at(1)); })
                     .error()
                     .code,
                 BrokerErrorCode::QueueAlreadyExists);
    }

    void fanOut_data()
    {
        QTest::addColumn<QString>("label");
        QTest::addColumn<QString>("region");
        QTest::addColumn<int>("quantity");
        QTest::addColumn<QStringList>("subscriptions");   // that take a copy
        QTest::newRow("invoice from eu, large") << "invoice" << "eu" << 20 << QStringList{"all", "invoices", "large"};
        QTest::newRow("invoice from us") << "invoice" << "us" << 1 << QStringList{"all"};
        QTest::newRow("large from us") << "order" << "us" << 11 << QStringList{"all", "large"};
        QTest::newRow("eu, small: one rule") << "order" << "eu" << 2 << QStringList{"all", "large"};
    }
    void fanOut()
    {
        QFETCH(QString, label);
        QFETCH(QString, region);
        QFETCH(int, quantity);
        QFETCH(QStringList, subscriptions);
        TopicBroker sb;
        const auto filled = sb.publish({message(label.toStdString(), region.toStdString(), quantity)});
        QVERIFY2(filled.ok(), filled ? "" : filled.error().message.c_str());
        QStringList took;
        for (const auto &[queue, copies] : *filled) {
            QCOMPARE(copies, std::int64_t(1));   // matching two rules is still one copy
            took << QString::fromStdString(queue).section('/', 2);
        }
        QCOMPARE(took, subscriptions);
        for (const char *name : {"all", "invoices", "large"})
            QCOMPARE(sb.depth(serviceBusSubscriptionQueue("orders", name)), std::int64_t(subscriptions.contains(name)));
    }

    void unknownTopic()
    {
        TopicBroker sb;
        const auto filled = sb.broker.unit([&] {
            return servicebus_topics::publish(sb.broker.db(), sb.broker.ids(), "missing", {SendRequest{}}, {}, {}, at(1));
        });
        QCOMPARE(filled.error().code, BrokerErrorCode::QueueDoesNotExist);
    }

    void rulesReplaced()
    {
        TopicBroker sb;
        QVERIFY(sb.broker.unit([&] { return servicebus_topics::setRules(sb.broker.db(), "orders", "all", {}); }).ok());
        QCOMPARE(sb.broker.unit([&] { return servicebus_topics::setRules(sb.broker.db(), "orders", "none", {}); })
                     .error()
                     .code,
                 BrokerErrorCode::QueueDoesNotExist);
        QVERIFY(sb.publish({message("x", "us", 1)}).ok());
        QCOMPARE(sb.depth("orders/Subscriptions/all"), std::int64_t(0));   // no rule: nothing taken
    }

    // A rule with an action adds its own rewritten copy; plain rules one copy between them.
    void ruleActionsCopy()
    {
        TopicBroker sb;
        ServiceBusRule tagged = parseServiceBusRule(Json::parse(
            R"({"Name": "tagged", "Properties": {"FilterType": "Sql", "SqlFilter": {"SqlExpression": "quantity > 10"},
                 "Action": {"SqlExpression": "SET quantity = quantity * 2; REMOVE region"}}})")).value();
        QVERIFY(sb.broker.unit([&] { return servicebus_topics::addRule(sb.broker.db(), "orders", "large", tagged); }).ok());
        std::vector<ServiceBusPropertyChanges> seen;
        const ServiceBusMessageRewriter rewrite = [&seen](const SendRequest &message, const ServiceBusPropertyChanges &changes)
            -> Result<SendRequest> {
            seen.push_back(changes);
            SendRequest copy = message;
            copy.body += "+copy";
            return copy;
        };
        const std::vector<ServiceBusMessageFacts> facts = {message("x", "eu", 20), message("x", "us", 1)};
        std::vector<SendRequest> messages(2);
        messages[0].body = "big";
        messages[1].body = "small";
        QVERIFY(sb.broker.unit([&] {
                      return servicebus_topics::publish(sb.broker.db(), sb.broker.ids(), "orders", messages, facts, rewrite, at(1));
                  }).ok());
        QCOMPARE(sb.depth("orders/Subscriptions/large"), std::int64_t(2));   // "big" by big and eu, and tagged's copy
        QCOMPARE(seen.size(), std::size_t(1));
        ServiceBusPropertyChanges expected;
        expected.application = {
            {"quantity", FilterValue(std::int64_t(40))}, {"region", std::nullopt}, {"RuleName", FilterValue(std::string("tagged"))}};
        QVERIFY(seen.front() == expected);
        QCOMPARE(*sb.broker.db().queryInt64("SELECT count(*) FROM messages WHERE body = 'big+copy'"), std::int64_t(1));
    }

    // Bounds on what rules make of a send (docs/reliability.md#limits):
    // the message's properties, each text a filter or action makes, and the
    // properties an action leaves are at most 64 KiB; past that the whole
    // send is refused and nothing is stored. Rules go on "all" beside $Default.
    void boundedRules_data()
    {
        QTest::addColumn<QStringList>("rules");   // {filter, action} pairs
        QTest::addColumn<int>("propertyBytes");   // the property a: that many 'a's then a 'b'
        QTest::addColumn<QString>("problem");     // empty: accepted
        QTest::addColumn<int>("copies");          // into "all", when accepted
        const QString doubling = QStringList(40, QStringLiteral("SET a = a + a")).join(QStringLiteral("; "));
        QTest::newRow("an action doubling a 4-byte text 40 times")
            << QStringList{"1=1", doubling} << 3 << "may take at most 65536 bytes" << 0;
        QTest::newRow("an action doubling it 12 times")
            << QStringList{"1=1", QStringList(12, QStringLiteral("SET a = a + a")).join(QStringLiteral(";"))} << 3 << "" << 2;
        QTest::newRow("an action whose properties pass 64 KiB")
            << QStringList{"1=1", "SET b = a; SET c = a"} << 30000 << "The message's properties take" << 0;
        QTest::newRow("a filter concatenating past 64 KiB")
            << QStringList{"a + a + a = 'x'", ""} << 30000 << "a value may take at most 65536 bytes" << 0;
        QTest::newRow("properties of 64 KiB and more")
            << QStringList{"1=1", ""} << 65536 << "a message's properties may take at most 65536 bytes" << 0;
        QStringList likes;
        for (int i = 0; i < 20; ++i)
            likes << "a LIKE '%" + QString(1000, QLatin1Char('a')) + "b'" << QString();
        QTest::newRow("20 long LIKEs over a 200 KB property") << likes << 200000 << "The message's properties take" << 0;
        QTest::newRow("20 long LIKEs over a 60 KB property") << likes << 60000 << "" << 1;
        QTest::newRow("a long LIKE that does not match")
            << QStringList{"a LIKE '%" + QString(1000, QLatin1Char('a')) + "c'", "SET x = 1"} << 60000 << "" << 1;
    }
    void boundedRules()
    {
        QFETCH(QStringList, rules);
        QFETCH(int, propertyBytes);
        QFETCH(QString, problem);
        QFETCH(int, copies);
        TopicBroker sb;
        for (int i = 0; i + 1 < rules.size(); i += 2) {
            Json rule = {{"Name", "r" + std::to_string(i)},
                         {"Properties", {{"FilterType", "Sql"}, {"SqlFilter", {{"SqlExpression", rules[i].toStdString()}}}}}};
            if (!rules[i + 1].isEmpty())
                rule["Properties"]["Action"] = {{"SqlExpression", rules[i + 1].toStdString()}};
            const ServiceBusRule parsed = parseServiceBusRule(rule).value();
            QVERIFY(sb.broker.unit([&] { return servicebus_topics::addRule(sb.broker.db(), "orders", "all", parsed); }).ok());
        }
        ServiceBusMessageFacts facts;
        facts.application["a"] = std::string(static_cast<std::size_t>(propertyBytes), 'a') + "b";
        const ServiceBusMessageRewriter rewrite = [](const SendRequest &message, const ServiceBusPropertyChanges &) {
            return Result<SendRequest>(message);
        };
        SendRequest request;
        request.body = "m";
        const auto sent = sb.broker.unit([&] {
            return servicebus_topics::publish(sb.broker.db(), sb.broker.ids(), "orders", {request}, {facts}, rewrite, at(1));
        });
        if (problem.isEmpty()) {
            QVERIFY2(sent.ok(), sent ? "" : sent.error().message.c_str());
            QCOMPARE(sb.depth("orders/Subscriptions/all"), std::int64_t(copies));
            return;
        }
        QVERIFY(!sent.ok());
        QCOMPARE(sent.error().code, BrokerErrorCode::InvalidParameterValue);
        QVERIFY2(QString::fromStdString(sent.error().message).contains(problem), sent.error().message.c_str());
        QCOMPARE(*sb.broker.db().queryInt64("SELECT count(*) FROM messages"), std::int64_t(0));
    }

    // A session subscription takes messages with a SessionId only; a
    // forwarding subscription passes its copies to its ForwardTo queue.
    void sessionsAndForwarding()
    {
        QueueTestBroker broker;
        ServiceBusQueueProperties inbox;
        inbox.name = "inbox";
        QVERIFY(broker.unit([&] { return servicebus_queues::create(broker.db(), inbox, broker.identity(), at(0)); }).ok());
        const ServiceBusTopic topic = parseServiceBusTopic(Json::parse(R"({"Name": "t", "Subscriptions": [
            {"Name": "sessions", "Properties": {"RequiresSession": true}},
            {"Name": "relay", "Properties": {"ForwardTo": "inbox"}}]})")).value();
        QVERIFY(broker.unit([&] { return servicebus_topics::create(broker.db(), topic, broker.identity(), at(0)); }).ok());
        auto publish = [&](const std::string &body, std::optional<std::string> session) {
            SendRequest request;
            request.body = body;
            request.groupId = session;
            return broker.unit([&] {
                return servicebus_topics::publish(broker.db(), broker.ids(), "t", {request}, {ServiceBusMessageFacts{}}, {}, at(1));
            });
        };
        const auto refused = publish("none", std::nullopt);
        QCOMPARE(refused.error().code, BrokerErrorCode::InvalidParameterValue);
        const auto filled = publish("in a session", "s");
        QVERIFY(filled.ok());
        using Filled = std::vector<std::pair<std::string, std::int64_t>>;
        QCOMPARE(*filled, (Filled{{"inbox", 1}, {"t/Subscriptions/sessions", 1}}));
    }

    void topicProperties_data()
    {
        QTest::addColumn<QString>("topic");
        QTest::addColumn<QString>("problem");
        QTest::newRow("duplicates not built") << R"({"Name": "t", "Properties": {"RequiresDuplicateDetection": true}})"
                                              << "RequiresDuplicateDetection";
        QTest::newRow("unknown property") << R"({"Name": "t", "Properties": {"Colour": 1}})" << "Colour";
        QTest::newRow("bad name") << R"({"Name": "-t"})" << "name";
        QTest::newRow("subscription name with slash") << R"({"Name": "t", "Subscriptions": [{"Name": "a/b"}]})"
                                                      << "1 to 50";
        QTest::newRow("subscription lock") << R"({"Name": "t", "Subscriptions": [{"Name": "s", "Properties": {"LockDuration": "PT1S"}}]})"
                                           << "LockDuration";
        QTest::newRow("subscription duplicate detection")
            << R"({"Name": "t", "Subscriptions": [{"Name": "s", "Properties": {"RequiresDuplicateDetection": true}}]})"
            << "not of a subscription";
        QTest::newRow("subscription twice") << R"({"Name": "t", "Subscriptions": [{"Name": "s"}, {"Name": "s"}]})"
                                            << "twice";
        QTest::newRow("rule twice")
            << R"({"Name": "t", "Subscriptions": [{"Name": "s", "Rules": [
                  {"Name": "r", "Properties": {"FilterType": "Sql", "SqlFilter": {"SqlExpression": "1=1"}}},
                  {"Name": "r", "Properties": {"FilterType": "Sql", "SqlFilter": {"SqlExpression": "1=1"}}}]}]})"
            << "twice";
    }
    void topicProperties()
    {
        QFETCH(QString, topic);
        QFETCH(QString, problem);
        const Result<ServiceBusTopic> parsed = parseServiceBusTopic(Json::parse(topic.toStdString()));
        QVERIFY(!parsed.ok());
        QCOMPARE(parsed.error().code, BrokerErrorCode::InvalidParameterValue);
        QVERIFY2(QString::fromStdString(parsed.error().message).contains(problem), parsed.error().message.c_str());
    }
};

RELAYDESK_TEST_MAIN(ServiceBusTopicTest)
#include "servicebus_topic_test.moc"
