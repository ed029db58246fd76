// SPDX-License-Identifier: MIT
// Unit tests of the five named policies (docs/behaviour.md §3.4). Expected phases, delays
// and spans are computed by hand from the docs/behaviour.md §3.2 formulas and checked
// against the table of docs/behaviour.md's approximations.

#include "policy/policy_presets.h"
#include "policy/policy_validation.h"
#include "policy/retry_schedule.h"
#include "support/test_main.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <QtTest>

#include <cmath>
#include <numeric>

using namespace relaydesk;

Q_DECLARE_METATYPE(relaydesk::BackoffFunction)
Q_DECLARE_METATYPE(relaydesk::Dialect)

namespace relaydesk {
namespace {

QList<int> toList(const std::vector<int> &values) { return QList<int>(values.begin(), values.end()); }
QString qs(const std::string &text) { return QString::fromStdString(text); }

PolicyPreset presetOrFail(const QString &name, bool &ok)
{
    const std::optional<PolicyPreset> preset = findPolicyPreset(name.toStdString());
    ok = preset.has_value();
    return preset.value_or(PolicyPreset{});
}

} // namespace

class PolicyPresetsTest final : public QObject {
    Q_OBJECT

private slots:
    void presets_specTable_matchesEveryPhase_data();
    void presets_specTable_matchesEveryPhase();
    void presets_specTable_spanMatchesApproximation_data();
    void presets_specTable_spanMatchesApproximation();
    void presets_order_isSpecOrder();
    void findPolicyPreset_unknownName_isEmpty();
    void policyPresetNameList_listsEveryPreset();
    void snsExample_backoffDelays_areDocumented();
    void presets_forHttp_validate_data();
    void presets_forHttp_validate();
    void managedPresets_withoutExemption_wouldBeInvalid_data();
    void managedPresets_withoutExemption_wouldBeInvalid();
    void awsManaged_planning_doesNotMaterialiseConstantPhases();
};

void PolicyPresetsTest::presets_specTable_matchesEveryPhase_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<Dialect>("dialect");
    QTest::addColumn<bool>("managed");
    QTest::addColumn<int>("immediate");
    QTest::addColumn<int>("preRetries");
    QTest::addColumn<int>("minDelay");
    QTest::addColumn<int>("backoffRetries");
    QTest::addColumn<BackoffFunction>("function");
    QTest::addColumn<int>("maxDelay");
    QTest::addColumn<int>("postRetries");
    QTest::addColumn<QList<int>>("backoffDelays");
    QTest::addColumn<qint64>("retries");
    QTest::addColumn<qint64>("span");

    // Backoff delays from the docs/behaviour.md §3.2 formulas, rounded half away from zero:
    //  exponential 1..60 n=10: a = 59/(e^9-1); exponential 1..20: a = 19/(e^9-1);
    //  exponential 10..600: a = 590/(e^9-1); Zaqar linear 5..30 step 5.
    // Spans: 0 + 0 + 60 + 0 = 60; 0 + 2 + 103 + 2100 = 2205;
    //  0 + 2 + 40 + 2 000 000 = 2 000 042; 0 + 20 + 1032 + 22 800 = 23 852;
    //  0 + 15 + 105 + 90 = 210.
    QTest::newRow("sns-default") << "sns-default" << Dialect::Sns << false << 0 << 0 << 20 << 3
                                 << BackoffFunction::Linear << 20 << 0 << QList<int>{20, 20, 20} << qint64(3)
                                 << qint64(60);
    QTest::newRow("sns-example") << "sns-example" << Dialect::Sns << false << 3 << 2 << 1 << 10
                                 << BackoffFunction::Exponential << 60 << 35
                                 << QList<int>{1, 1, 1, 1, 1, 2, 4, 9, 23, 60} << qint64(50) << qint64(2205);
    QTest::newRow("sns-aws-managed") << "sns-aws-managed" << Dialect::Sns << true << 3 << 2 << 1 << 10
                                     << BackoffFunction::Exponential << 20 << 100000
                                     << QList<int>{1, 1, 1, 1, 1, 1, 2, 4, 8, 20} << qint64(100015)
                                     << qint64(2000042);
    QTest::newRow("sns-customer-managed") << "sns-customer-managed" << Dialect::Sns << true << 0 << 2 << 10 << 10
                                          << BackoffFunction::Exponential << 600 << 38
                                          << QList<int>{10, 10, 10, 11, 14, 21, 39, 90, 227, 600} << qint64(50)
                                          << qint64(23852);
    QTest::newRow("zaqar-default") << "zaqar-default" << Dialect::Zaqar << false << 3 << 3 << 5 << 6
                                   << BackoffFunction::Linear << 30 << 3 << QList<int>{5, 10, 15, 20, 25, 30}
                                   << qint64(15) << qint64(210);
}

void PolicyPresetsTest::presets_specTable_matchesEveryPhase()
{
    QFETCH(QString, name);
    QFETCH(Dialect, dialect);
    QFETCH(bool, managed);
    QFETCH(int, immediate);
    QFETCH(int, preRetries);
    QFETCH(int, minDelay);
    QFETCH(int, backoffRetries);
    QFETCH(BackoffFunction, function);
    QFETCH(int, maxDelay);
    QFETCH(int, postRetries);
    QFETCH(QList<int>, backoffDelays);
    QFETCH(qint64, retries);
    QFETCH(qint64, span);

    bool found = false;
    const PolicyPreset preset = presetOrFail(name, found);
    QVERIFY2(found, qPrintable(name));
    QCOMPARE(qs(preset.name), name);
    QVERIFY(!preset.description.empty());
    QCOMPARE(preset.policy.dialect, dialect);
    QCOMPARE(preset.policy.managed, managed);

    // The model.
    const RetryPolicy retry = preset.policy.retryOrDefault();
    QCOMPARE(retry.numNoDelayRetries, immediate);
    QCOMPARE(retry.numMinDelayRetries, preRetries);
    QCOMPARE(retry.numMaxDelayRetries, postRetries);
    QCOMPARE(retry.minDelayTarget, minDelay);
    QCOMPARE(retry.maxDelayTarget, maxDelay);
    QCOMPARE(retry.backoffFunction, function);
    QCOMPARE(qint64(retry.numRetries), retries);
    QCOMPARE(retry.backoffRetries(), backoffRetries);

    // The schedule.
    const RetrySchedule schedule = planSchedule(retry, preset.policy.dialect);
    QCOMPARE(schedule.dialect(), dialect);
    QCOMPARE(schedule.backoffFunction(), function);
    QCOMPARE(schedule.phase(RetryPhase::Immediate).retries, int64_t(immediate));
    QCOMPARE(schedule.phase(RetryPhase::Immediate).delaySeconds, 0);
    QCOMPARE(schedule.phase(RetryPhase::PreBackoff).retries, int64_t(preRetries));
    if (preRetries > 0)
        QCOMPARE(schedule.phase(RetryPhase::PreBackoff).delaySeconds, minDelay);
    QCOMPARE(schedule.phase(RetryPhase::Backoff).retries, int64_t(backoffRetries));
    QCOMPARE(toList(schedule.phase(RetryPhase::Backoff).delays), backoffDelays);
    QCOMPARE(schedule.phase(RetryPhase::PostBackoff).retries, int64_t(postRetries));
    if (postRetries > 0)
        QCOMPARE(schedule.phase(RetryPhase::PostBackoff).delaySeconds, maxDelay);
    QCOMPARE(qint64(schedule.retries()), retries);
    QCOMPARE(qint64(schedule.attempts()), retries + 1);
    QCOMPARE(qint64(schedule.totalDelaySeconds()), span);

    // The expected span itself adds up from the phases.
    const qint64 backoffSum = std::accumulate(backoffDelays.begin(), backoffDelays.end(), qint64(0));
    QCOMPARE(qint64(preRetries) * minDelay + backoffSum + qint64(postRetries) * maxDelay, span);
}

void PolicyPresetsTest::presets_specTable_spanMatchesApproximation_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<double>("unitSeconds");
    QTest::addColumn<double>("approx");     // the docs/behaviour.md §3.4 "span" column
    QTest::addColumn<double>("precision");  // the last digit docs/behaviour.md gives

    QTest::newRow("sns-default 60 s") << "sns-default" << 1.0 << 60.0 << 1.0;
    QTest::newRow("sns-example ~37 min") << "sns-example" << 60.0 << 37.0 << 1.0;
    QTest::newRow("sns-aws-managed ~23 days") << "sns-aws-managed" << 86400.0 << 23.0 << 1.0;
    QTest::newRow("sns-customer-managed ~6.6 h") << "sns-customer-managed" << 3600.0 << 6.6 << 0.1;
    QTest::newRow("zaqar-default 210 s") << "zaqar-default" << 1.0 << 210.0 << 1.0;
}

void PolicyPresetsTest::presets_specTable_spanMatchesApproximation()
{
    QFETCH(QString, name);
    QFETCH(double, unitSeconds);
    QFETCH(double, approx);
    QFETCH(double, precision);

    bool found = false;
    const PolicyPreset preset = presetOrFail(name, found);
    QVERIFY(found);
    const RetrySchedule schedule = planSchedule(preset.policy.retryOrDefault(), preset.policy.dialect);
    const double span = double(schedule.totalDelaySeconds()) / unitSeconds;
    QVERIFY2(std::abs(span - approx) <= precision / 2,
             qPrintable(QStringLiteral("%1: %2 units vs behaviour.md %3").arg(name).arg(span).arg(approx)));
}

void PolicyPresetsTest::presets_order_isSpecOrder()
{
    QStringList names;
    for (const PolicyPreset &preset : policyPresets())
        names << qs(preset.name);
    QCOMPARE(names, (QStringList{"sns-default", "sns-example", "sns-aws-managed", "sns-customer-managed",
                                 "zaqar-default"}));
}

void PolicyPresetsTest::findPolicyPreset_unknownName_isEmpty()
{
    QVERIFY(!findPolicyPreset("sns-exampel").has_value());
    QVERIFY(!findPolicyPreset("").has_value());
}

void PolicyPresetsTest::policyPresetNameList_listsEveryPreset()
{
    const QString list = qs(policyPresetNameList());
    for (const char *name : {"sns-default", "sns-example", "sns-aws-managed", "sns-customer-managed", "zaqar-default"})
        QVERIFY2(list.contains(QLatin1String(name)), qPrintable(list));
}

void PolicyPresetsTest::snsExample_backoffDelays_areDocumented()
{
    // docs/behaviour.md §3.6 lists them literally.
    QCOMPARE(toList(backoffDelays(BackoffFunction::Exponential, 10, 1, 60)), (QList<int>{1, 1, 1, 1, 1, 2, 4, 9, 23, 60}));
    bool found = false;
    const PolicyPreset preset = presetOrFail("sns-example", found);
    QVERIFY(found);
    const RetrySchedule schedule = planSchedule(preset.policy.retryOrDefault(), Dialect::Sns);
    QCOMPARE(toList(schedule.phase(RetryPhase::Backoff).delays), (QList<int>{1, 1, 1, 1, 1, 2, 4, 9, 23, 60}));
}

void PolicyPresetsTest::presets_forHttp_validate_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("protocol");
    for (const char *name : {"sns-default", "sns-example", "sns-aws-managed", "sns-customer-managed", "zaqar-default"}) {
        QTest::addRow("%s http", name) << QString::fromLatin1(name) << int(EndpointProtocol::Http);
        QTest::addRow("%s https", name) << QString::fromLatin1(name) << int(EndpointProtocol::Https);
        QTest::addRow("%s sqs", name) << QString::fromLatin1(name) << int(EndpointProtocol::Sqs);
    }
}

void PolicyPresetsTest::presets_forHttp_validate()
{
    QFETCH(QString, name);
    QFETCH(int, protocol);
    bool found = false;
    const PolicyPreset preset = presetOrFail(name, found);
    QVERIFY(found);
    PolicyCheckContext context;
    context.protocol = EndpointProtocol(protocol);
    const PolicyIssues errors = validatePolicy(preset.policy, context);
    QString all;
    for (const PolicyIssue &e : errors)
        all += qs(e.field) + ": " + qs(e.message) + "\n";
    QVERIFY2(errors.empty(), qPrintable(all));
}

void PolicyPresetsTest::managedPresets_withoutExemption_wouldBeInvalid_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("field"); // the path of the error the exemption avoids
    // 100 015 retries > 100, and 2 000 042 s > 3600 s.
    QTest::newRow("sns-aws-managed") << "sns-aws-managed" << "healthyRetryPolicy.numRetries";
    // 23 852 s > 3600 s (50 retries is within 0–100).
    QTest::newRow("sns-customer-managed") << "sns-customer-managed" << "healthyRetryPolicy";
}

void PolicyPresetsTest::managedPresets_withoutExemption_wouldBeInvalid()
{
    QFETCH(QString, name);
    QFETCH(QString, field);
    bool found = false;
    PolicyPreset preset = presetOrFail(name, found);
    QVERIFY(found);
    QVERIFY(preset.policy.managed);
    DeliveryPolicy unmanaged = preset.policy;
    unmanaged.managed = false;
    unmanaged.form = PolicyForm::SnsSubscription;
    const PolicyIssues errors = validatePolicy(unmanaged, PolicyCheckContext{EndpointProtocol::Http, false});
    QVERIFY(!errors.empty());
    bool fieldSeen = false;
    bool capSeen = false;
    for (const PolicyIssue &e : errors) {
        fieldSeen = fieldSeen || qs(e.field).startsWith(field);
        capSeen = capSeen || qs(e.message).contains(QLatin1String("3600"));
    }
    QVERIFY(fieldSeen);
    QVERIFY(capSeen);
}

void PolicyPresetsTest::awsManaged_planning_doesNotMaterialiseConstantPhases()
{
    bool found = false;
    const PolicyPreset preset = presetOrFail("sns-aws-managed", found);
    QVERIFY(found);
    const RetrySchedule schedule = planSchedule(preset.policy.retryOrDefault(), preset.policy.dialect);

    for (RetryPhase phase : {RetryPhase::Immediate, RetryPhase::PreBackoff, RetryPhase::PostBackoff})
        QVERIFY2(schedule.phase(phase).delays.empty(), qPrintable(QString::number(int(phase))));
    QCOMPARE(schedule.phase(RetryPhase::PostBackoff).retries, int64_t(100000));
    QCOMPARE(schedule.phase(RetryPhase::PostBackoff).delaySeconds, 20);
    QCOMPARE(schedule.phase(RetryPhase::PostBackoff).totalSeconds(), int64_t(2000000));
    QCOMPARE(schedule.phase(RetryPhase::Backoff).delays.size(), size_t(10));
    QCOMPARE(schedule.maxDelaySeconds(), 20);

    // Queries deep into the constant phase answer without a list.
    QCOMPARE(schedule.phaseOfRetry(100015), RetryPhase::PostBackoff);
    QCOMPARE(schedule.delayBeforeRetry(100015), 20);
    QCOMPARE(schedule.phaseOfRetry(15), RetryPhase::Backoff);
    QCOMPARE(schedule.phaseOfRetry(16), RetryPhase::PostBackoff);
    QCOMPARE(schedule.secondsUntilAttempt(15), int64_t(42));
    QCOMPARE(schedule.secondsUntilAttempt(16), int64_t(62));
    QCOMPARE(schedule.secondsUntilAttempt(50015), int64_t(42 + 50000LL * 20));
    QCOMPARE(schedule.secondsUntilAttempt(100015), int64_t(2000042));
}

} // namespace relaydesk

RELAYDESK_TEST_MAIN(relaydesk::PolicyPresetsTest)
#include "policy_presets_test.moc"
