// SPDX-License-Identifier: MIT
// Unit tests of what `policy explain` and `policy diff` report (docs/behaviour.md §3.6,
// 8.1): the explanation JSON, the one-line summary, durations, and diffs.

#include "policy/policy_presets.h"
#include "policy/policy_report.h"

#include "retry_policy_support.h"
#include "support/test_main.h"

#include <QSet>
#include <QString>
#include <QtTest>

#include <nlohmann/json.hpp>

using namespace relaydesk;
using nlohmann::json;

namespace relaydesk {
namespace {
using namespace testing;

json parse(const QString &text) { return json::parse(text.toStdString()); }
QString qs(const std::string &text) { return QString::fromStdString(text); }

// Empty if every key of `expected` is in `actual` with the same value
// (recursively; arrays must have the same length). Extra keys are allowed
// (docs/behaviour.md §3.6).
QString subsetMismatch(const json &actual, const json &expected, const QString &path = QStringLiteral("$"))
{
    if (expected.is_object()) {
        if (!actual.is_object())
            return path + QStringLiteral(" is not an object");
        for (auto it = expected.begin(); it != expected.end(); ++it) {
            const QString child = path + QLatin1Char('.') + qs(it.key());
            if (!actual.contains(it.key()))
                return child + QStringLiteral(" missing");
            const QString m = subsetMismatch(actual.at(it.key()), it.value(), child);
            if (!m.isEmpty())
                return m;
        }
        return {};
    }
    if (expected.is_array()) {
        if (!actual.is_array() || actual.size() != expected.size())
            return path + QStringLiteral(": ") + qs(actual.dump()) + QStringLiteral(" vs ") + qs(expected.dump());
        for (size_t i = 0; i < expected.size(); ++i) {
            const QString m = subsetMismatch(actual[i], expected[i], path + QStringLiteral("[%1]").arg(i));
            if (!m.isEmpty())
                return m;
        }
        return {};
    }
    if (actual != expected)
        return path + QStringLiteral(": ") + qs(actual.dump()) + QStringLiteral(" vs ") + qs(expected.dump());
    return {};
}

const char *kSnsExampleDocument = R"({"healthyRetryPolicy": {"minDelayTarget": 1, "maxDelayTarget": 60,
    "numRetries": 50, "numNoDelayRetries": 3, "numMinDelayRetries": 2, "numMaxDelayRetries": 35,
    "backoffFunction": "exponential"}, "throttlePolicy": {"maxReceivesPerSecond": 10}})";

// docs/behaviour.md §3.6, literally.
const char *kSnsExampleExplanation = R"({
  "dialect": "sns",
  "valid": true,
  "errors": [],
  "warnings": [],
  "retries": 50,
  "attempts": 51,
  "totalDelaySeconds": 2205,
  "phases": [
    {"phase": "immediate",   "retries": 3,  "delaySeconds": 0},
    {"phase": "preBackoff",  "retries": 2,  "delaySeconds": 1},
    {"phase": "backoff",     "retries": 10, "function": "exponential", "delaysSeconds": [1,1,1,1,1,2,4,9,23,60]},
    {"phase": "postBackoff", "retries": 35, "delaySeconds": 60}
  ]
})";

DeliveryPolicy snsExamplePolicy()
{
    DeliveryPolicy p;
    p.retry = snsExampleRetry();
    return p;
}

PolicyCheckContext httpContext() { return PolicyCheckContext{EndpointProtocol::Http, false}; }
// Diffs are checked for sqs so that both sides stay valid (no 3600 s cap).
PolicyCheckContext sqsContext() { return PolicyCheckContext{EndpointProtocol::Sqs, false}; }

} // namespace

class PolicyReportTest final : public QObject {
    Q_OBJECT

private slots:
    void explanationJson_snsExample_isSpecShape_data();
    void explanationJson_snsExample_isSpecShape();
    void explanationJson_presetModel_isSpecShape();
    void explanationJson_zaqarDocument_usesZaqarDialect();
    void explanationJson_managedPreset_isValidForHttp();
    void explanationJson_invalidPolicy_listsEveryError();
    void explanationJson_capExceeded_isInvalidForHttpOnly();
    void explanationJson_deprecatedKey_isWarning();
    void scheduleSummary_policy_isAttemptsAndSpan_data();
    void scheduleSummary_policy_isAttemptsAndSpan();
    void durationText_seconds_isReadable_data();
    void durationText_seconds_isReadable();
    void diffPolicies_changedFields_areReported();
    void diffPolicies_identicalPolicies_reportNoField();
};

void PolicyReportTest::explanationJson_snsExample_isSpecShape_data()
{
    QTest::addColumn<QString>("document");
    QTest::newRow("subscription form") << QString::fromLatin1(kSnsExampleDocument);
    // A topic-form file is explained as the effective policy of an HTTP
    // subscription with none of its own (docs/behaviour.md §8.1).
    QTest::newRow("topic form") << R"({"http": {"defaultHealthyRetryPolicy": {"minDelayTarget": 1,
        "maxDelayTarget": 60, "numRetries": 50, "numNoDelayRetries": 3, "numMinDelayRetries": 2,
        "numMaxDelayRetries": 35, "backoffFunction": "exponential"}}})";
}

void PolicyReportTest::explanationJson_snsExample_isSpecShape()
{
    QFETCH(QString, document);
    const PolicyExplanation explanation = explainPolicy(parse(document), "test.json", httpContext());
    QVERIFY(explanation.validation.valid());
    QVERIFY(explanation.schedule.has_value());
    const json actual = explanationJson(explanation);
    const QString m = subsetMismatch(actual, json::parse(kSnsExampleExplanation));
    QVERIFY2(m.isEmpty(), qPrintable(m + QStringLiteral("\n") + qs(actual.dump(2))));
}

void PolicyReportTest::explanationJson_presetModel_isSpecShape()
{
    const std::optional<PolicyPreset> preset = findPolicyPreset("sns-example");
    QVERIFY(preset.has_value());
    const PolicyExplanation fromPreset = explainPolicy(preset->policy, "preset sns-example", httpContext());
    const json actual = explanationJson(fromPreset);
    QString m = subsetMismatch(actual, json::parse(kSnsExampleExplanation));
    QVERIFY2(m.isEmpty(), qPrintable(m));

    const PolicyExplanation fromModel = explainPolicy(snsExamplePolicy(), "model", httpContext());
    m = subsetMismatch(explanationJson(fromModel), json::parse(kSnsExampleExplanation));
    QVERIFY2(m.isEmpty(), qPrintable(m));
}

void PolicyReportTest::explanationJson_zaqarDocument_usesZaqarDialect()
{
    // docs/behaviour.md §2.2 defaults scheduled the Zaqar way (docs/behaviour.md §3.3): 15 retries, 210 s.
    const PolicyExplanation explanation = explainPolicy(parse(R"({"_retry_policy": {}})"), "-", httpContext());
    const json expected = json::parse(R"({
      "dialect": "zaqar", "valid": true, "errors": [], "warnings": [],
      "retries": 15, "attempts": 16, "totalDelaySeconds": 210,
      "phases": [
        {"phase": "immediate",   "retries": 3, "delaySeconds": 0},
        {"phase": "preBackoff",  "retries": 3, "delaySeconds": 5},
        {"phase": "backoff",     "retries": 6, "function": "linear", "delaysSeconds": [5,10,15,20,25,30]},
        {"phase": "postBackoff", "retries": 3, "delaySeconds": 30}
      ]})");
    const QString m = subsetMismatch(explanationJson(explanation), expected);
    QVERIFY2(m.isEmpty(), qPrintable(m));
}

void PolicyReportTest::explanationJson_managedPreset_isValidForHttp()
{
    // sns-aws-managed: exempt from the 0–100 and 3600 s rules (docs/behaviour.md §3.4).
    const std::optional<PolicyPreset> preset = findPolicyPreset("sns-aws-managed");
    QVERIFY(preset.has_value());
    const PolicyExplanation explanation = explainPolicy(preset->policy, "preset sns-aws-managed", httpContext());
    const json expected = json::parse(R"({
      "dialect": "sns", "valid": true, "errors": [],
      "retries": 100015, "attempts": 100016, "totalDelaySeconds": 2000042,
      "phases": [
        {"phase": "immediate",   "retries": 3, "delaySeconds": 0},
        {"phase": "preBackoff",  "retries": 2, "delaySeconds": 1},
        {"phase": "backoff",     "retries": 10, "function": "exponential", "delaysSeconds": [1,1,1,1,1,1,2,4,8,20]},
        {"phase": "postBackoff", "retries": 100000, "delaySeconds": 20}
      ]})");
    const QString m = subsetMismatch(explanationJson(explanation), expected);
    QVERIFY2(m.isEmpty(), qPrintable(m));
}

void PolicyReportTest::explanationJson_invalidPolicy_listsEveryError()
{
    const json document = parse(R"({"healthyRetryPolicy": {"numRetries": 1, "minDelayTarget": 0,
        "maxDelayTarget": 3601}, "throttlePolicy": {"maxReceivesPerSecond": 0}})");
    const PolicyExplanation explanation = explainPolicy(document, "bad.json", httpContext());
    QVERIFY(!explanation.validation.valid());
    QVERIFY(!explanation.schedule.has_value());

    const json actual = explanationJson(explanation);
    QCOMPARE(qs((actual.at("valid")).dump()), qs((json(false)).dump()));
    QVERIFY(actual.at("errors").is_array());
    QSet<QString> fields;
    for (const json &error : actual.at("errors")) {
        QVERIFY(error.is_object());
        QVERIFY(error.at("field").is_string());
        QVERIFY(error.at("message").is_string());
        QVERIFY(!error.at("message").get<std::string>().empty());
        fields.insert(qs(error.at("field").get<std::string>()));
    }
    QCOMPARE(fields, (QSet<QString>{"healthyRetryPolicy.minDelayTarget", "healthyRetryPolicy.maxDelayTarget",
                                    "throttlePolicy.maxReceivesPerSecond"}));
    QCOMPARE(actual.at("errors").size(), explanation.validation.errors.size());
    for (size_t i = 0; i < explanation.validation.errors.size(); ++i) {
        QCOMPARE(qs(actual.at("errors")[i].at("field").get<std::string>()),
                 qs(explanation.validation.errors[i].field));
        QCOMPARE(qs(actual.at("errors")[i].at("message").get<std::string>()),
                 qs(explanation.validation.errors[i].message));
    }
}

void PolicyReportTest::explanationJson_capExceeded_isInvalidForHttpOnly()
{
    // sns-example with max 120: 2 + 35 x 120 alone exceeds 3600 s.
    json document = parse(QString::fromLatin1(kSnsExampleDocument));
    document["healthyRetryPolicy"]["maxDelayTarget"] = 120;

    const json http = explanationJson(explainPolicy(document, "cap.json", httpContext()));
    QCOMPARE(qs((http.at("valid")).dump()), qs((json(false)).dump()));
    QCOMPARE(http.at("errors").size(), size_t(1));
    QVERIFY(qs(http.at("errors")[0].at("message").get<std::string>()).contains(QLatin1String("3600")));

    const json sqs = explanationJson(explainPolicy(document, "cap.json", PolicyCheckContext{EndpointProtocol::Sqs, false}));
    QCOMPARE(qs((sqs.at("valid")).dump()), qs((json(true)).dump()));
    QCOMPARE(qs((sqs.at("errors")).dump()), qs((json::array()).dump()));
    QCOMPARE(qs((sqs.at("retries")).dump()), qs((json(50)).dump()));
}

void PolicyReportTest::explanationJson_deprecatedKey_isWarning()
{
    const json actual = explanationJson(explainPolicy(
        parse(R"({"healthyRetryPolicy": {}, "sicklyRetryPolicy": null})"), "old.json", httpContext()));
    QCOMPARE(qs((actual.at("valid")).dump()), qs((json(true)).dump()));
    QCOMPARE(qs((actual.at("errors")).dump()), qs((json::array()).dump()));
    QCOMPARE(actual.at("warnings").size(), size_t(1));
    QCOMPARE(qs((actual.at("warnings")[0].at("field")).dump()), qs((json("sicklyRetryPolicy")).dump()));
    QVERIFY(actual.at("warnings")[0].at("message").is_string());
}

void PolicyReportTest::scheduleSummary_policy_isAttemptsAndSpan_data()
{
    QTest::addColumn<QString>("preset");
    QTest::addColumn<QString>("summary");
    QTest::newRow("sns-example") << "sns-example" << "51 attempts over 36 min 45 s";        // docs/behaviour.md §8.4
    QTest::newRow("sns-default") << "sns-default" << "4 attempts over 1 min";               // 3 x 20 s
    QTest::newRow("zaqar-default") << "zaqar-default" << "16 attempts over 3 min 30 s";     // 210 s
    QTest::newRow("sns-customer-managed") << "sns-customer-managed" << "51 attempts over 6 h 37 min 32 s"; // 23 852 s
}

void PolicyReportTest::scheduleSummary_policy_isAttemptsAndSpan()
{
    QFETCH(QString, preset);
    QFETCH(QString, summary);
    const std::optional<PolicyPreset> found = findPolicyPreset(preset.toStdString());
    QVERIFY(found.has_value());
    const RetrySchedule schedule = planSchedule(found->policy.retryOrDefault(), found->policy.dialect);
    QCOMPARE(qs(scheduleSummary(schedule)), summary);
}

void PolicyReportTest::durationText_seconds_isReadable_data()
{
    QTest::addColumn<qint64>("seconds");
    QTest::addColumn<QString>("text");
    QTest::newRow("0") << qint64(0) << "0 s";
    QTest::newRow("1") << qint64(1) << "1 s";
    QTest::newRow("59") << qint64(59) << "59 s";
    QTest::newRow("60") << qint64(60) << "1 min";
    QTest::newRow("61") << qint64(61) << "1 min 1 s";
    QTest::newRow("2205") << qint64(2205) << "36 min 45 s";
    QTest::newRow("3599") << qint64(3599) << "59 min 59 s";
    QTest::newRow("3600") << qint64(3600) << "1 h";
    QTest::newRow("3661") << qint64(3661) << "1 h 1 min 1 s";
    QTest::newRow("23852") << qint64(23852) << "6 h 37 min 32 s";
    QTest::newRow("86400") << qint64(86400) << "1 d";
    QTest::newRow("90061") << qint64(90061) << "1 d 1 h 1 min 1 s";
    QTest::newRow("2000042") << qint64(2000042) << "23 d 3 h 34 min 2 s";
}

void PolicyReportTest::durationText_seconds_isReadable()
{
    QFETCH(qint64, seconds);
    QFETCH(QString, text);
    QCOMPARE(qs(durationText(seconds)), text);
}

void PolicyReportTest::diffPolicies_changedFields_areReported()
{
    const DeliveryPolicy a = snsExamplePolicy();

    DeliveryPolicy oneChange = a;
    oneChange.retry->maxDelayTarget = 120;
    PolicyDiff diff = diffPolicies(explainPolicy(a, "a", sqsContext()), explainPolicy(oneChange, "b", sqsContext()));
    QCOMPARE(diff.fields.size(), size_t(1));
    QCOMPARE(qs(diff.fields[0].field), QStringLiteral("maxDelayTarget"));
    QVERIFY(qs(diff.fields[0].before).contains(QLatin1String("60")));
    QVERIFY(qs(diff.fields[0].after).contains(QLatin1String("120")));
    QVERIFY(qs(diffText(diff)).contains(QLatin1String("maxDelayTarget")));
    QVERIFY(!diffJson(diff).is_null());

    DeliveryPolicy twoChanges = a;
    twoChanges.retry->backoffFunction = BackoffFunction::Linear;
    twoChanges.retry->numMaxDelayRetries = 30;
    diff = diffPolicies(explainPolicy(a, "a", sqsContext()), explainPolicy(twoChanges, "b", sqsContext()));
    QSet<QString> fields;
    for (const PolicyDiff::FieldChange &change : diff.fields) {
        fields.insert(qs(change.field));
        if (change.field == "backoffFunction") {
            QCOMPARE(qs(change.before), QStringLiteral("exponential"));
            QCOMPARE(qs(change.after), QStringLiteral("linear"));
        } else if (change.field == "numMaxDelayRetries") {
            QVERIFY(qs(change.before).contains(QLatin1String("35")));
            QVERIFY(qs(change.after).contains(QLatin1String("30")));
        }
    }
    QCOMPARE(fields, (QSet<QString>{"backoffFunction", "numMaxDelayRetries"}));

    DeliveryPolicy throttled = a;
    throttled.hasThrottleSection = true;
    throttled.maxReceivesPerSecond = 10;
    diff = diffPolicies(explainPolicy(a, "a", sqsContext()), explainPolicy(throttled, "b", sqsContext()));
    QCOMPARE(diff.fields.size(), size_t(1));
    QCOMPARE(qs(diff.fields[0].field), QStringLiteral("maxReceivesPerSecond"));
    QVERIFY(qs(diff.fields[0].after).contains(QLatin1String("10")));
}

void PolicyReportTest::diffPolicies_identicalPolicies_reportNoField()
{
    const PolicyDiff diff = diffPolicies(explainPolicy(snsExamplePolicy(), "a", sqsContext()),
                                         explainPolicy(snsExamplePolicy(), "b", sqsContext()));
    QVERIFY(diff.fields.empty());
    QVERIFY(diff.a.schedule.has_value());
    QVERIFY(diff.b.schedule.has_value());
    QCOMPARE(diff.a.schedule->totalDelaySeconds(), int64_t(2205));
}

} // namespace relaydesk

RELAYDESK_TEST_MAIN(relaydesk::PolicyReportTest)
#include "policy_report_test.moc"
