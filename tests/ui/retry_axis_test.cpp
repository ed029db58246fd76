// SPDX-License-Identifier: MIT
// RetryAxis: retry numbers to x positions of the policy chart. A short
// schedule keeps every retry at its own number; a long constant phase (the
// 100 000 post-backoff retries of sns-aws-managed) shrinks to a few shown
// retries around one break that reports how many it hides; positions never
// go backwards.
#include "charts/retry_axis.h"

#include "policy/policy_presets.h"
#include "policy/retry_schedule.h"
#include "support/test_main.h"

#include <QTest>

#include <utility>
#include <vector>

using namespace relaydesk;

namespace {

RetrySchedule presetSchedule(const char *name)
{
    const std::optional<PolicyPreset> preset = findPolicyPreset(name);
    if (!preset)
        qFatal("no preset %s", name);
    return planSchedule(preset->policy.retryOrDefault(), preset->policy.dialect);
}

// Every shown retry, in order.
std::vector<int64_t> shownRetries(const RetryAxis &axis)
{
    std::vector<int64_t> retries;
    for (const auto &[from, to] : axis.shownRuns(0, axis.lastRetry())) {
        for (int64_t r = from; r <= to; ++r)
            retries.push_back(r);
    }
    return retries;
}

} // namespace

class RetryAxisTest : public QObject {
    Q_OBJECT
private slots:
    void tenRetries_areNotCompressed()
    {
        RetryPolicy policy;
        policy.numRetries = 10;
        policy.numNoDelayRetries = 3;
        policy.numMinDelayRetries = 2;
        policy.minDelayTarget = 1;
        policy.maxDelayTarget = 20;
        policy.backoffFunction = BackoffFunction::Exponential;
        const RetrySchedule schedule = planSchedule(policy, Dialect::Sns);
        QCOMPARE(schedule.retries(), int64_t(10));

        const RetryAxis axis({&schedule});
        QCOMPARE(axis.lastRetry(), int64_t(10));
        QVERIFY(axis.breaks().empty());
        const std::vector<std::pair<int64_t, int64_t>> all{{0, 10}};
        QCOMPARE(axis.shownRuns(0, 10), all);
        for (int64_t r = 0; r <= 10; ++r)
            QCOMPARE(axis.x(r), double(r));
        QVERIFY(axis.low() < 0);
        QVERIFY(axis.high() > 10 && axis.high() < 11);
    }

    void awsManagedPostBackoff_isCompressedWithHiddenCount()
    {
        // 3 immediate, 2 pre-backoff, 10 backoff, 100 000 post-backoff retries.
        const RetrySchedule schedule = presetSchedule("sns-aws-managed");
        QCOMPARE(schedule.retries(), int64_t(100015));

        const RetryAxis axis({&schedule});
        QCOMPARE(axis.lastRetry(), int64_t(100015));
        QCOMPARE(axis.breaks().size(), size_t(1));
        const RetryAxis::Break &gap = axis.breaks().front();
        QCOMPARE(gap.count(), int64_t(99990)); // "… 99 990 more retries × 20 s …"
        QVERIFY(gap.first > 16 && gap.last < 100015); // inside the post-backoff phase

        // The post-backoff phase is drawn as a few retries: its head and its tail.
        int64_t shownPostBackoff = 0;
        for (const auto &[from, to] : axis.shownRuns(16, 100015))
            shownPostBackoff += to - from + 1;
        QCOMPARE(shownPostBackoff + gap.count(), int64_t(100000));
        QVERIFY(shownPostBackoff >= 3 && shownPostBackoff <= 20);
        // The phases before it are all shown, and the last retry too.
        const std::vector<std::pair<int64_t, int64_t>> head{{0, 15}};
        QCOMPARE(axis.shownRuns(0, 15), head);
        QCOMPARE(axis.shownRuns(100015, 100015).size(), size_t(1));
        // The whole axis spans tens of positions, not 100 000.
        QVERIFY(axis.high() - axis.low() < 100);
        QCOMPARE(gap.x0, axis.x(gap.first - 1));
        QCOMPARE(gap.x1, axis.x(gap.last + 1));
    }

    void positions_areMonotonic_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<QString>("comparison");
        QTest::newRow("sns-default") << "sns-default" << "";
        QTest::newRow("sns-example") << "sns-example" << "";
        QTest::newRow("sns-aws-managed") << "sns-aws-managed" << "";
        QTest::newRow("sns-customer-managed") << "sns-customer-managed" << "";
        QTest::newRow("zaqar-default") << "zaqar-default" << "";
        QTest::newRow("aws-managed vs example") << "sns-aws-managed" << "sns-example";
    }

    void positions_areMonotonic()
    {
        QFETCH(QString, preset);
        QFETCH(QString, comparison);
        const RetrySchedule schedule = presetSchedule(qPrintable(preset));
        std::vector<const RetrySchedule *> schedules{&schedule};
        std::optional<RetrySchedule> other;
        if (!comparison.isEmpty()) {
            other = presetSchedule(qPrintable(comparison));
            schedules.push_back(&*other);
        }
        const RetryAxis axis(schedules);

        const std::vector<int64_t> shown = shownRetries(axis);
        QCOMPARE(shown.front(), int64_t(0));
        QCOMPARE(shown.back(), axis.lastRetry());
        QVERIFY(axis.low() < axis.x(0));
        QVERIFY(axis.high() > axis.x(axis.lastRetry()));
        for (size_t i = 1; i < shown.size(); ++i) {
            QVERIFY(shown[i] > shown[i - 1]);
            QVERIFY2(axis.x(shown[i]) > axis.x(shown[i - 1]),
                     qPrintable(QStringLiteral("retry %1 is not right of retry %2").arg(shown[i]).arg(shown[i - 1])));
        }
        for (const RetryAxis::Break &gap : axis.breaks())
            QVERIFY(gap.x1 > gap.x0 + 1); // a break is wider than one retry
    }
};

RELAYDESK_TEST_MAIN(RetryAxisTest)
#include "retry_axis_test.moc"
