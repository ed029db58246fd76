// SPDX-License-Identifier: MIT
// Unit tests of the three JSON forms (docs/behaviour.md §2.2): detection, reading, writing,
// round trips, conversions between forms and field paths.

#include "policy/policy_json.h"
#include "policy/retry_schedule.h"

#include "retry_policy_support.h"
#include "support/test_main.h"

#include <QString>
#include <QtTest>

#include <nlohmann/json.hpp>

using namespace relaydesk;
using nlohmann::json;

Q_DECLARE_METATYPE(relaydesk::PolicyForm)

namespace relaydesk {
namespace {
using namespace testing;

json parse(const QString &text) { return json::parse(text.toStdString()); }
QString qs(const std::string &text) { return QString::fromStdString(text); }

QString issuesText(const PolicyIssues &issues)
{
    QString out;
    for (const PolicyIssue &i : issues)
        out += QStringLiteral("[%1] %2; ").arg(qs(i.field), qs(i.message));
    return out;
}

DeliveryPolicy snsPolicy(PolicyForm form, const RetryPolicy &retry)
{
    DeliveryPolicy p;
    p.dialect = Dialect::Sns;
    p.form = form;
    p.retry = retry;
    return p;
}

// Same phases, counts and delays (a delay of an empty constant phase is not compared).
QString scheduleDifference(const RetrySchedule &a, const RetrySchedule &b)
{
    for (RetryPhase phase : kRetryPhases) {
        const SchedulePhase &pa = a.phase(phase);
        const SchedulePhase &pb = b.phase(phase);
        const QString name = QString::fromUtf8(retryPhaseName(phase).data(), qsizetype(retryPhaseName(phase).size()));
        if (pa.retries != pb.retries)
            return QStringLiteral("%1: %2 vs %3 retries").arg(name).arg(pa.retries).arg(pb.retries);
        if (phase == RetryPhase::Backoff) {
            if (pa.delays != pb.delays)
                return name + QStringLiteral(": delays differ");
        } else if (pa.retries > 0 && pa.delaySeconds != pb.delaySeconds) {
            return QStringLiteral("%1: %2 vs %3 s").arg(name).arg(pa.delaySeconds).arg(pb.delaySeconds);
        }
    }
    if (a.totalDelaySeconds() != b.totalDelaySeconds())
        return QStringLiteral("total differs");
    return {};
}

} // namespace

class PolicyJsonTest final : public QObject {
    Q_OBJECT

private slots:
    void detectPolicyForm_document_givesForm_data();
    void detectPolicyForm_document_givesForm();
    void policyFormNames_eachForm_areSpecNames();

    void writePolicy_completeDocument_roundTripsExactly_data();
    void writePolicy_completeDocument_roundTripsExactly();
    void readPolicy_sparseDocument_roundTripsToEqualModel_data();
    void readPolicy_sparseDocument_roundTripsToEqualModel();

    void readPolicy_subscriptionDocument_mapsEveryField();
    void readPolicy_missingFields_takeSpecDefaults();
    void readPolicy_topicDocument_mapsEveryField();
    void readPolicy_zaqarEmptyObject_givesZaqarDefaults();
    void readPolicy_zaqarPartial_derivesRetryCount();
    void writePolicy_defaultModel_writesEveryRetryField();
    void writePolicy_zaqarDefaults_writesEveryKey();

    void convertPolicy_subscriptionToTopic_isLossless();
    void convertPolicy_topicWithOverridesDisabled_refusedForSubscription();
    void convertPolicy_snsToZaqar_representable_keepsSchedule_data();
    void convertPolicy_snsToZaqar_representable_keepsSchedule();
    void convertPolicy_snsToZaqar_notRepresentable_refused_data();
    void convertPolicy_snsToZaqar_notRepresentable_refused();
    void convertPolicy_throttleToZaqar_refused();
    void convertPolicy_requestPolicyToZaqar_refused();
    void convertPolicy_zaqarToSubscription_keepsSchedule();
    void convertPolicy_zaqarIgnoreOverride_keptOnlyByTopic();
    void convertPolicy_sameForm_returnsPolicy();

    void policyFieldPath_eachForm_isFullPath_data();
    void policyFieldPath_eachForm_isFullPath();
};

// ---------------------------------------------------------------------------

void PolicyJsonTest::detectPolicyForm_document_givesForm_data()
{
    QTest::addColumn<QString>("document");
    QTest::addColumn<PolicyForm>("form");
    QTest::newRow("empty") << "{}" << PolicyForm::SnsSubscription;
    QTest::newRow("healthyRetryPolicy") << R"({"healthyRetryPolicy": {}})" << PolicyForm::SnsSubscription;
    QTest::newRow("throttle only") << R"({"throttlePolicy": {"maxReceivesPerSecond": 3}})"
                                   << PolicyForm::SnsSubscription;
    QTest::newRow("deprecated only") << R"({"sicklyRetryPolicy": null})" << PolicyForm::SnsSubscription;
    QTest::newRow("http empty") << R"({"http": {}})" << PolicyForm::SnsTopic;
    QTest::newRow("http with policy") << R"({"http": {"defaultHealthyRetryPolicy": {"numRetries": 4}}})"
                                      << PolicyForm::SnsTopic;
    QTest::newRow("zaqar empty") << R"({"_retry_policy": {}})" << PolicyForm::Zaqar;
    QTest::newRow("zaqar with keys") << R"({"_retry_policy": {"minimum_delay": 5}})" << PolicyForm::Zaqar;
}

void PolicyJsonTest::detectPolicyForm_document_givesForm()
{
    QFETCH(QString, document);
    QFETCH(PolicyForm, form);
    const json doc = parse(document);
    QCOMPARE(detectPolicyForm(doc), form);
    const PolicyReadResult read = readPolicy(doc);
    QCOMPARE(read.form, form);
    QVERIFY2(read.errors.empty(), qPrintable(issuesText(read.errors)));
    QVERIFY(read.policy.has_value());
    QCOMPARE(read.policy->form, form);
    QCOMPARE(read.policy->dialect, form == PolicyForm::Zaqar ? Dialect::Zaqar : Dialect::Sns);
}

void PolicyJsonTest::policyFormNames_eachForm_areSpecNames()
{
    const auto s = [](std::string_view v) { return QString::fromUtf8(v.data(), qsizetype(v.size())); };
    QCOMPARE(s(policyFormKey(PolicyForm::SnsSubscription)), QStringLiteral("subscription"));
    QCOMPARE(s(policyFormKey(PolicyForm::SnsTopic)), QStringLiteral("topic"));
    QCOMPARE(s(policyFormKey(PolicyForm::Zaqar)), QStringLiteral("zaqar"));
    for (PolicyForm form : {PolicyForm::SnsSubscription, PolicyForm::SnsTopic, PolicyForm::Zaqar}) {
        QVERIFY(parsePolicyFormKey(policyFormKey(form)) == std::optional<PolicyForm>(form));
        QVERIFY(!policyFormName(form).empty());
    }
    QVERIFY(!parsePolicyFormKey("queue").has_value());
    QCOMPARE(s(dialectName(Dialect::Sns)), QStringLiteral("sns"));
    QCOMPARE(s(dialectName(Dialect::Zaqar)), QStringLiteral("zaqar"));
}

// ---------------------------------------------------------------------------
// Round trips.

void PolicyJsonTest::writePolicy_completeDocument_roundTripsExactly_data()
{
    QTest::addColumn<QString>("document");

    QTest::newRow("subscription, every section")
        << R"({"healthyRetryPolicy": {"numRetries": 50, "numNoDelayRetries": 3, "numMinDelayRetries": 2,
               "numMaxDelayRetries": 35, "minDelayTarget": 1, "maxDelayTarget": 60, "backoffFunction": "exponential"},
               "throttlePolicy": {"maxReceivesPerSecond": 10},
               "requestPolicy": {"headerContentType": "application/json"},
               "sicklyRetryPolicy": null, "guaranteed": false})";
    QTest::newRow("subscription, retry only")
        << R"({"healthyRetryPolicy": {"numRetries": 7, "numNoDelayRetries": 1, "numMinDelayRetries": 1,
               "numMaxDelayRetries": 1, "minDelayTarget": 2, "maxDelayTarget": 90, "backoffFunction": "arithmetic"}})";
    QTest::newRow("subscription, geometric with throttle")
        << R"({"healthyRetryPolicy": {"numRetries": 4, "numNoDelayRetries": 0, "numMinDelayRetries": 0,
               "numMaxDelayRetries": 0, "minDelayTarget": 5, "maxDelayTarget": 260, "backoffFunction": "geometric"},
               "throttlePolicy": {"maxReceivesPerSecond": 1}})";
    QTest::newRow("topic, every section, overrides allowed")
        << R"({"http": {"defaultHealthyRetryPolicy": {"numRetries": 50, "numNoDelayRetries": 3,
               "numMinDelayRetries": 2, "numMaxDelayRetries": 35, "minDelayTarget": 1, "maxDelayTarget": 60,
               "backoffFunction": "exponential"},
               "disableSubscriptionOverrides": false,
               "defaultThrottlePolicy": {"maxReceivesPerSecond": 10},
               "defaultRequestPolicy": {"headerContentType": "text/plain; charset=UTF-8"}}})";
    QTest::newRow("topic, every section, overrides disabled")
        << R"({"http": {"defaultHealthyRetryPolicy": {"numRetries": 3, "numNoDelayRetries": 0,
               "numMinDelayRetries": 0, "numMaxDelayRetries": 0, "minDelayTarget": 20, "maxDelayTarget": 20,
               "backoffFunction": "linear"},
               "disableSubscriptionOverrides": true,
               "defaultThrottlePolicy": {"maxReceivesPerSecond": 2},
               "defaultRequestPolicy": {"headerContentType": "application/json"}}})";
    QTest::newRow("zaqar, defaults written out")
        << R"({"_retry_policy": {"retries_with_no_delay": 3, "minimum_delay_retries": 3, "minimum_delay": 5,
               "maximum_delay": 30, "maximum_delay_retries": 3, "retry_backoff_function": "linear",
               "ignore_subscription_override": false}})";
    QTest::newRow("zaqar, other values")
        << R"({"_retry_policy": {"retries_with_no_delay": 2, "minimum_delay_retries": 1, "minimum_delay": 10,
               "maximum_delay": 40, "maximum_delay_retries": 4, "retry_backoff_function": "geometric",
               "ignore_subscription_override": true}})";
}

void PolicyJsonTest::writePolicy_completeDocument_roundTripsExactly()
{
    QFETCH(QString, document);
    const json doc = parse(document);
    const PolicyReadResult read = readPolicy(doc);
    QVERIFY2(read.errors.empty(), qPrintable(issuesText(read.errors)));
    QVERIFY(read.policy.has_value());
    const json written = writePolicy(*read.policy);
    QVERIFY2(written == doc, qPrintable(QStringLiteral("wrote ") + qs(written.dump()) + " expected " + qs(doc.dump())));
}

void PolicyJsonTest::readPolicy_sparseDocument_roundTripsToEqualModel_data()
{
    QTest::addColumn<QString>("document");
    QTest::newRow("empty") << "{}";
    QTest::newRow("one retry field") << R"({"healthyRetryPolicy": {"numRetries": 5}})";
    QTest::newRow("empty throttle section") << R"({"throttlePolicy": {}})";
    QTest::newRow("throttle only") << R"({"throttlePolicy": {"maxReceivesPerSecond": 4}})";
    QTest::newRow("request only") << R"({"requestPolicy": {"headerContentType": "application/json"}})";
    QTest::newRow("empty request section") << R"({"requestPolicy": {}})";
    QTest::newRow("deprecated only") << R"({"sicklyRetryPolicy": null})";
    QTest::newRow("topic empty") << R"({"http": {}})";
    QTest::newRow("topic throttle only") << R"({"http": {"defaultThrottlePolicy": {"maxReceivesPerSecond": 3}}})";
    QTest::newRow("topic flag only") << R"({"http": {"disableSubscriptionOverrides": true}})";
    QTest::newRow("topic retry part") << R"({"http": {"defaultHealthyRetryPolicy": {"minDelayTarget": 4}}})";
    QTest::newRow("zaqar empty") << R"({"_retry_policy": {}})";
    QTest::newRow("zaqar one key") << R"({"_retry_policy": {"minimum_delay": 10}})";
    QTest::newRow("zaqar flag") << R"({"_retry_policy": {"ignore_subscription_override": true}})";
}

void PolicyJsonTest::readPolicy_sparseDocument_roundTripsToEqualModel()
{
    QFETCH(QString, document);
    const json doc = parse(document);
    const PolicyReadResult first = readPolicy(doc);
    QVERIFY2(first.errors.empty(), qPrintable(issuesText(first.errors)));
    QVERIFY(first.policy.has_value());

    const json written = writePolicy(*first.policy);
    QCOMPARE(detectPolicyForm(written), first.form);
    const PolicyReadResult second = readPolicy(written);
    QVERIFY2(second.errors.empty(), qPrintable(issuesText(second.errors) + qs(written.dump())));
    QVERIFY(second.policy.has_value());
    QVERIFY2(*second.policy == *first.policy, qPrintable(qs(written.dump())));
    // Writing is stable: the written document is itself a fixed point.
    QCOMPARE(qs(writePolicy(*second.policy).dump()), qs(written.dump()));
}

// ---------------------------------------------------------------------------
// Reading.

void PolicyJsonTest::readPolicy_subscriptionDocument_mapsEveryField()
{
    const PolicyReadResult read = readPolicy(parse(
        R"({"healthyRetryPolicy": {"numRetries": 50, "numNoDelayRetries": 3, "numMinDelayRetries": 2,
            "numMaxDelayRetries": 35, "minDelayTarget": 1, "maxDelayTarget": 60, "backoffFunction": "exponential"},
            "throttlePolicy": {"maxReceivesPerSecond": 10},
            "requestPolicy": {"headerContentType": "application/json"},
            "sicklyRetryPolicy": null, "guaranteed": false})"));
    QVERIFY2(read.errors.empty(), qPrintable(issuesText(read.errors)));
    QCOMPARE(read.warnings.size(), size_t(2)); // the two deprecated keys
    QVERIFY(read.policy.has_value());
    const DeliveryPolicy &p = *read.policy;
    QCOMPARE(p.dialect, Dialect::Sns);
    QCOMPARE(p.form, PolicyForm::SnsSubscription);
    QVERIFY(p.retry.has_value());
    QVERIFY(*p.retry == snsExampleRetry());
    QVERIFY(p.maxReceivesPerSecond == std::optional<int>(10));
    QVERIFY(p.hasThrottleSection);
    QVERIFY(p.headerContentType == std::optional<std::string>("application/json"));
    QVERIFY(p.hasRequestSection);
    QVERIFY(p.hasSicklyRetryPolicy);
    QVERIFY(p.hasGuaranteed);
    QVERIFY(!p.disableSubscriptionOverrides);
    QVERIFY(!p.managed);
}

void PolicyJsonTest::readPolicy_missingFields_takeSpecDefaults()
{
    // docs/behaviour.md §2.1 defaults: 3 retries, 0/0/0, 20 s, 20 s, linear.
    const PolicyReadResult partial = readPolicy(parse(R"({"healthyRetryPolicy": {"numRetries": 5}})"));
    QVERIFY(partial.policy.has_value() && partial.policy->retry.has_value());
    QVERIFY(*partial.policy->retry == retryOf(5, 0, 0, 0, 20, 20, BackoffFunction::Linear));

    const PolicyReadResult empty = readPolicy(json::object());
    QVERIFY(empty.policy.has_value());
    QVERIFY(!empty.policy->retry.has_value()); // presence matters (docs/behaviour.md §2.3)
    QVERIFY(!empty.policy->hasThrottleSection);
    QVERIFY(!empty.policy->hasRequestSection);
    QVERIFY(!empty.policy->maxReceivesPerSecond.has_value());
    QVERIFY(empty.policy->retryOrDefault() == retryOf(3, 0, 0, 0, 20, 20, BackoffFunction::Linear));
    QCOMPARE(qs(empty.policy->headerContentTypeOrDefault()), QStringLiteral("text/plain; charset=UTF-8"));

    const PolicyReadResult sectionOnly = readPolicy(parse(R"({"healthyRetryPolicy": {}})"));
    QVERIFY(sectionOnly.policy.has_value() && sectionOnly.policy->retry.has_value());
    QVERIFY(*sectionOnly.policy->retry == RetryPolicy{});

    const PolicyReadResult throttle = readPolicy(parse(R"({"throttlePolicy": {}})"));
    QVERIFY(throttle.policy.has_value());
    QVERIFY(throttle.policy->hasThrottleSection);
    QVERIFY(!throttle.policy->maxReceivesPerSecond.has_value()); // absent = no limit
}

void PolicyJsonTest::readPolicy_topicDocument_mapsEveryField()
{
    const PolicyReadResult read = readPolicy(parse(
        R"({"http": {"defaultHealthyRetryPolicy": {"numRetries": 6, "minDelayTarget": 5, "maxDelayTarget": 30},
            "disableSubscriptionOverrides": true,
            "defaultThrottlePolicy": {"maxReceivesPerSecond": 7},
            "defaultRequestPolicy": {"headerContentType": "text/plain"}}})"));
    QVERIFY2(read.errors.empty(), qPrintable(issuesText(read.errors)));
    QVERIFY(read.policy.has_value());
    const DeliveryPolicy &p = *read.policy;
    QCOMPARE(p.form, PolicyForm::SnsTopic);
    QCOMPARE(p.dialect, Dialect::Sns);
    QVERIFY(p.retry.has_value());
    QVERIFY(*p.retry == retryOf(6, 0, 0, 0, 5, 30, BackoffFunction::Linear));
    QVERIFY(p.disableSubscriptionOverrides);
    QVERIFY(p.maxReceivesPerSecond == std::optional<int>(7));
    QVERIFY(p.hasThrottleSection);
    QVERIFY(p.headerContentType == std::optional<std::string>("text/plain"));
    QVERIFY(p.hasRequestSection);
}

void PolicyJsonTest::readPolicy_zaqarEmptyObject_givesZaqarDefaults()
{
    // docs/behaviour.md §2.2: every key optional, an empty object means the defaults
    // 3 / 3 / 5 / 30 / 3 / linear / false; backoff 5..30 by 5 = 6, total 15.
    const RetryPolicy expected = retryOf(15, 3, 3, 3, 5, 30, BackoffFunction::Linear);
    QVERIFY(zaqarDefaultRetryPolicy() == expected);

    const PolicyReadResult read = readPolicy(parse(R"({"_retry_policy": {}})"));
    QVERIFY2(read.errors.empty(), qPrintable(issuesText(read.errors)));
    QVERIFY(read.warnings.empty());
    QVERIFY(read.policy.has_value());
    QCOMPARE(read.policy->form, PolicyForm::Zaqar);
    QCOMPARE(read.policy->dialect, Dialect::Zaqar);
    QVERIFY(read.policy->retry.has_value());
    QVERIFY(*read.policy->retry == expected);
    QVERIFY(!read.policy->disableSubscriptionOverrides);
    QVERIFY(!read.policy->maxReceivesPerSecond.has_value());
}

void PolicyJsonTest::readPolicy_zaqarPartial_derivesRetryCount()
{
    // maximum_delay 60: backoff 5..60 by 5 = 12, total 3 + 3 + 12 + 3 = 21.
    const PolicyReadResult read = readPolicy(parse(R"({"_retry_policy": {"maximum_delay": 60}})"));
    QVERIFY(read.policy.has_value() && read.policy->retry.has_value());
    QVERIFY(*read.policy->retry == retryOf(21, 3, 3, 3, 5, 60, BackoffFunction::Linear));
    QCOMPARE(read.policy->retry->backoffRetries(), 12);

    const PolicyReadResult flag = readPolicy(parse(R"({"_retry_policy": {"ignore_subscription_override": true}})"));
    QVERIFY(flag.policy.has_value());
    QVERIFY(flag.policy->disableSubscriptionOverrides);
    QVERIFY(flag.policy->retry.has_value());
    QVERIFY(*flag.policy->retry == zaqarDefaultRetryPolicy());
}

// ---------------------------------------------------------------------------
// Writing.

void PolicyJsonTest::writePolicy_defaultModel_writesEveryRetryField()
{
    const json written = writePolicy(snsPolicy(PolicyForm::SnsSubscription, RetryPolicy{}));
    const json expected = parse(R"({"healthyRetryPolicy": {"numRetries": 3, "numNoDelayRetries": 0,
        "numMinDelayRetries": 0, "numMaxDelayRetries": 0, "minDelayTarget": 20, "maxDelayTarget": 20,
        "backoffFunction": "linear"}})");
    QCOMPARE(qs(written.dump()), qs(expected.dump()));

    DeliveryPolicy topic = snsPolicy(PolicyForm::SnsTopic, snsExampleRetry());
    topic.hasThrottleSection = true;
    topic.maxReceivesPerSecond = 10;
    const json expectedTopic = parse(R"({"http": {"defaultHealthyRetryPolicy": {"numRetries": 50,
        "numNoDelayRetries": 3, "numMinDelayRetries": 2, "numMaxDelayRetries": 35, "minDelayTarget": 1,
        "maxDelayTarget": 60, "backoffFunction": "exponential"}, "disableSubscriptionOverrides": false,
        "defaultThrottlePolicy": {"maxReceivesPerSecond": 10}}})");
    QCOMPARE(qs(writePolicy(topic).dump()), qs(expectedTopic.dump()));
}

void PolicyJsonTest::writePolicy_zaqarDefaults_writesEveryKey()
{
    DeliveryPolicy policy;
    policy.dialect = Dialect::Zaqar;
    policy.form = PolicyForm::Zaqar;
    policy.retry = zaqarDefaultRetryPolicy();
    const json expected = parse(R"({"_retry_policy": {"retries_with_no_delay": 3, "minimum_delay_retries": 3,
        "minimum_delay": 5, "maximum_delay": 30, "maximum_delay_retries": 3, "retry_backoff_function": "linear",
        "ignore_subscription_override": false}})");
    QCOMPARE(qs(writePolicy(policy).dump()), qs(expected.dump()));
}

// ---------------------------------------------------------------------------
// Conversions.

void PolicyJsonTest::convertPolicy_subscriptionToTopic_isLossless()
{
    DeliveryPolicy sub = snsPolicy(PolicyForm::SnsSubscription, snsExampleRetry());
    sub.hasThrottleSection = true;
    sub.maxReceivesPerSecond = 10;
    sub.hasRequestSection = true;
    sub.headerContentType = "application/json";

    const PolicyConversion toTopic = convertPolicy(sub, PolicyForm::SnsTopic);
    QVERIFY2(toTopic.policy.has_value(), qPrintable(qs(toTopic.refusal)));
    QVERIFY(toTopic.refusal.empty());
    const DeliveryPolicy &topic = *toTopic.policy;
    QCOMPARE(topic.form, PolicyForm::SnsTopic);
    QCOMPARE(topic.dialect, Dialect::Sns);
    QVERIFY(topic.retry == sub.retry);
    QVERIFY(topic.maxReceivesPerSecond == std::optional<int>(10));
    QVERIFY(topic.headerContentType == std::optional<std::string>("application/json"));
    QVERIFY(!topic.disableSubscriptionOverrides);

    const json expectedTopic = parse(R"({"http": {"defaultHealthyRetryPolicy": {"numRetries": 50,
        "numNoDelayRetries": 3, "numMinDelayRetries": 2, "numMaxDelayRetries": 35, "minDelayTarget": 1,
        "maxDelayTarget": 60, "backoffFunction": "exponential"}, "disableSubscriptionOverrides": false,
        "defaultThrottlePolicy": {"maxReceivesPerSecond": 10},
        "defaultRequestPolicy": {"headerContentType": "application/json"}}})");
    QCOMPARE(qs(writePolicy(topic).dump()), qs(expectedTopic.dump()));

    const PolicyConversion back = convertPolicy(topic, PolicyForm::SnsSubscription);
    QVERIFY2(back.policy.has_value(), qPrintable(qs(back.refusal)));
    QVERIFY(*back.policy == sub);
}

void PolicyJsonTest::convertPolicy_topicWithOverridesDisabled_refusedForSubscription()
{
    DeliveryPolicy topic = snsPolicy(PolicyForm::SnsTopic, snsExampleRetry());
    topic.disableSubscriptionOverrides = true;
    const PolicyConversion refused = convertPolicy(topic, PolicyForm::SnsSubscription);
    QVERIFY(!refused.policy.has_value());
    QVERIFY(!refused.refusal.empty());

    topic.disableSubscriptionOverrides = false;
    const PolicyConversion accepted = convertPolicy(topic, PolicyForm::SnsSubscription);
    QVERIFY2(accepted.policy.has_value(), qPrintable(qs(accepted.refusal)));
    QCOMPARE(accepted.policy->form, PolicyForm::SnsSubscription);
    QVERIFY(accepted.policy->retry == topic.retry);
}

void PolicyJsonTest::convertPolicy_snsToZaqar_representable_keepsSchedule_data()
{
    QTest::addColumn<PolicyForm>("from");
    QTest::addColumn<int>("noDelay");
    QTest::addColumn<int>("minRetries");
    QTest::addColumn<int>("maxRetries");
    QTest::addColumn<int>("backoff");
    QTest::addColumn<int>("minDelay");
    QTest::addColumn<int>("maxDelay");
    QTest::addColumn<int>("function");

    // Zaqar n = floor((max - min) / 5) + 1 must equal the SNS backoff count,
    // and linear 5..30 in 6 steps is exactly the 5 s staircase.
    QTest::newRow("linear 5..30, 6 backoff, zaqar defaults") << PolicyForm::SnsSubscription << 3 << 3 << 3 << 6 << 5
                                                             << 30 << int(BackoffFunction::Linear);
    QTest::newRow("linear 5..30, backoff only") << PolicyForm::SnsSubscription << 0 << 0 << 0 << 6 << 5 << 30
                                                << int(BackoffFunction::Linear);
    QTest::newRow("linear 5..60, 12 backoff (blueprint)") << PolicyForm::SnsTopic << 3 << 3 << 3 << 12 << 5 << 60
                                                          << int(BackoffFunction::Linear);
    QTest::newRow("exponential 5..60, 12 backoff") << PolicyForm::SnsSubscription << 1 << 0 << 2 << 12 << 5 << 60
                                                   << int(BackoffFunction::Exponential);
}

void PolicyJsonTest::convertPolicy_snsToZaqar_representable_keepsSchedule()
{
    QFETCH(PolicyForm, from);
    QFETCH(int, noDelay);
    QFETCH(int, minRetries);
    QFETCH(int, maxRetries);
    QFETCH(int, backoff);
    QFETCH(int, minDelay);
    QFETCH(int, maxDelay);
    QFETCH(int, function);

    const RetryPolicy retry = retryOf(noDelay + minRetries + maxRetries + backoff, noDelay, minRetries, maxRetries,
                                      minDelay, maxDelay, BackoffFunction(function));
    const DeliveryPolicy sns = snsPolicy(from, retry);
    const PolicyConversion converted = convertPolicy(sns, PolicyForm::Zaqar);
    QVERIFY2(converted.policy.has_value(), qPrintable(qs(converted.refusal)));
    QVERIFY(converted.refusal.empty());
    QVERIFY(!converted.note.empty()); // failure classification differs (docs/behaviour.md §4.2)
    const DeliveryPolicy &zaqar = *converted.policy;
    QCOMPARE(zaqar.form, PolicyForm::Zaqar);
    QCOMPARE(zaqar.dialect, Dialect::Zaqar);
    QVERIFY(zaqar.retry.has_value());
    QCOMPARE(zaqar.retry->minDelayTarget, minDelay);
    QCOMPARE(zaqar.retry->maxDelayTarget, maxDelay);
    QCOMPARE(zaqar.retry->numNoDelayRetries, noDelay);
    QCOMPARE(zaqar.retry->numMinDelayRetries, minRetries);
    QCOMPARE(zaqar.retry->numMaxDelayRetries, maxRetries);
    QCOMPARE(zaqar.retry->numRetries, retry.numRetries);

    const QString difference = scheduleDifference(planSchedule(retry, Dialect::Sns),
                                                  planSchedule(*zaqar.retry, Dialect::Zaqar));
    QVERIFY2(difference.isEmpty(), qPrintable(difference));

    // And the written Zaqar document reads back to the same schedule.
    const PolicyReadResult reread = readPolicy(writePolicy(zaqar));
    QVERIFY(reread.policy.has_value() && reread.policy->retry.has_value());
    const QString rereadDifference = scheduleDifference(planSchedule(retry, Dialect::Sns),
                                                        planSchedule(*reread.policy->retry, Dialect::Zaqar));
    QVERIFY2(rereadDifference.isEmpty(), qPrintable(rereadDifference));
}

void PolicyJsonTest::convertPolicy_snsToZaqar_notRepresentable_refused_data()
{
    QTest::addColumn<int>("numRetries");
    QTest::addColumn<int>("minDelay");
    QTest::addColumn<int>("maxDelay");
    QTest::addColumn<int>("function");
    // SNS backoff count vs Zaqar floor((max - min) / 5) + 1:
    QTest::newRow("linear 5..30 with 5 backoff (zaqar 6)") << 5 << 5 << 30 << int(BackoffFunction::Linear);
    QTest::newRow("linear 5..30 with 7 backoff (zaqar 6)") << 7 << 5 << 30 << int(BackoffFunction::Linear);
    QTest::newRow("sns-default 3 x 20 s (zaqar 1)") << 3 << 20 << 20 << int(BackoffFunction::Linear);
    QTest::newRow("exponential 1..60 with 10 (zaqar 12)") << 10 << 1 << 60 << int(BackoffFunction::Exponential);
}

void PolicyJsonTest::convertPolicy_snsToZaqar_notRepresentable_refused()
{
    QFETCH(int, numRetries);
    QFETCH(int, minDelay);
    QFETCH(int, maxDelay);
    QFETCH(int, function);
    const DeliveryPolicy sns = snsPolicy(PolicyForm::SnsSubscription,
                                         retryOf(numRetries, 0, 0, 0, minDelay, maxDelay, BackoffFunction(function)));
    const PolicyConversion converted = convertPolicy(sns, PolicyForm::Zaqar);
    QVERIFY(!converted.policy.has_value());
    QVERIFY(!converted.refusal.empty());
}

void PolicyJsonTest::convertPolicy_throttleToZaqar_refused()
{
    DeliveryPolicy sns = snsPolicy(PolicyForm::SnsSubscription, retryOf(15, 3, 3, 3, 5, 30, BackoffFunction::Linear));
    QVERIFY(convertPolicy(sns, PolicyForm::Zaqar).policy.has_value()); // representable without the throttle

    sns.hasThrottleSection = true;
    sns.maxReceivesPerSecond = 5;
    const PolicyConversion converted = convertPolicy(sns, PolicyForm::Zaqar);
    QVERIFY(!converted.policy.has_value());
    QVERIFY(!converted.refusal.empty());
}

void PolicyJsonTest::convertPolicy_requestPolicyToZaqar_refused()
{
    // The Zaqar form has no request policy: a Content-Type would be lost.
    DeliveryPolicy sns = snsPolicy(PolicyForm::SnsSubscription, retryOf(15, 3, 3, 3, 5, 30, BackoffFunction::Linear));
    sns.hasRequestSection = true;
    sns.headerContentType = "application/json";
    const PolicyConversion converted = convertPolicy(sns, PolicyForm::Zaqar);
    QVERIFY(!converted.policy.has_value());
    QVERIFY(!converted.refusal.empty());
}

void PolicyJsonTest::convertPolicy_zaqarToSubscription_keepsSchedule()
{
    for (int maxDelay : {30, 60}) {
        DeliveryPolicy zaqar;
        zaqar.dialect = Dialect::Zaqar;
        zaqar.form = PolicyForm::Zaqar;
        RetryPolicy retry = zaqarDefaultRetryPolicy();
        retry.maxDelayTarget = maxDelay;
        retry.numRetries = 3 + 3 + 3 + ((maxDelay - 5) / 5 + 1);
        zaqar.retry = retry;

        const PolicyConversion converted = convertPolicy(zaqar, PolicyForm::SnsSubscription);
        QVERIFY2(converted.policy.has_value(), qPrintable(qs(converted.refusal)));
        QVERIFY(!converted.note.empty()); // failure classification differs (docs/behaviour.md §4.2)
        QCOMPARE(converted.policy->form, PolicyForm::SnsSubscription);
        QCOMPARE(converted.policy->dialect, Dialect::Sns);
        QVERIFY(converted.policy->retry.has_value());
        QCOMPARE(converted.policy->retry->numRetries, retry.numRetries);
        QCOMPARE(converted.policy->retry->backoffRetries(), (maxDelay - 5) / 5 + 1);
        const QString difference = scheduleDifference(planSchedule(retry, Dialect::Zaqar),
                                                      planSchedule(*converted.policy->retry, Dialect::Sns));
        QVERIFY2(difference.isEmpty(), qPrintable(difference));
    }
}

void PolicyJsonTest::convertPolicy_zaqarIgnoreOverride_keptOnlyByTopic()
{
    DeliveryPolicy zaqar;
    zaqar.dialect = Dialect::Zaqar;
    zaqar.form = PolicyForm::Zaqar;
    zaqar.retry = zaqarDefaultRetryPolicy();
    zaqar.disableSubscriptionOverrides = true;

    // The subscription form cannot say "ignore subscription overrides".
    const PolicyConversion toSubscription = convertPolicy(zaqar, PolicyForm::SnsSubscription);
    QVERIFY(!toSubscription.policy.has_value());
    QVERIFY(!toSubscription.refusal.empty());

    const PolicyConversion toTopic = convertPolicy(zaqar, PolicyForm::SnsTopic);
    QVERIFY2(toTopic.policy.has_value(), qPrintable(qs(toTopic.refusal)));
    QCOMPARE(toTopic.policy->form, PolicyForm::SnsTopic);
    QVERIFY(toTopic.policy->disableSubscriptionOverrides);
}

void PolicyJsonTest::convertPolicy_sameForm_returnsPolicy()
{
    DeliveryPolicy sub = snsPolicy(PolicyForm::SnsSubscription, snsExampleRetry());
    sub.hasThrottleSection = true;
    sub.maxReceivesPerSecond = 3;
    const PolicyConversion same = convertPolicy(sub, PolicyForm::SnsSubscription);
    QVERIFY(same.policy.has_value());
    QVERIFY(*same.policy == sub);
}

// ---------------------------------------------------------------------------

void PolicyJsonTest::policyFieldPath_eachForm_isFullPath_data()
{
    QTest::addColumn<PolicyForm>("form");
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("path");

    const PolicyForm sub = PolicyForm::SnsSubscription;
    const PolicyForm topic = PolicyForm::SnsTopic;
    const PolicyForm zaqar = PolicyForm::Zaqar;
    for (const char *f : {"numRetries", "numNoDelayRetries", "numMinDelayRetries", "numMaxDelayRetries",
                          "minDelayTarget", "maxDelayTarget", "backoffFunction"}) {
        QTest::addRow("subscription %s", f) << sub << f << QStringLiteral("healthyRetryPolicy.%1").arg(f);
        QTest::addRow("topic %s", f) << topic << f << QStringLiteral("http.defaultHealthyRetryPolicy.%1").arg(f);
    }
    QTest::newRow("subscription section") << sub << "healthyRetryPolicy" << "healthyRetryPolicy";
    QTest::newRow("topic section") << topic << "healthyRetryPolicy" << "http.defaultHealthyRetryPolicy";
    QTest::newRow("zaqar section") << zaqar << "healthyRetryPolicy" << "_retry_policy";
    QTest::newRow("subscription throttle") << sub << "maxReceivesPerSecond" << "throttlePolicy.maxReceivesPerSecond";
    QTest::newRow("topic throttle") << topic << "maxReceivesPerSecond"
                                    << "http.defaultThrottlePolicy.maxReceivesPerSecond";
    QTest::newRow("subscription content type") << sub << "headerContentType" << "requestPolicy.headerContentType";
    QTest::newRow("topic content type") << topic << "headerContentType"
                                        << "http.defaultRequestPolicy.headerContentType";
    QTest::newRow("zaqar numNoDelayRetries") << zaqar << "numNoDelayRetries" << "_retry_policy.retries_with_no_delay";
    QTest::newRow("zaqar numMinDelayRetries") << zaqar << "numMinDelayRetries"
                                              << "_retry_policy.minimum_delay_retries";
    QTest::newRow("zaqar minDelayTarget") << zaqar << "minDelayTarget" << "_retry_policy.minimum_delay";
    QTest::newRow("zaqar maxDelayTarget") << zaqar << "maxDelayTarget" << "_retry_policy.maximum_delay";
    QTest::newRow("zaqar numMaxDelayRetries") << zaqar << "numMaxDelayRetries"
                                              << "_retry_policy.maximum_delay_retries";
    QTest::newRow("zaqar backoffFunction") << zaqar << "backoffFunction" << "_retry_policy.retry_backoff_function";
}

void PolicyJsonTest::policyFieldPath_eachForm_isFullPath()
{
    QFETCH(PolicyForm, form);
    QFETCH(QString, field);
    QFETCH(QString, path);
    QCOMPARE(qs(policyFieldPath(form, field.toStdString())), path);
}

} // namespace relaydesk

RELAYDESK_TEST_MAIN(relaydesk::PolicyJsonTest)
#include "policy_json_test.moc"
