// SPDX-License-Identifier: MIT
// Unit tests of FilterPolicy (docs/behaviour.md §4.6, message-attribute scope): which
// messages a policy lets through, and which documents are refused with which
// reason. The match rows follow the examples of the AWS SNS developer guide
// (string-value-matching, numeric-value-matching, attribute-key-matching,
// subscription-filter-policy-constraints); the rule each row shows is named
// in the row.

#include "broker/topics/filter_policy.h"
#include "support/test_main.h"

#include <QString>
#include <QtTest>

#include <nlohmann/json.hpp>

using namespace relaydesk;

namespace {

QString q(const std::string &text) { return QString::fromStdString(text); }

// Attributes written as JSON {"name": ["Type", "value"], ...}.
MessageAttributes attributes(const QString &json)
{
    MessageAttributes out;
    const nlohmann::json document = nlohmann::json::parse(json.toStdString());
    for (const auto &[name, pair] : document.items()) {
        const std::string type = pair.at(0).get<std::string>();
        const std::string value = pair.at(1).get<std::string>();
        MessageAttributeValue attribute{type, "", ""};
        (type.rfind("Binary", 0) == 0 ? attribute.binaryValue : attribute.stringValue) = value;
        out.emplace(name, attribute);
    }
    return out;
}

} // namespace

class FilterPolicyTest final : public QObject {
    Q_OBJECT

private slots:
    void matches_awsExamples_data();
    void matches_awsExamples();
    void parse_invalid_reason_data();
    void parse_invalid_reason();
    void parse_limits_atTheEdge_data();
    void parse_limits_atTheEdge();
    void parse_model_keepsKeysAndConditions();
};

void FilterPolicyTest::matches_awsExamples_data()
{
    QTest::addColumn<QString>("policy");
    QTest::addColumn<QString>("message");
    QTest::addColumn<bool>("expected");

    const QString interests = QStringLiteral(R"({"customer_interests": ["rugby", "tennis"]})");
    QTest::newRow("exact: String listed") << interests << R"({"customer_interests": ["String", "rugby"]})" << true;
    QTest::newRow("exact: other listed value") << interests << R"({"customer_interests": ["String", "tennis"]})" << true;
    QTest::newRow("exact: String.Array element") << interests
                                                 << R"({"customer_interests": ["String.Array", "[\"rugby\", \"tennis\"]"]})"
                                                 << true;
    QTest::newRow("exact: not listed") << interests << R"({"customer_interests": ["String", "baseball"]})" << false;
    QTest::newRow("exact: String.Array, none listed") << interests
                                                      << R"({"customer_interests": ["String.Array", "[\"baseball\"]"]})"
                                                      << false;
    QTest::newRow("exact: case-sensitive") << interests << R"({"customer_interests": ["String", "Rugby"]})" << false;
    QTest::newRow("exact: attribute missing") << interests << R"({"store": ["String", "rugby"]})" << false;
    QTest::newRow("exact: Number attribute is not a string") << R"({"a": ["100"]})" << R"({"a": ["Number", "100"]})" << false;

    const QString prefix = QStringLiteral(R"({"customer_interests": [{"prefix": "bas"}]})");
    QTest::newRow("prefix: baseball") << prefix << R"({"customer_interests": ["String", "baseball"]})" << true;
    QTest::newRow("prefix: basketball") << prefix << R"({"customer_interests": ["String", "basketball"]})" << true;
    QTest::newRow("prefix: rugby") << prefix << R"({"customer_interests": ["String", "rugby"]})" << false;
    QTest::newRow("suffix") << R"({"f": [{"suffix": ".png"}]})" << R"({"f": ["String", "a.png"]})" << true;
    QTest::newRow("suffix: no") << R"({"f": [{"suffix": ".png"}]})" << R"({"f": ["String", "a.jpg"]})" << false;
    QTest::newRow("equals-ignore-case") << R"({"f": [{"equals-ignore-case": "ORDER"}]})" << R"({"f": ["String", "Order"]})"
                                        << true;

    const QString but = QStringLiteral(R"({"customer_interests": [{"anything-but": ["rugby", "tennis"]}]})");
    QTest::newRow("anything-but: baseball") << but << R"({"customer_interests": ["String", "baseball"]})" << true;
    QTest::newRow("anything-but: football") << but << R"({"customer_interests": ["String", "football"]})" << true;
    QTest::newRow("anything-but: rugby") << but << R"({"customer_interests": ["String", "rugby"]})" << false;
    // Current guide: "For String.Array type attributes, it matches if none of the array elements are listed".
    QTest::newRow("anything-but: array with a listed element")
        << but << R"({"customer_interests": ["String.Array", "[\"rugby\", \"baseball\"]"]})" << false;
    QTest::newRow("anything-but: array, none listed")
        << but << R"({"customer_interests": ["String.Array", "[\"golf\", \"baseball\"]"]})" << true;
    // anything-but needs the attribute; "exists": false is how to also accept its absence.
    QTest::newRow("anything-but: attribute missing") << but << R"({"store": ["String", "x"]})" << false;
    QTest::newRow("anything-but or exists false: attribute missing")
        << R"({"customer_interests": [{"anything-but": ["rugby"]}, {"exists": false}]})" << R"({"store": ["String", "x"]})"
        << true;
    QTest::newRow("anything-but single string") << R"({"a": [{"anything-but": "x"}]})" << R"({"a": ["String", "y"]})"
                                                << true;
    QTest::newRow("anything-but prefix: listed") << R"({"event": [{"anything-but": {"prefix": "order-"}}]})"
                                                 << R"({"event": ["String", "order-cancelled"]})" << false;
    QTest::newRow("anything-but prefix: not listed") << R"({"event": [{"anything-but": {"prefix": "order-"}}]})"
                                                     << R"({"event": ["String", "shipment"]})" << true;

    const QString numbers = QStringLiteral(R"({"price": [{"anything-but": [100, 500]}]})");
    QTest::newRow("anything-but numbers: 101") << numbers << R"({"price": ["Number", "101"]})" << true;
    QTest::newRow("anything-but numbers: 100.1") << numbers << R"({"price": ["Number", "100.1"]})" << true;
    QTest::newRow("anything-but numbers: 100") << numbers << R"({"price": ["Number", "100"]})" << false;

    QTest::newRow("numeric =: 301.5") << R"({"price_usd": [{"numeric": ["=", 301.5]}]})"
                                      << R"({"price_usd": ["Number", "301.5"]})" << true;
    QTest::newRow("numeric =: 3.015e2") << R"({"price_usd": [{"numeric": ["=", 301.5]}]})"
                                        << R"({"price_usd": ["Number", "3.015e2"]})" << true;
    QTest::newRow("numeric =: String attribute does not count") << R"({"price_usd": [{"numeric": ["=", 301.5]}]})"
                                                                << R"({"price_usd": ["String", "301.5"]})" << false;
    QTest::newRow("numeric <0: negative") << R"({"p": [{"numeric": ["<", 0]}]})" << R"({"p": ["Number", "-0.5"]})" << true;
    QTest::newRow("numeric <0: zero") << R"({"p": [{"numeric": ["<", 0]}]})" << R"({"p": ["Number", "0"]})" << false;
    const QString range = QStringLiteral(R"({"price_usd": [{"numeric": [">", 0, "<=", 150]}]})");
    QTest::newRow("range: 150 included") << range << R"({"price_usd": ["Number", "150"]})" << true;
    QTest::newRow("range: 0.01") << range << R"({"price_usd": ["Number", "0.01"]})" << true;
    QTest::newRow("range: 0 excluded") << range << R"({"price_usd": ["Number", "0"]})" << false;
    QTest::newRow("range: 210.75 above") << range << R"({"price_usd": ["Number", "210.75"]})" << false;
    QTest::newRow("range >= inclusive") << R"({"p": [{"numeric": [">=", 10, "<", 20]}]})" << R"({"p": ["Number", "10"]})"
                                        << true;
    QTest::newRow("range < exclusive") << R"({"p": [{"numeric": [">=", 10, "<", 20]}]})" << R"({"p": ["Number", "20"]})"
                                       << false;
    QTest::newRow("exact number") << R"({"p": [100]})" << R"({"p": ["Number", "100.0"]})" << true;
    QTest::newRow("numeric element of String.Array") << range << R"({"price_usd": ["String.Array", "[500, 20]"]})" << true;

    const QString exists = QStringLiteral(R"({"store": [{"exists": true}]})");
    QTest::newRow("exists true: present") << exists << R"({"store": ["String", "fans"]})" << true;
    QTest::newRow("exists true: absent") << exists << R"({"customer_interests": ["String", "x"]})" << false;
    QTest::newRow("exists true: Binary counts") << exists << R"({"store": ["Binary", "\u0001"]})" << true;
    const QString absent = QStringLiteral(R"({"store": [{"exists": false}]})");
    QTest::newRow("exists false: absent") << absent << R"({"customer_interests": ["String", "x"]})" << true;
    QTest::newRow("exists false: present") << absent << R"({"store": ["String", "fans"]})" << false;
    // Guide: "exists": false only matches if at least one attribute is present.
    QTest::newRow("exists false: no attributes at all") << absent << "{}" << false;

    const QString both = QStringLiteral(R"({"store": ["example_corp"], "event": ["order_placed"]})");
    QTest::newRow("AND: both keys match") << both << R"({"store": ["String", "example_corp"], "event": ["String", "order_placed"]})"
                                          << true;
    QTest::newRow("AND: one key differs") << both << R"({"store": ["String", "example_corp"], "event": ["String", "order_cancelled"]})"
                                          << false;
    QTest::newRow("AND: one key missing") << both << R"({"store": ["String", "example_corp"]})" << false;
    const QString mixed = QStringLiteral(R"({"color": ["red", {"prefix": "bl"}, {"numeric": [">", 5]}]})");
    QTest::newRow("OR: exact") << mixed << R"({"color": ["String", "red"]})" << true;
    QTest::newRow("OR: prefix") << mixed << R"({"color": ["String", "blue"]})" << true;
    QTest::newRow("OR: none") << mixed << R"({"color": ["String", "green"]})" << false;
    QTest::newRow("Binary never matches a value") << R"({"b": ["x"]})" << R"({"b": ["Binary", "x"]})" << false;
    QTest::newRow("String.Array true element") << R"({"flags": [true]})" << R"({"flags": ["String.Array", "[true]"]})" << true;
    QTest::newRow("String.Array not JSON") << interests << R"({"customer_interests": ["String.Array", "rugby"]})" << false;
    QTest::newRow("empty policy matches all") << "{}" << R"({"a": ["String", "b"]})" << true;
    QTest::newRow("empty policy, no attributes") << "{}" << "{}" << true;
    QTest::newRow("policy, no attributes") << interests << "{}" << false;
}

void FilterPolicyTest::matches_awsExamples()
{
    QFETCH(QString, policy);
    QFETCH(QString, message);
    QFETCH(bool, expected);
    const Result<FilterPolicy> parsed = parseFilterPolicy(policy.toStdString());
    QVERIFY2(parsed.ok(), parsed.ok() ? "" : parsed.error().message.c_str());
    QCOMPARE(parsed->matches(attributes(message)), expected);
}

void FilterPolicyTest::parse_invalid_reason_data()
{
    QTest::addColumn<QString>("policy");
    QTest::addColumn<QString>("reason");

    QTest::newRow("not JSON") << "{\"a\": [" << "failed to parse JSON";
    QTest::newRow("not an object") << "[\"a\"]" << "JSON object";
    QTest::newRow("six keys") << R"({"a":["1"],"b":["1"],"c":["1"],"d":["1"],"e":["1"],"f":["1"]})"
                              << "Filter policy can not have more than 5 keys";
    QTest::newRow("151 values") << "{\"a\": [" + QString("\"x\",").repeated(150) + "\"x\"]}" << "Filter policy is too complex";
    QTest::newRow("10 x 16 combinations") << "{\"a\": [" + QString("1,").repeated(9) + "1], \"b\": [" +
                                                 QString("2,").repeated(15) + "2]}"
                                          << "Filter policy is too complex";
    QTest::newRow("value not an array") << R"({"a": "x"})" << "\"a\" must be an object or an array";
    QTest::newRow("nested (MessageAttributes scope)") << R"({"a": {"b": ["x"]}})" << "does not support nested filter policy";
    QTest::newRow("empty array") << R"({"a": []})" << "Empty arrays are not allowed";
    QTest::newRow("array element") << R"({"a": [["x"]]})" << "Match value must be String, number, true, false, or null";
    QTest::newRow("two operators in one object") << R"({"a": [{"prefix": "x", "suffix": "y"}]})"
                                                 << "Only one key allowed in match expression";
    QTest::newRow("unknown operator") << R"({"a": [{"wildcard": "x*"}]})" << "Unrecognized match type wildcard";
    QTest::newRow("prefix not a string") << R"({"a": [{"prefix": 1}]})" << "prefix match pattern must be a string";
    QTest::newRow("exists not a boolean") << R"({"a": [{"exists": "yes"}]})"
                                          << "exists match pattern must be either true or false.";
    QTest::newRow("numeric empty") << R"({"a": [{"numeric": []}]})" << "Invalid member in numeric match";
    QTest::newRow("numeric operator unknown") << R"({"a": [{"numeric": ["!=", 5]}]})"
                                              << "Unrecognized numeric range operator: !=";
    QTest::newRow("numeric value not a number") << R"({"a": [{"numeric": [">", "5"]}]})" << "Value of > must be numeric";
    QTest::newRow("numeric = not a number") << R"({"a": [{"numeric": ["=", "5"]}]})" << "Value of equals must be numeric";
    QTest::newRow("numeric upper bound first") << R"({"a": [{"numeric": ["<", 5, ">", 1]}]})"
                                               << "Too many elements in numeric expression";
    QTest::newRow("numeric second op not upper") << R"({"a": [{"numeric": [">", 1, ">", 5]}]})"
                                                 << "Bad numeric range operator: >";
    QTest::newRow("numeric bottom above top") << R"({"a": [{"numeric": [">", 10, "<", 5]}]})"
                                              << "Bottom must be less than top";
    QTest::newRow("numeric too many terms") << R"({"a": [{"numeric": [">", 1, "<", 5, "<", 6]}]})"
                                            << "Too many terms in numeric range expression";
    QTest::newRow("anything-but with a boolean") << R"({"a": [{"anything-but": [true]}]})" << "anything but";
    QTest::newRow("anything-but empty list") << R"({"a": [{"anything-but": []}]})" << "Empty arrays are not allowed";
    QTest::newRow("$or unsupported") << R"({"$or": [{"a": ["x"]}, {"b": ["y"]}]})" << "$or";
}

void FilterPolicyTest::parse_invalid_reason()
{
    QFETCH(QString, policy);
    QFETCH(QString, reason);
    const Result<FilterPolicy> parsed = parseFilterPolicy(policy.toStdString());
    QVERIFY(!parsed.ok());
    QCOMPARE(parsed.error().code, BrokerErrorCode::SnsInvalidParameter);
    const QString message = q(parsed.error().message);
    QVERIFY2(message.startsWith(QLatin1String("Invalid parameter: FilterPolicy: ")), qPrintable(message));
    QVERIFY2(message.contains(reason), qPrintable(message));
}

void FilterPolicyTest::parse_limits_atTheEdge_data()
{
    QTest::addColumn<QString>("policy");
    QTest::newRow("five keys") << R"({"a":["1"],"b":["1"],"c":["1"],"d":["1"],"e":["1"]})";
    QTest::newRow("150 values") << "{\"a\": [" + QString("\"x\",").repeated(149) + "\"x\"]}";
    QTest::newRow("10 x 15 combinations") << "{\"a\": [" + QString("1,").repeated(9) + "1], \"b\": [" +
                                                 QString("2,").repeated(14) + "2]}";
    QTest::newRow("null and booleans") << R"({"a": [null, true, false]})";
}

void FilterPolicyTest::parse_limits_atTheEdge()
{
    QFETCH(QString, policy);
    const Result<FilterPolicy> parsed = parseFilterPolicy(policy.toStdString());
    QVERIFY2(parsed.ok(), parsed.ok() ? "" : parsed.error().message.c_str());
}

void FilterPolicyTest::parse_model_keepsKeysAndConditions()
{
    const Result<FilterPolicy> parsed =
        parseFilterPolicy(R"({"store": ["example_corp", {"prefix": "ex"}], "price": [{"numeric": [">=", 1, "<", 9]}]})");
    QVERIFY(parsed.ok());
    QCOMPARE(parsed->keys.size(), size_t(2));
    QCOMPARE(q(parsed->keys[0].first), QStringLiteral("store"));
    QCOMPARE(parsed->keys[0].second.size(), size_t(2));
    QVERIFY(std::holds_alternative<filter::ExactString>(parsed->keys[0].second[0]));
    QVERIFY(std::holds_alternative<filter::Prefix>(parsed->keys[0].second[1]));
    const auto *range = std::get_if<filter::Numeric>(&parsed->keys[1].second[0]);
    QVERIFY(range != nullptr);
    QCOMPARE(range->lower, std::optional<double>(1.0));
    QVERIFY(range->lowerInclusive);
    QCOMPARE(range->upper, std::optional<double>(9.0));
    QVERIFY(!range->upperInclusive);
}

RELAYDESK_TEST_MAIN(FilterPolicyTest)
#include "filter_policy_test.moc"
