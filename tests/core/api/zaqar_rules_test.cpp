// SPDX-License-Identifier: MIT
// The Zaqar API's pure rules (docs/behaviour.md §8.5): which requests are read
// (JSON bodies only, the JSON-patch type), queue names and Client-IDs, the
// metadata checks with Zaqar's limits and the Zaqar-form _retry_policy, the
// JSON patch of metadata, the reserved metadata defaults, and a subscription's
// ttl bounds.
#include "api/zaqar/zaqar_api.h"
#include "api/zaqar/zaqar_bodies.h"
#include "api/zaqar/zaqar_rules.h"
#include "support/test_main.h"

#include <QTest>

using namespace relaydesk;
using namespace relaydesk::zaqar;

class ZaqarRulesTest final : public QObject {
    Q_OBJECT

private slots:
    void request_readOnlyAsJson_data()
    {
        QTest::addColumn<QByteArray>("contentType");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<int>("status");   // 0: read
        QTest::newRow("JSON") << QByteArray("application/json") << QByteArray(R"({"a":1})") << 0;
        QTest::newRow("JSON array") << QByteArray("application/json; charset=UTF-8") << QByteArray("[1]") << 0;
        QTest::newRow("JSON patch") << QByteArray("application/openstack-messaging-v2.0-json-patch")
                                    << QByteArray("[]") << 0;
        QTest::newRow("no body") << QByteArray() << QByteArray() << 0;
        QTest::newRow("JSON type, no body (the client's GET)") << QByteArray("application/json") << QByteArray() << 0;
        QTest::newRow("text/plain") << QByteArray("text/plain") << QByteArray("{}") << 415;
        QTest::newRow("form") << QByteArray("application/x-www-form-urlencoded") << QByteArray("a=1") << 415;
        QTest::newRow("body without a type") << QByteArray() << QByteArray("{}") << 415;
        QTest::newRow("not JSON") << QByteArray("application/json") << QByteArray("{") << 400;
    }
    void request_readOnlyAsJson()
    {
        QFETCH(QByteArray, contentType);
        QFETCH(QByteArray, body);
        QFETCH(int, status);
        const auto read = readZaqarRequest("POST", QUrl(QStringLiteral("/v2/queues/a%2Db/messages?limit=2")), contentType,
                                           "3b5f7d4e-8a47-4c7f-9a5e-1f2d3c4b5a69", "demo", body);
        if (status == 0) {
            QVERIFY(std::holds_alternative<ZaqarRequest>(read));
            const ZaqarRequest &request = std::get<ZaqarRequest>(read);
            QVERIFY(request.path == (std::vector<std::string>{"queues", "a-b", "messages"}));
            QVERIFY(request.param("limit").value_or("") == "2");
            QVERIFY(request.projectId == "demo");
            return;
        }
        QVERIFY(std::holds_alternative<ZaqarAnswer>(read));
        const ZaqarAnswer &answer = std::get<ZaqarAnswer>(read);
        QCOMPARE(answer.status, status);
        QVERIFY(answer.body->contains("title") && answer.body->contains("description"));
    }

    void names_andClientIds_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("queueName");
        QTest::addColumn<bool>("clientId");
        QTest::newRow("dashed uuid") << "3b5f7d4e-8a47-4c7f-9a5e-1f2d3c4b5a69" << true << true;
        QTest::newRow("hex uuid (the client's)") << "3b5f7d4e8a474c7f9a5e1f2d3c4b5a69" << true << true;
        QTest::newRow("name") << "orders_2-b" << true << false;
        QTest::newRow("64 characters") << QString(64, QLatin1Char('q')) << true << false;
        QTest::newRow("65 characters") << QString(65, QLatin1Char('q')) << false << false;
        QTest::newRow("dot (SQS names have none)") << "a.b" << false << false;
        QTest::newRow("empty") << "" << false << false;
        QTest::newRow("31 hex digits") << "3b5f7d4e8a474c7f9a5e1f2d3c4b5a6" << true << false;
    }
    void names_andClientIds()
    {
        QFETCH(QString, text);
        QFETCH(bool, queueName);
        QFETCH(bool, clientId);
        QCOMPARE(!queueNameProblem(text.toStdString()).has_value(), queueName);
        QCOMPARE(isClientId(text.toStdString()), clientId);
    }

    void metadata_checkedWithZaqarsLimits_data()
    {
        QTest::addColumn<QByteArray>("metadata");
        QTest::addColumn<bool>("valid");
        QTest::newRow("empty") << QByteArray("{}") << true;
        QTest::newRow("free keys") << QByteArray(R"({"color": "red", "n": [1, 2]})") << true;
        QTest::newRow("ttl 60") << QByteArray(R"({"_default_message_ttl": 60})") << true;
        QTest::newRow("ttl 59") << QByteArray(R"({"_default_message_ttl": 59})") << false;
        QTest::newRow("ttl 1209601") << QByteArray(R"({"_default_message_ttl": 1209601})") << false;
        QTest::newRow("ttl text") << QByteArray(R"({"_default_message_ttl": "60"})") << false;
        QTest::newRow("delay 900") << QByteArray(R"({"_default_message_delay": 900})") << true;
        QTest::newRow("delay 901") << QByteArray(R"({"_default_message_delay": 901})") << false;
        QTest::newRow("post size 262144") << QByteArray(R"({"_max_messages_post_size": 262144})") << true;
        QTest::newRow("post size 262145") << QByteArray(R"({"_max_messages_post_size": 262145})") << false;
        QTest::newRow("claim count") << QByteArray(R"({"_max_claim_count": 3, "_dead_letter_queue": "dlq"})") << true;
        QTest::newRow("claim count 0") << QByteArray(R"({"_max_claim_count": 0})") << false;
        QTest::newRow("dead-letter queue with a dot") << QByteArray(R"({"_dead_letter_queue": "a.b"})") << false;
        QTest::newRow("dead-letter ttl 59") << QByteArray(R"({"_dead_letter_queue_messages_ttl": 59})") << false;
        QTest::newRow("retry policy, blueprint")
            << QByteArray(R"({"_retry_policy": {"retries_with_no_delay": 3, "minimum_delay_retries": 3,
                  "minimum_delay": 5, "maximum_delay": 60, "maximum_delay_retries": 3}})")
            << true;
        QTest::newRow("retry policy, empty (the defaults)") << QByteArray(R"({"_retry_policy": {}})") << true;
        QTest::newRow("retry policy, typo") << QByteArray(R"({"_retry_policy": {"minimum_dely": 5}})") << false;
        QTest::newRow("retry policy, min above max")
            << QByteArray(R"({"_retry_policy": {"minimum_delay": 40, "maximum_delay": 30}})") << false;
        QTest::newRow("retry policy not an object") << QByteArray(R"({"_retry_policy": 3})") << false;
        QTest::newRow("not an object") << QByteArray("[1]") << false;
    }
    void metadata_checkedWithZaqarsLimits()
    {
        QFETCH(QByteArray, metadata);
        QFETCH(bool, valid);
        const std::optional<std::string> problem = metadataProblem(nlohmann::json::parse(metadata.toStdString()));
        QVERIFY2(problem.has_value() != valid, problem.value_or("valid").c_str());
    }

    void patch_addReplaceRemove_data()
    {
        QTest::addColumn<QByteArray>("changes");
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("result");
        QTest::newRow("add") << QByteArray(R"([{"op": "add", "path": "/metadata/b", "value": 2}])") << 200
                             << QByteArray(R"({"a": 1, "b": 2})");
        QTest::newRow("replace") << QByteArray(R"([{"op": "replace", "path": "/metadata/a", "value": 5}])") << 200
                                 << QByteArray(R"({"a": 5})");
        QTest::newRow("remove") << QByteArray(R"([{"op": "remove", "path": "/metadata/a"}])") << 200 << QByteArray("{}");
        QTest::newRow("replace a reserved default")
            << QByteArray(R"([{"op": "replace", "path": "/metadata/_default_message_ttl", "value": 90}])") << 200
            << QByteArray(R"({"a": 1, "_default_message_ttl": 90})");
        QTest::newRow("replace missing") << QByteArray(R"([{"op": "replace", "path": "/metadata/z", "value": 5}])")
                                         << 409 << QByteArray();
        QTest::newRow("remove missing") << QByteArray(R"([{"op": "remove", "path": "/metadata/z"}])") << 409 << QByteArray();
        QTest::newRow("bad op") << QByteArray(R"([{"op": "move", "path": "/metadata/a"}])") << 400 << QByteArray();
        QTest::newRow("outside metadata") << QByteArray(R"([{"op": "add", "path": "/name", "value": 1}])") << 400
                                          << QByteArray();
        QTest::newRow("no value") << QByteArray(R"([{"op": "add", "path": "/metadata/b"}])") << 400 << QByteArray();
        QTest::newRow("not a list") << QByteArray(R"({"op": "add"})") << 400 << QByteArray();
    }
    void patch_addReplaceRemove()
    {
        QFETCH(QByteArray, changes);
        QFETCH(int, status);
        QFETCH(QByteArray, result);
        const PatchOutcome outcome = applyMetadataPatch({{"a", 1}}, nlohmann::json::parse(changes.toStdString()));
        QCOMPARE(outcome.status, status);
        if (status == 200)
            QVERIFY2(outcome.metadata == nlohmann::json::parse(result.toStdString()), outcome.metadata.dump().c_str());
        else
            QVERIFY(!outcome.description.empty());
    }

    // A subscription's ttl: at least 60 s, and ending by 9999-12-31T23:59:59Z
    // counted from now (Zaqar's OverflowError bound). Integers past 2^63 - 1
    // (JSON reads them as unsigned) get the same answer as any ttl too long.
    void subscriptionTtl_atLeastAMinuteAndEndingByYear9999_data()
    {
        QTest::addColumn<QByteArray>("ttl");
        QTest::addColumn<qint64>("nowSeconds");
        QTest::addColumn<QString>("problem");   // a part of the refusal; empty: accepted
        const qint64 now = 1700000000;
        const QString late = QStringLiteral("plus current time must be less than 9999-12-31 23:59:59.999999");
        QTest::newRow("60") << QByteArray("60") << now << QString();
        QTest::newRow("59") << QByteArray("59") << now << QStringLiteral("must be at least 60 seconds");
        QTest::newRow("not an integer") << QByteArray("60.5") << now << QStringLiteral("TTL must be an integer");
        QTest::newRow("ends at the last second")
            << QByteArray::number(kLastSubscriptionSecond - now) << now << QString();
        QTest::newRow("one second later") << QByteArray::number(kLastSubscriptionSecond - now + 1) << now << late;
        QTest::newRow("2^63 - 1") << QByteArray("9223372036854775807") << now << late;
        QTest::newRow("2^64 - 1 (read as unsigned)") << QByteArray("18446744073709551615") << now << late;
        QTest::newRow("2^63 (read as unsigned)") << QByteArray("9223372036854775808") << now << late;
    }
    void subscriptionTtl_atLeastAMinuteAndEndingByYear9999()
    {
        QFETCH(QByteArray, ttl);
        QFETCH(qint64, nowSeconds);
        QFETCH(QString, problem);
        SubscriptionTerms terms;
        std::optional<std::string> refused =
            readSubscriptionTerms(nlohmann::json::parse("{\"ttl\": " + ttl.toStdString() + "}"), terms);
        if (!refused && terms.ttl)
            refused = subscriptionEndProblem(*terms.ttl, ClockTime(std::chrono::seconds(nowSeconds)));
        if (problem.isEmpty()) {
            QVERIFY2(!refused, refused.value_or("").c_str());
            QCOMPARE(terms.ttl, std::optional<std::int64_t>(ttl.toLongLong()));
        } else {
            QVERIFY(refused);
            QVERIFY2(QString::fromStdString(*refused).contains(problem), refused->c_str());
        }
    }

    // A claim's body: ttl and grace as Zaqar checks them; a "limit" there
    // (Zaqar takes it from the query) must be an integer 1–20, never a string.
    void claimTerms_integersInRange_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("problem");   // a part of the refusal; empty: accepted
        QTest::newRow("defaults") << QByteArray("{}") << QString();
        QTest::newRow("ttl and grace") << QByteArray(R"({"ttl": 60, "grace": 60})") << QString();
        QTest::newRow("ttl as text") << QByteArray(R"({"ttl": "60"})") << QStringLiteral("must be integers");
        QTest::newRow("limit 5") << QByteArray(R"({"ttl": 60, "limit": 5})") << QString();
        QTest::newRow("limit as text") << QByteArray(R"({"ttl": 60, "limit": "5"})")
                                       << QStringLiteral("\"limit\" must be an integer");
        QTest::newRow("limit 1.5") << QByteArray(R"({"limit": 1.5})") << QStringLiteral("\"limit\" must be an integer");
        QTest::newRow("limit 0") << QByteArray(R"({"limit": 0})") << QString::fromLatin1(kLimitProblem);
        QTest::newRow("limit 21") << QByteArray(R"({"limit": 21})") << QString::fromLatin1(kLimitProblem);
    }
    void claimTerms_integersInRange()
    {
        QFETCH(QByteArray, body);
        QFETCH(QString, problem);
        ClaimTerms terms;
        const std::optional<std::string> refused = readClaimTerms(nlohmann::json::parse(body.toStdString()), terms);
        if (problem.isEmpty())
            QVERIFY2(!refused, refused.value_or("").c_str());
        else
            QVERIFY2(refused && QString::fromStdString(*refused).contains(problem), refused.value_or("").c_str());
    }

    void reservedDefaults_filledWhereAbsent()
    {
        const nlohmann::json filled = withReservedDefaults({{"_default_message_ttl", 90}, {"x", 1}});
        QVERIFY2(filled == (nlohmann::json{{"_default_message_ttl", 90}, {"_default_message_delay", 0},
                                           {"_max_messages_post_size", 262144}, {"x", 1}}),
                 filled.dump().c_str());
    }
};

RELAYDESK_TEST_MAIN(ZaqarRulesTest)
#include "zaqar_rules_test.moc"
