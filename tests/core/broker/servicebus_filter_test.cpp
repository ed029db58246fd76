// SPDX-License-Identifier: MIT
// Unit tests of Service Bus subscription rules (docs/behaviour.md §8.6): the SQL filter
// grammar (good expressions, bad ones with the position they fail at),
// its evaluation over one message's system and application properties,
// and correlation filters and rules as Config.json writes them.

#include "broker/servicebus/servicebus_rule.h"
#include "broker/servicebus/servicebus_rule_action.h"
#include "broker/servicebus/sql_filter_evaluator.h"
#include "broker/servicebus/sql_filter_parser.h"
#include "broker/servicebus/sql_like_pattern.h"
#include "support/test_main.h"

#include <nlohmann/json.hpp>

#include <QtTest>

using namespace relaydesk;

namespace {

// The message every evaluation row looks at.
ServiceBusMessageFacts sampleMessage()
{
    ServiceBusMessageFacts message;
    message.system["MessageId"] = std::string("m-1");
    message.system["CorrelationId"] = std::string("order-7");
    message.system["Label"] = std::string("invoice");
    message.system["To"] = std::string("billing");
    message.system["ContentType"] = std::string("application/json");
    message.application["color"] = std::string("red");
    message.application["quantity"] = std::int64_t(5);
    message.application["price"] = 9.5;
    message.application["urgent"] = true;
    message.application["my prop"] = std::string("x");
    message.application["discount"] = std::string("50%");
    message.application["nothing"] = std::monostate{};
    return message;
}

} // namespace

class ServiceBusFilterTest final : public QObject {
    Q_OBJECT

private slots:
    void grammar_data()
    {
        QTest::addColumn<QString>("expression");
        QTest::addColumn<int>("position");   // 0: valid; else the 1-based position the error names
        QTest::newRow("true filter") << "1=1" << 0;
        QTest::newRow("sys property") << "sys.Label = 'invoice'" << 0;
        QTest::newRow("sys any case") << "SYS.label='x'" << 0;
        QTest::newRow("user scope") << "user.color = 'red' AND quantity > 3" << 0;
        QTest::newRow("delimited name") << "[my prop] = 'x'" << 0;
        QTest::newRow("not equal both ways") << "a <> 1 OR a != 2" << 0;
        QTest::newRow("in list") << "color NOT IN ('red', 'blue')" << 0;
        QTest::newRow("like escape") << "discount LIKE '50!%' ESCAPE '!'" << 0;
        QTest::newRow("is not null") << "color IS NOT NULL" << 0;
        QTest::newRow("exists") << "EXISTS(sys.CorrelationId) AND NOT EXISTS(user.x)" << 0;
        QTest::newRow("arithmetic") << "(quantity * 2 + 1) % 4 >= -3.5e0" << 0;
        QTest::newRow("quote in text") << "name = 'O''Brien'" << 0;
        QTest::newRow("keywords any case") << "a is null or not b like 'x%'" << 0;
        QTest::newRow("empty") << "" << 1;
        QTest::newRow("dangling AND") << "a = 1 AND" << 10;
        QTest::newRow("unclosed text") << "a = 'open" << 5;
        QTest::newRow("unknown system property") << "sys.Colour = 'red'" << 5;
        QTest::newRow("unknown scope") << "app.color = 'red'" << 4;
        QTest::newRow("unclosed parenthesis") << "(a = 1" << 7;
        QTest::newRow("stray character") << "a = 1 ; b = 2" << 7;
        QTest::newRow("IN without list") << "a IN 'x'" << 6;
        QTest::newRow("LIKE needs text") << "a LIKE 5" << 8;
        QTest::newRow("ESCAPE of two") << "a LIKE 'x' ESCAPE '!!'" << 19;
        QTest::newRow("IS NULL of a constant") << "1 IS NULL" << 1;
        QTest::newRow("EXISTS of a constant") << "EXISTS(1)" << 8;
        QTest::newRow("two predicates") << "a = 1 b = 2" << 7;
        QTest::newRow("number into name") << "a = 12abc" << 7;
        // Nesting is refused past 64 levels (found by the sql_filter fuzz target:
        // 1 000 parentheses ran the parser out of stack under ASan).
        QTest::newRow("64 parentheses") << QString(64, QLatin1Char('(')) + "a = 1" + QString(64, QLatin1Char(')')) << 0;
        QTest::newRow("65 parentheses") << QString(65, QLatin1Char('(')) + "a = 1" + QString(65, QLatin1Char(')')) << 65;
        QTest::newRow("65 NOTs") << QString("NOT ").repeated(65) + "a = 1" << 257;
        QTest::newRow("65 signs") << "a = " + QString(65, QLatin1Char('-')) + "1" << 69;
    }
    void grammar()
    {
        QFETCH(QString, expression);
        QFETCH(int, position);
        const Result<SqlFilterExpression> parsed = parseSqlFilter(expression.toStdString());
        if (position == 0) {
            QVERIFY2(parsed.ok(), parsed ? "" : parsed.error().message.c_str());
            return;
        }
        QVERIFY2(!parsed.ok(), "parsed although it should not");
        QCOMPARE(parsed.error().code, BrokerErrorCode::InvalidParameterValue);
        const QString wanted = QStringLiteral("at position %1:").arg(position);
        QVERIFY2(QString::fromStdString(parsed.error().message).contains(wanted), parsed.error().message.c_str());
    }

    void evaluation_data()
    {
        QTest::addColumn<QString>("expression");
        QTest::addColumn<bool>("matches");
        QTest::newRow("true") << "1=1" << true;
        QTest::newRow("false") << "1=0" << false;
        QTest::newRow("sys label") << "sys.Label = 'invoice'" << true;
        QTest::newRow("sys label other") << "sys.Label = 'receipt'" << false;
        QTest::newRow("Subject is Label") << "sys.Subject = 'invoice'" << true;
        QTest::newRow("bare name") << "color = 'red'" << true;
        QTest::newRow("user scope") << "user.color = 'red'" << true;
        QTest::newRow("text case-sensitive") << "color = 'RED'" << false;
        QTest::newRow("whole > ") << "quantity > 4" << true;
        QTest::newRow("whole <= ") << "quantity <= 4" << false;
        QTest::newRow("whole vs decimal") << "quantity = 5.0" << true;
        QTest::newRow("decimal") << "price < 10 AND price >= 9.5" << true;
        QTest::newRow("arithmetic") << "quantity * 2 + 1 = 11" << true;
        QTest::newRow("modulo") << "quantity % 2 = 1" << true;
        QTest::newRow("negative") << "-quantity = -5" << true;
        QTest::newRow("boolean property") << "urgent = TRUE" << true;
        QTest::newRow("boolean alone") << "urgent" << true;
        QTest::newRow("text vs number is unknown") << "color = 5" << false;
        QTest::newRow("NOT unknown stays unknown") << "NOT (color = 5)" << false;
        QTest::newRow("missing is unknown") << "missing = 'x'" << false;
        QTest::newRow("NOT missing stays unknown") << "NOT (missing = 'x')" << false;
        QTest::newRow("unknown OR true") << "missing = 'x' OR color = 'red'" << true;
        QTest::newRow("unknown AND false") << "NOT (missing = 'x' AND color = 'blue')" << true;
        QTest::newRow("not equal") << "color <> 'blue'" << true;
        QTest::newRow("in") << "color IN ('blue', 'red')" << true;
        QTest::newRow("not in") << "color NOT IN ('blue', 'red')" << false;
        QTest::newRow("in of missing") << "missing NOT IN ('blue')" << false;
        QTest::newRow("like percent") << "sys.ContentType LIKE 'application/%'" << true;
        QTest::newRow("like underscore") << "color LIKE 'r_d'" << true;
        QTest::newRow("like too short") << "color LIKE 'r_'" << false;
        QTest::newRow("not like") << "color NOT LIKE 'b%'" << true;
        QTest::newRow("like escape") << "discount LIKE '50!%' ESCAPE '!'" << true;
        QTest::newRow("like escaped needs the char") << "color LIKE 're!%' ESCAPE '!'" << false;
        QTest::newRow("is null of missing") << "missing IS NULL" << true;
        QTest::newRow("is null of null") << "nothing IS NULL" << true;
        QTest::newRow("is not null") << "color IS NOT NULL" << true;
        QTest::newRow("exists") << "EXISTS(color)" << true;
        QTest::newRow("exists of null") << "EXISTS(nothing)" << true;
        QTest::newRow("exists missing") << "EXISTS(missing)" << false;
        QTest::newRow("exists system") << "EXISTS(sys.CorrelationId) AND NOT EXISTS(sys.ReplyTo)" << true;
        QTest::newRow("delimited") << "[my prop] = 'x'" << true;
        QTest::newRow("precedence") << "color = 'blue' AND quantity = 5 OR urgent = TRUE" << true;
        QTest::newRow("parentheses") << "color = 'blue' AND (quantity = 5 OR urgent = TRUE)" << false;
        QTest::newRow("division by zero is unknown") << "quantity / 0 = 1" << false;
        // Whole-number results past 64 bits are unknown (found by the sql_filter fuzz target:
        // the smallest whole number divided by -1 stopped the broker with SIGFPE).
        QTest::newRow("smallest / -1 is unknown") << "(-9223372036854775807 - 1) / -1 > 0" << false;
        QTest::newRow("NOT of an overflow stays unknown") << "NOT ((-9223372036854775807 - 1) % -1 = 0)" << false;
        QTest::newRow("sum past 64 bits is unknown") << "9223372036854775807 + quantity > 0" << false;
        QTest::newRow("difference past 64 bits is unknown") << "NOT (-9223372036854775807 - quantity < 0)" << false;
        QTest::newRow("product past 64 bits is unknown") << "4611686018427387904 * 2 <> 0" << false;
        QTest::newRow("negating the smallest is unknown") << "-(-9223372036854775807 - 1) <> 0" << false;
        QTest::newRow("largest sum still whole") << "9223372036854775806 + 1 = 9223372036854775807" << true;
        // LIKE takes time proportional to text × pattern (many %s once took exponential time).
        QTest::newRow("like many percents, no match")
            << "discount + '" + QString(200, QLatin1Char('5')) + "' LIKE '%5%5%5%5%5%5%5%5%5%5%5%5%5%5%5%5%5%5%x'" << false;
        QTest::newRow("like many percents, match")
            << "discount + '" + QString(200, QLatin1Char('5')) + "' LIKE '%5%5%5%5%5%5%5%5%5%5%5%5%5%5%5%5%5%5%'" << true;
        QTest::newRow("like percent goes back") << "sys.ContentType LIKE '%/j%n'" << true;
        QTest::newRow("like trailing percents") << "color LIKE 'red%%'" << true;
        QTest::newRow("like escape as percent") << "discount LIKE '50%%' ESCAPE '%'" << true;
        QTest::newRow("like escaped percent at the end") << "color LIKE 'red%%' ESCAPE '%'" << false;
    }
    void evaluation()
    {
        QFETCH(QString, expression);
        QFETCH(bool, matches);
        const Result<SqlFilterExpression> parsed = parseSqlFilter(expression.toStdString());
        QVERIFY2(parsed.ok(), parsed ? "" : parsed.error().message.c_str());
        const Result<bool> matched = sqlFilterMatches(**parsed, sampleMessage());
        QVERIFY(matched.ok());
        QCOMPARE(*matched, matches);
    }

    // LIKE by its states (sql_like_pattern.h), patterns across the 64 states of a word.
    void likePatterns_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("pattern");
        QTest::addColumn<bool>("matches");
        QTest::newRow("empty both") << "" << "" << true;
        QTest::newRow("empty text, only runs") << "" << "%%" << true;
        QTest::newRow("empty text, one byte") << "" << "_" << false;
        QTest::newRow("run in the middle") << "abcxyz" << "abc%z" << true;
        QTest::newRow("run must end it") << "abcxyz" << "abc%y" << false;
        QTest::newRow("escaped underscore") << "a_b" << "a!_b" << true;
        QTest::newRow("escaped underscore is literal") << "axb" << "a!_b" << false;
        QTest::newRow("escape last is itself") << "a!" << "a!" << true;
        QTest::newRow("70 literal bytes") << QString(70, 'a') << QString(70, 'a') << true;
        QTest::newRow("70 literal bytes, one short") << QString(69, 'a') << QString(70, 'a') << false;
        QTest::newRow("run then 130 bytes") << QString(500, 'a') + "b" << "%" + QString(130, 'a') + "b" << true;
        QTest::newRow("run then 130 bytes, last differs") << QString(500, 'a') + "c" << "%" + QString(130, 'a') + "b" << false;
        QTest::newRow("underscores across words") << QString(200, 'q') << QString(199, '_') + "%" << true;
        QTest::newRow("runs across words") << "x" + QString(100, 'y') + "z" << "x%" + QString(64, '_') + "%z" << true;
    }
    void likePatterns()
    {
        QFETCH(QString, text);
        QFETCH(QString, pattern);
        QFETCH(bool, matches);
        QCOMPARE(sqlLikeMatches(text.toStdString(), pattern.toStdString(), '!'), matches);
    }

    // LIKE against a plain recursive reading of % and _, on every text and
    // pattern of up to 5 bytes over "ab%_" (texts over "ab").
    void likeAgreesWithItsDefinition()
    {
        std::function<bool(std::string_view, std::string_view)> reference = [&](std::string_view t, std::string_view p) {
            if (p.empty())
                return t.empty();
            if (p.front() == '%')
                return reference(t, p.substr(1)) || (!t.empty() && reference(t.substr(1), p));
            return !t.empty() && (p.front() == '_' || p.front() == t.front()) && reference(t.substr(1), p.substr(1));
        };
        auto all = [](std::string_view alphabet, std::size_t longest) {
            std::vector<std::string> words{""};
            for (std::size_t at = 0; at < words.size(); ++at)
                if (words[at].size() < longest)
                    for (const char c : alphabet)
                        words.push_back(words[at] + c);
            return words;
        };
        for (const std::string &pattern : all("ab%_", 5))
            for (const std::string &text : all("ab", 5))
                QVERIFY2(sqlLikeMatches(text, pattern, 0) == reference(text, pattern), (text + " LIKE " + pattern).c_str());
    }

    void rules_data()
    {
        QTest::addColumn<QString>("rule");
        QTest::addColumn<QString>("problem");   // empty: accepted
        QTest::addColumn<bool>("matches");      // of sampleMessage()
        QTest::newRow("correlation all")
            << R"({"Name": "c", "Properties": {"FilterType": "Correlation", "CorrelationFilter":
                  {"CorrelationId": "order-7", "Label": "invoice", "To": "billing", "Properties": {"color": "red"}}}})"
            << "" << true;
        QTest::newRow("correlation one differs")
            << R"({"Name": "c", "Properties": {"FilterType": "Correlation", "CorrelationFilter":
                  {"CorrelationId": "order-7", "ReplyTo": "x"}}})"
            << "" << false;
        QTest::newRow("correlation number property")
            << R"({"Name": "c", "Properties": {"FilterType": "Correlation", "CorrelationFilter": {"Properties": {"quantity": 5}}}})"
            << "" << true;
        QTest::newRow("sql") << R"({"Name": "s", "Properties": {"FilterType": "Sql", "SqlFilter": {"SqlExpression": "quantity > 3"}}})"
                             << "" << true;
        QTest::newRow("empty action")
            << R"({"Name": "s", "Properties": {"FilterType": "Sql", "SqlFilter": {"SqlExpression": "1=0"}, "Action": {"SqlExpression": ""}}})"
            << "" << false;
        QTest::newRow("bad sql names the position")
            << R"({"Name": "s", "Properties": {"FilterType": "Sql", "SqlFilter": {"SqlExpression": "a = "}}})"
            << "at position 5" << false;
        QTest::newRow("sql with an action")
            << R"({"Name": "s", "Properties": {"FilterType": "Sql", "SqlFilter": {"SqlExpression": "1=1"}, "Action": {"SqlExpression": "SET a = 1"}}})"
            << "" << true;
        QTest::newRow("correlation with an action")
            << R"({"Name": "c", "Properties": {"FilterType": "Correlation", "CorrelationFilter": {"Label": "invoice"}, "Action": {"SqlExpression": "REMOVE color"}}})"
            << "" << true;
        QTest::newRow("bad action")
            << R"({"Name": "s", "Properties": {"FilterType": "Sql", "SqlFilter": {"SqlExpression": "1=1"}, "Action": {"SqlExpression": "SET a"}}})"
            << "SET needs name = expression" << false;
        QTest::newRow("action not text")
            << R"({"Name": "s", "Properties": {"FilterType": "Sql", "SqlFilter": {"SqlExpression": "1=1"}, "Action": {"SqlExpression": 1}}})"
            << "Action is" << false;
        QTest::newRow("unknown filter type") << R"({"Name": "s", "Properties": {"FilterType": "True"}})" << "FilterType" << false;
        QTest::newRow("empty correlation")
            << R"({"Name": "c", "Properties": {"FilterType": "Correlation", "CorrelationFilter": {}}})" << "at least one" << false;
        QTest::newRow("unknown correlation field")
            << R"({"Name": "c", "Properties": {"FilterType": "Correlation", "CorrelationFilter": {"Colour": "red"}}})"
            << "Colour" << false;
        QTest::newRow("name too long") << QString(R"({"Name": "%1", "Properties": {"FilterType": "Sql", "SqlFilter": {"SqlExpression": "1=1"}}})").arg(QString(51, 'r'))
                                       << "1 to 50" << false;
    }
    void rules()
    {
        QFETCH(QString, rule);
        QFETCH(QString, problem);
        QFETCH(bool, matches);
        const Result<ServiceBusRule> parsed = parseServiceBusRule(nlohmann::json::parse(rule.toStdString()));
        if (!problem.isEmpty()) {
            QVERIFY(!parsed.ok());
            QVERIFY2(QString::fromStdString(parsed.error().message).contains(problem), parsed.error().message.c_str());
            return;
        }
        QVERIFY2(parsed.ok(), parsed ? "" : parsed.error().message.c_str());
        QCOMPARE(parsed->matches(sampleMessage()).value(), matches);
        const Result<ServiceBusRule> again = parseServiceBusRule(serviceBusRuleJson(*parsed));   // written back the same
        QVERIFY(again.ok());
        QCOMPARE(serviceBusRuleJson(*again), serviceBusRuleJson(*parsed));
    }

    // A rule action's statements on sampleMessage(): each property it sets
    // (its new value as JSON) or removes (null).
    void ruleActions_data()
    {
        QTest::addColumn<QString>("action");
        QTest::addColumn<QString>("problem");   // empty: accepted
        QTest::addColumn<QString>("changes");   // JSON: {"name": value, "removed": null}
        QTest::newRow("set a constant") << "SET level = 'high'" << "" << R"({"level": "high"})";
        QTest::newRow("set from properties") << "SET total = quantity * price" << "" << R"({"total": 47.5})";
        QTest::newRow("set user. and [name]") << "set user.a = 1; SET [my prop] = color + '!'" << ""
                                               << R"({"a": 1, "my prop": "red!"})";
        QTest::newRow("later statements see earlier ones") << "SET quantity = quantity + 1; SET double = quantity * 2" << ""
                                                            << R"({"quantity": 6, "double": 12})";
        QTest::newRow("a condition gives true or false") << "SET big = quantity > 3" << "" << R"({"big": true})";
        QTest::newRow("a system property is read") << "SET copied = sys.Label" << "" << R"({"copied": "invoice"})";
        QTest::newRow("remove") << "REMOVE color; remove [my prop]" << "" << R"({"color": "removed", "my prop": "removed"})";
        QTest::newRow("semicolon in text") << "SET note = 'a;b';" << "" << R"({"note": "a;b"})";
        QTest::newRow("blank is no action") << "  " << "" << "{}";
        QTest::newRow("a system property set") << "SET sys.label = sys.Label + '!'; SET x = sys.Label" << ""
                                                << R"({"sys.Label": "invoice!", "x": "invoice!"})";
        QTest::newRow("a system property removed") << "REMOVE sys.To" << "" << R"({"sys.To": "removed"})";
        QTest::newRow("a broker's system property is not set") << "SET sys.SequenceNumber = 1" << "sys.SequenceNumber cannot be changed" << "";
        QTest::newRow("unknown statement") << "UPDATE a = 1" << "SET name = expression or REMOVE name" << "";
        QTest::newRow("bad expression") << "SET a = (1" << "position" << "";
        QTest::newRow("no property") << "SET 1 = 2" << "names no property" << "";
    }
    void ruleActions()
    {
        QFETCH(QString, action);
        QFETCH(QString, problem);
        QFETCH(QString, changes);
        const Result<ServiceBusRuleAction> parsed = parseServiceBusRuleAction(action.toStdString());
        if (!problem.isEmpty()) {
            QVERIFY(!parsed.ok());
            QVERIFY2(QString::fromStdString(parsed.error().message).contains(problem), parsed.error().message.c_str());
            return;
        }
        QVERIFY2(parsed.ok(), parsed ? "" : parsed.error().message.c_str());
        nlohmann::json made = nlohmann::json::object();
        const Result<ServiceBusPropertyChanges> applied = applyServiceBusRuleAction(*parsed, sampleMessage());
        QVERIFY2(applied.ok(), applied ? "" : applied.error().message.c_str());
        const ServiceBusPropertyChanges &changed = *applied;
        for (const auto *properties : {&changed.application, &changed.system}) {
            const std::string prefix = properties == &changed.system ? "sys." : "";
            for (const auto &[name, value] : *properties) {
                const std::string key = prefix + name;
                if (!value)
                    made[key] = "removed";
                else
                    std::visit([&made, &key](const auto &held) {
                        if constexpr (std::is_same_v<std::decay_t<decltype(held)>, std::monostate>)
                            made[key] = nullptr;
                        else
                            made[key] = held;
                    }, *value);
            }
        }
        QCOMPARE(QString::fromStdString(made.dump()), QString::fromStdString(nlohmann::json::parse(changes.toStdString()).dump()));
    }
};

RELAYDESK_TEST_MAIN(ServiceBusFilterTest)
#include "servicebus_filter_test.moc"
