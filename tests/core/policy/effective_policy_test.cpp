// SPDX-License-Identifier: MIT
// Unit tests of the effective policy (docs/behaviour.md §2.3): which level's section
// governs deliveries to a subscription, and where each value came from.

#include "policy/effective_policy.h"

#include "retry_policy_support.h"
#include "support/test_main.h"

#include <QString>
#include <QtTest>

#include <optional>

using namespace relaydesk;

using OptionalPolicy = std::optional<relaydesk::DeliveryPolicy>;
Q_DECLARE_METATYPE(OptionalPolicy)
Q_DECLARE_METATYPE(relaydesk::RetryPolicy)
Q_DECLARE_METATYPE(relaydesk::PolicySource)
Q_DECLARE_METATYPE(relaydesk::EndpointProtocol)
Q_DECLARE_METATYPE(relaydesk::Dialect)

namespace relaydesk {
namespace {
using namespace testing;

// Distinct, recognisable values per level.
const RetryPolicy kSubscriptionRetry = retryOf(4, 1, 0, 0, 2, 10, BackoffFunction::Arithmetic);
const RetryPolicy kTopicRetry = retryOf(6, 0, 1, 1, 3, 30, BackoffFunction::Geometric);
const RetryPolicy kZaqarSubscriptionRetry = retryOf(21, 3, 3, 3, 5, 60, BackoffFunction::Linear);
const RetryPolicy kZaqarQueueRetry = retryOf(15, 3, 3, 3, 5, 30, BackoffFunction::Linear); // docs/behaviour.md §2.2 defaults
const RetryPolicy kAwsManagedRetry = retryOf(100015, 3, 2, 100000, 1, 20, BackoffFunction::Exponential); // docs/behaviour.md §3.4

constexpr int kNoLimit = -1;

// rate kNoLimit: no throttle section; contentType nullptr: no request section.
DeliveryPolicy policy(PolicyForm form, const RetryPolicy *retry, int rate, const char *contentType,
                      bool disableOverrides = false)
{
    DeliveryPolicy p;
    p.form = form;
    p.dialect = form == PolicyForm::Zaqar ? Dialect::Zaqar : Dialect::Sns;
    if (retry)
        p.retry = *retry;
    if (rate != kNoLimit) {
        p.hasThrottleSection = true;
        p.maxReceivesPerSecond = rate;
    }
    if (contentType) {
        p.hasRequestSection = true;
        p.headerContentType = std::string(contentType);
    }
    p.disableSubscriptionOverrides = disableOverrides;
    return p;
}

QString qs(std::string_view v) { return QString::fromUtf8(v.data(), qsizetype(v.size())); }

} // namespace

class EffectivePolicyTest final : public QObject {
    Q_OBJECT

private slots:
    void resolveEffectivePolicy_levels_choosePerSection_data();
    void resolveEffectivePolicy_levels_choosePerSection();
    void resolveEffectivePolicy_sqs_isFixedAwsManaged_data();
    void resolveEffectivePolicy_sqs_isFixedAwsManaged();
    void policySourceName_eachSource_isLowercaseName();
};

void EffectivePolicyTest::resolveEffectivePolicy_levels_choosePerSection_data()
{
    QTest::addColumn<EndpointProtocol>("protocol");
    QTest::addColumn<OptionalPolicy>("subscription");
    QTest::addColumn<OptionalPolicy>("topic");
    QTest::addColumn<RetryPolicy>("retry");
    QTest::addColumn<PolicySource>("retrySource");
    QTest::addColumn<int>("rate"); // -1: no limit
    QTest::addColumn<PolicySource>("throttleSource");
    QTest::addColumn<QString>("contentType");
    QTest::addColumn<PolicySource>("requestSource");
    QTest::addColumn<bool>("overridesDisabled");
    QTest::addColumn<Dialect>("dialect");

    const auto S = PolicyForm::SnsSubscription;
    const auto T = PolicyForm::SnsTopic;
    const auto Z = PolicyForm::Zaqar;
    const auto Sub = PolicySource::Subscription;
    const auto Top = PolicySource::Topic;
    const auto Def = PolicySource::Default;
    const auto http = EndpointProtocol::Http;
    const QString plain = QStringLiteral("text/plain");
    const QString json = QStringLiteral("application/json");
    const QString defaultType = QStringLiteral("text/plain; charset=UTF-8");

    const OptionalPolicy none;
    const OptionalPolicy subFull = policy(S, &kSubscriptionRetry, 5, "application/json");
    const OptionalPolicy subThrottleOnly = policy(S, nullptr, 5, nullptr);
    const OptionalPolicy topicFull = policy(T, &kTopicRetry, 10, "text/plain");
    const OptionalPolicy topicRetryOnly = policy(T, &kTopicRetry, kNoLimit, nullptr);
    const OptionalPolicy topicDisabled = policy(T, &kTopicRetry, 10, "text/plain", true);
    const OptionalPolicy topicDisabledRetryOnly = policy(T, &kTopicRetry, kNoLimit, nullptr, true);
    OptionalPolicy subEmptyThrottle = policy(S, nullptr, kNoLimit, nullptr);
    subEmptyThrottle->hasThrottleSection = true; // "throttlePolicy": {} — present, no limit
    const OptionalPolicy zaqarSub = policy(Z, &kZaqarSubscriptionRetry, kNoLimit, nullptr);
    const OptionalPolicy zaqarQueue = policy(Z, &kZaqarQueueRetry, kNoLimit, nullptr);
    const OptionalPolicy zaqarQueueIgnore = policy(Z, &kZaqarQueueRetry, kNoLimit, nullptr, true);

    QTest::newRow("subscription only") << http << subFull << none << kSubscriptionRetry << Sub << 5 << Sub << json
                                       << Sub << false << Dialect::Sns;
    QTest::newRow("topic only") << http << none << topicFull << kTopicRetry << Top << 10 << Top << plain << Top
                                << false << Dialect::Sns;
    QTest::newRow("both: subscription wins") << http << subFull << topicFull << kSubscriptionRetry << Sub << 5 << Sub
                                             << json << Sub << false << Dialect::Sns;
    QTest::newRow("both, https: subscription wins") << EndpointProtocol::Https << subFull << topicFull
                                                    << kSubscriptionRetry << Sub << 5 << Sub << json << Sub << false
                                                    << Dialect::Sns;
    QTest::newRow("both, overrides disabled: topic wins") << http << subFull << topicDisabled << kTopicRetry << Top
                                                          << 10 << Top << plain << Top << true << Dialect::Sns;
    QTest::newRow("neither: defaults") << http << none << none << RetryPolicy{} << Def << -1 << Def << defaultType
                                       << Def << false << Dialect::Sns;
    QTest::newRow("overrides disabled, topic lacks sections: defaults, not subscription")
        << http << subFull << topicDisabledRetryOnly << kTopicRetry << Top << -1 << Def << defaultType << Def << true
        << Dialect::Sns;
    QTest::newRow("subscription throttle only: retry from topic")
        << http << subThrottleOnly << topicFull << kTopicRetry << Top << 5 << Sub << plain << Top << false
        << Dialect::Sns;
    QTest::newRow("subscription throttle only, topic retry only")
        << http << subThrottleOnly << topicRetryOnly << kTopicRetry << Top << 5 << Sub << defaultType << Def << false
        << Dialect::Sns;
    QTest::newRow("subscription throttle only, no topic")
        << http << subThrottleOnly << none << RetryPolicy{} << Def << 5 << Sub << defaultType << Def << false
        << Dialect::Sns;
    QTest::newRow("topic retry only, no subscription") << http << none << topicRetryOnly << kTopicRetry << Top << -1
                                                       << Def << defaultType << Def << false << Dialect::Sns;
    QTest::newRow("subscription empty throttle section: present, no limit")
        << http << subEmptyThrottle << topicFull << kTopicRetry << Top << -1 << Sub << plain << Top << false
        << Dialect::Sns;
    QTest::newRow("zaqar queue only") << http << none << zaqarQueue << kZaqarQueueRetry << Top << -1 << Def
                                      << defaultType << Def << false << Dialect::Zaqar;
    QTest::newRow("zaqar subscription wins") << http << zaqarSub << zaqarQueue << kZaqarSubscriptionRetry << Sub << -1
                                             << Def << defaultType << Def << false << Dialect::Zaqar;
    QTest::newRow("zaqar ignore_subscription_override: queue wins")
        << http << zaqarSub << zaqarQueueIgnore << kZaqarQueueRetry << Top << -1 << Def << defaultType << Def << true
        << Dialect::Zaqar;
}

void EffectivePolicyTest::resolveEffectivePolicy_levels_choosePerSection()
{
    QFETCH(EndpointProtocol, protocol);
    QFETCH(OptionalPolicy, subscription);
    QFETCH(OptionalPolicy, topic);
    QFETCH(RetryPolicy, retry);
    QFETCH(PolicySource, retrySource);
    QFETCH(int, rate);
    QFETCH(PolicySource, throttleSource);
    QFETCH(QString, contentType);
    QFETCH(PolicySource, requestSource);
    QFETCH(bool, overridesDisabled);
    QFETCH(Dialect, dialect);

    const EffectivePolicy effective = resolveEffectivePolicy(protocol, subscription, topic);

    QCOMPARE(effective.policy.form, PolicyForm::SnsSubscription);
    QCOMPARE(effective.policy.dialect, dialect);
    QVERIFY(effective.policy.retry.has_value()); // complete: every section present
    QCOMPARE(effective.policy.retry->numRetries, retry.numRetries);
    QVERIFY(*effective.policy.retry == retry);
    QCOMPARE(effective.retrySource, retrySource);

    QCOMPARE(effective.policy.maxReceivesPerSecond.value_or(-1), rate);
    QCOMPARE(effective.throttleSource, throttleSource);

    QCOMPARE(QString::fromStdString(effective.policy.headerContentTypeOrDefault()), contentType);
    QCOMPARE(effective.requestSource, requestSource);

    QCOMPARE(effective.overridesDisabled, overridesDisabled);
    QVERIFY(!effective.policy.managed);
}

void EffectivePolicyTest::resolveEffectivePolicy_sqs_isFixedAwsManaged_data()
{
    QTest::addColumn<OptionalPolicy>("subscription");
    QTest::addColumn<OptionalPolicy>("topic");

    const OptionalPolicy none;
    QTest::newRow("neither") << none << none;
    QTest::newRow("subscription policy ignored")
        << OptionalPolicy(policy(PolicyForm::SnsSubscription, &kSubscriptionRetry, 5, "application/json")) << none;
    QTest::newRow("topic policy ignored") << none
                                          << OptionalPolicy(policy(PolicyForm::SnsTopic, &kTopicRetry, 10, "text/plain"));
    QTest::newRow("topic with overrides disabled ignored")
        << OptionalPolicy(policy(PolicyForm::SnsSubscription, &kSubscriptionRetry, 5, nullptr))
        << OptionalPolicy(policy(PolicyForm::SnsTopic, &kTopicRetry, 10, nullptr, true));
}

void EffectivePolicyTest::resolveEffectivePolicy_sqs_isFixedAwsManaged()
{
    QFETCH(OptionalPolicy, subscription);
    QFETCH(OptionalPolicy, topic);

    const EffectivePolicy effective = resolveEffectivePolicy(EndpointProtocol::Sqs, subscription, topic);
    QCOMPARE(effective.retrySource, PolicySource::Fixed);
    QVERIFY(effective.policy.retry.has_value());
    QCOMPARE(effective.policy.retry->numRetries, kAwsManagedRetry.numRetries);
    QVERIFY(*effective.policy.retry == kAwsManagedRetry);
    QVERIFY(effective.policy.managed);
    QCOMPARE(effective.policy.dialect, Dialect::Sns);
}

void EffectivePolicyTest::policySourceName_eachSource_isLowercaseName()
{
    QCOMPARE(qs(policySourceName(PolicySource::Subscription)), QStringLiteral("subscription"));
    QCOMPARE(qs(policySourceName(PolicySource::Topic)), QStringLiteral("topic"));
    QCOMPARE(qs(policySourceName(PolicySource::Default)), QStringLiteral("default"));
    QCOMPARE(qs(policySourceName(PolicySource::Fixed)), QStringLiteral("fixed"));
}

} // namespace relaydesk

RELAYDESK_TEST_MAIN(relaydesk::EffectivePolicyTest)
#include "effective_policy_test.moc"
