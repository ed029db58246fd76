// SPDX-License-Identifier: MIT
// Unit tests of the schedule (docs/behaviour.md §3.1–3.3): backoff curves, the Zaqar step
// rule, planSchedule() and the RetrySchedule queries. Every expectation comes
// from the tables of docs/behaviour.md and worked examples, never from the implementation.

#include "policy/retry_schedule.h"

#include "retry_policy_support.h"
#include "support/test_main.h"

#include <QList>
#include <QString>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

using namespace relaydesk;

Q_DECLARE_METATYPE(relaydesk::BackoffFunction)
Q_DECLARE_METATYPE(relaydesk::RetryPhase)

namespace relaydesk {
namespace {
using namespace testing;

constexpr std::array<BackoffFunction, 4> kFunctions = {BackoffFunction::Linear, BackoffFunction::Arithmetic,
                                                       BackoffFunction::Geometric, BackoffFunction::Exponential};

QList<int> toList(const std::vector<int> &values) { return QList<int>(values.begin(), values.end()); }

QString qs(std::string_view text) { return QString::fromUtf8(text.data(), qsizetype(text.size())); }

QString describe(BackoffFunction f, int n, int min, int max)
{
    return QStringLiteral("%1 n=%2 min=%3 max=%4").arg(int(f)).arg(n).arg(min).arg(max);
}

} // namespace

class RetryScheduleTest final : public QObject {
    Q_OBJECT

private slots:
    void backoffDelays_specWorkedExample_matchesTable_data();
    void backoffDelays_specWorkedExample_matchesTable();
    void backoffFormula_specWorkedExample_roundsToTable_data();
    void backoffFormula_specWorkedExample_roundsToTable();

    void backoffDelays_everyValidSpan_holdsInvariants_data();
    void backoffDelays_everyValidSpan_holdsInvariants();
    void backoffDelays_zeroRetries_isEmpty();
    void backoffDelays_singleRetry_isMin_data();
    void backoffDelays_singleRetry_isMin();
    void backoffDelays_minEqualsMax_isFlat();
    void backoffDelays_halves_roundAwayFromZero_data();
    void backoffDelays_halves_roundAwayFromZero();

    void backoffFormula_exponentialAboveGeometric_capNeeded();
    void backoffFormula_geometricAboveArithmetic_capNeeded_data();
    void backoffFormula_geometricAboveArithmetic_capNeeded();

    void zaqarBackoffRetries_stepRule_data();
    void zaqarBackoffRetries_stepRule();
    void planSchedule_zaqarBlueprintExample_matchesEveryPhase();
    void planSchedule_zaqarDefaults_stepsByFive();
    void planSchedule_zaqarOtherFunction_usesSameCount();

    void planSchedule_zaqarSpansOfWholeSteps_holdInvariants();
    void planSchedule_snsExample_hasFourPhases();
    void planSchedule_noBackoffRetries_emptyBackoffPhase();
    void retrySchedule_snsExample_answersQueries_data();
    void retrySchedule_snsExample_answersQueries();
    void retrySchedule_snsExample_queriesAgreeWithEachOther();
    void retryPhaseName_eachPhase_isSpecName();
};

// ---------------------------------------------------------------------------
// docs/behaviour.md §3.2 worked example: n = 10, min = 5, max = 260.

void RetryScheduleTest::backoffDelays_specWorkedExample_matchesTable_data()
{
    QTest::addColumn<BackoffFunction>("function");
    QTest::addColumn<QList<int>>("delays");
    QTest::addColumn<int>("sum");

    QTest::newRow("linear") << BackoffFunction::Linear << QList<int>{5, 33, 62, 90, 118, 147, 175, 203, 232, 260}
                            << 1325;
    QTest::newRow("arithmetic") << BackoffFunction::Arithmetic << QList<int>{5, 8, 18, 33, 55, 84, 118, 159, 206, 260}
                                << 946;
    QTest::newRow("geometric") << BackoffFunction::Geometric << QList<int>{5, 6, 7, 10, 16, 26, 44, 79, 142, 260}
                               << 595;
    QTest::newRow("exponential") << BackoffFunction::Exponential << QList<int>{5, 5, 5, 6, 7, 10, 18, 39, 99, 260}
                                 << 454;
}

void RetryScheduleTest::backoffDelays_specWorkedExample_matchesTable()
{
    QFETCH(BackoffFunction, function);
    QFETCH(QList<int>, delays);
    QFETCH(int, sum);

    QCOMPARE(std::accumulate(delays.begin(), delays.end(), 0), sum); // the table of docs/behaviour.md is self-consistent

    const std::vector<int> actual = backoffDelays(function, 10, 5, 260);
    QCOMPARE(toList(actual), delays);
    QCOMPARE(std::accumulate(actual.begin(), actual.end(), 0), sum);
}

void RetryScheduleTest::backoffFormula_specWorkedExample_roundsToTable_data()
{
    backoffDelays_specWorkedExample_matchesTable_data();
}

void RetryScheduleTest::backoffFormula_specWorkedExample_roundsToTable()
{
    QFETCH(BackoffFunction, function);
    QFETCH(QList<int>, delays);

    // In the worked example the raw formulas already respect the ordering,
    // so rounding the raw value gives the table.
    for (int i = 1; i <= 10; ++i) {
        const double raw = backoffFormula(function, i, 10, 5, 260);
        QVERIFY2(int(std::round(raw)) == delays[i - 1],
                 qPrintable(QStringLiteral("i=%1 raw=%2 expected %3").arg(i).arg(raw).arg(delays[i - 1])));
    }
    QCOMPARE(backoffFormula(function, 1, 10, 5, 260), 5.0);
    QVERIFY(std::abs(backoffFormula(function, 10, 10, 5, 260) - 260.0) < 1e-6);
}

// ---------------------------------------------------------------------------
// docs/behaviour.md §3.2 invariants for every n <= 100 over a grid of valid spans.

void RetryScheduleTest::backoffDelays_everyValidSpan_holdsInvariants_data()
{
    QTest::addColumn<int>("minDelay");
    QTest::addColumn<int>("maxDelay");

    for (int min : {1, 2, 5, 20, 100, 599}) {
        QList<int> maxes;
        for (int max : {min, min + 1, min + 4, 60, 260, 600, 3600}) {
            if (max < min || max > 3600 || maxes.contains(max))
                continue;
            maxes.append(max);
            QTest::addRow("min=%d max=%d", min, max) << min << max;
        }
    }
}

void RetryScheduleTest::backoffDelays_everyValidSpan_holdsInvariants()
{
    QFETCH(int, minDelay);
    QFETCH(int, maxDelay);

    for (int n = 1; n <= 100; ++n) {
        std::array<std::vector<int>, 4> curves;
        for (size_t f = 0; f < kFunctions.size(); ++f) {
            const BackoffFunction function = kFunctions[f];
            const QString what = describe(function, n, minDelay, maxDelay);
            const std::vector<int> delays = backoffDelays(function, n, minDelay, maxDelay);
            QVERIFY2(int(delays.size()) == n, qPrintable(what + " size"));
            QVERIFY2(delays.front() == minDelay, qPrintable(what + " first != min"));
            if (n >= 2)
                QVERIFY2(delays.back() == maxDelay, qPrintable(what + " last != max"));
            for (int i = 1; i < n; ++i)
                QVERIFY2(delays[size_t(i)] >= delays[size_t(i - 1)],
                         qPrintable(what + QStringLiteral(" decreases at index %1").arg(i)));
            for (int d : delays)
                QVERIFY2(d >= minDelay && d <= maxDelay, qPrintable(what + " leaves [min, max]"));
            curves[f] = delays;
        }
        for (size_t f = 1; f < kFunctions.size(); ++f) {
            for (int i = 0; i < n; ++i)
                QVERIFY2(curves[f - 1][size_t(i)] >= curves[f][size_t(i)],
                         qPrintable(QStringLiteral("n=%1 min=%2 max=%3: function %4 below function %5 at index %6")
                                        .arg(n).arg(minDelay).arg(maxDelay).arg(f - 1).arg(f).arg(i)));
        }
    }
}

void RetryScheduleTest::backoffDelays_zeroRetries_isEmpty()
{
    for (BackoffFunction f : kFunctions) {
        QVERIFY(backoffDelays(f, 0, 5, 260).empty());
        QVERIFY(backoffDelays(f, 0, 20, 20).empty());
    }
}

void RetryScheduleTest::backoffDelays_singleRetry_isMin_data()
{
    QTest::addColumn<int>("minDelay");
    QTest::addColumn<int>("maxDelay");
    QTest::newRow("1..60") << 1 << 60;
    QTest::newRow("5..260") << 5 << 260;
    QTest::newRow("20..20") << 20 << 20;
    QTest::newRow("599..3600") << 599 << 3600;
}

void RetryScheduleTest::backoffDelays_singleRetry_isMin()
{
    QFETCH(int, minDelay);
    QFETCH(int, maxDelay);
    for (BackoffFunction f : kFunctions)
        QCOMPARE(toList(backoffDelays(f, 1, minDelay, maxDelay)), QList<int>{minDelay});
}

void RetryScheduleTest::backoffDelays_minEqualsMax_isFlat()
{
    for (int value : {1, 37, 3600}) {
        for (BackoffFunction f : kFunctions) {
            for (int n = 1; n <= 100; ++n) {
                const std::vector<int> delays = backoffDelays(f, n, value, value);
                QVERIFY2(int(delays.size()) == n, qPrintable(describe(f, n, value, value)));
                QVERIFY2(std::all_of(delays.begin(), delays.end(), [value](int d) { return d == value; }),
                         qPrintable(describe(f, n, value, value) + " not flat"));
            }
        }
    }
}

void RetryScheduleTest::backoffDelays_halves_roundAwayFromZero_data()
{
    QTest::addColumn<BackoffFunction>("function");
    QTest::addColumn<int>("n");
    QTest::addColumn<int>("minDelay");
    QTest::addColumn<int>("maxDelay");
    QTest::addColumn<QList<int>>("delays");

    // 1, 1.5, 2
    QTest::newRow("linear 1..2 n=3") << BackoffFunction::Linear << 3 << 1 << 2 << QList<int>{1, 2, 2};
    // 1, 1.5, 2, 2.5, 3
    QTest::newRow("linear 1..3 n=5") << BackoffFunction::Linear << 5 << 1 << 3 << QList<int>{1, 2, 2, 3, 3};
    // 1, 1.5, 2, 2.5, 3, 3.5, 4
    QTest::newRow("linear 1..4 n=7") << BackoffFunction::Linear << 7 << 1 << 4 << QList<int>{1, 2, 2, 3, 3, 4, 4};
    // 1, 1 + 2 * 0.25 = 1.5, 3
    QTest::newRow("arithmetic 1..3 n=3") << BackoffFunction::Arithmetic << 3 << 1 << 3 << QList<int>{1, 2, 3};
    // 1, 1.25, 2: not a half, rounds down
    QTest::newRow("arithmetic 1..2 n=3") << BackoffFunction::Arithmetic << 3 << 1 << 2 << QList<int>{1, 1, 2};
}

void RetryScheduleTest::backoffDelays_halves_roundAwayFromZero()
{
    QFETCH(BackoffFunction, function);
    QFETCH(int, n);
    QFETCH(int, minDelay);
    QFETCH(int, maxDelay);
    QFETCH(QList<int>, delays);
    QCOMPARE(toList(backoffDelays(function, n, minDelay, maxDelay)), delays);
}

// ---------------------------------------------------------------------------
// The raw formulas break the ordering invariant; backoffDelays() caps them.

void RetryScheduleTest::backoffFormula_exponentialAboveGeometric_capNeeded()
{
    // n = 3, min = 1, max = 3600, middle retry: geometric 3600^0.5 = 60,
    // exponential a*e + 1 - a with a = 3599 / (e^2 - 1) = 968.8.
    const double geometric = backoffFormula(BackoffFunction::Geometric, 2, 3, 1, 3600);
    const double exponential = backoffFormula(BackoffFunction::Exponential, 2, 3, 1, 3600);
    QVERIFY(std::abs(geometric - 60.0) < 1e-6);
    QCOMPARE(int(std::round(exponential)), 969);
    QVERIFY(exponential > geometric); // the raw formulas break the invariant

    QCOMPARE(toList(backoffDelays(BackoffFunction::Geometric, 3, 1, 3600)), (QList<int>{1, 60, 3600}));
    QCOMPARE(toList(backoffDelays(BackoffFunction::Exponential, 3, 1, 3600)), (QList<int>{1, 60, 3600}));
    QCOMPARE(toList(backoffDelays(BackoffFunction::Arithmetic, 3, 1, 3600)), (QList<int>{1, 901, 3600}));
    QCOMPARE(toList(backoffDelays(BackoffFunction::Linear, 3, 1, 3600)), (QList<int>{1, 1801, 3600}));
}

void RetryScheduleTest::backoffFormula_geometricAboveArithmetic_capNeeded_data()
{
    QTest::addColumn<int>("n");
    QTest::addColumn<int>("minDelay");
    QTest::addColumn<int>("maxDelay");
    QTest::addColumn<int>("index");              // 1-based retry where raw geometric > raw arithmetic
    QTest::addColumn<int>("roundedArithmetic");  // what the arithmetic curve gives there

    // t = 65/99: 2^t = 1.576 -> 2, 1 + t^2 = 1.431 -> 1
    QTest::newRow("n=100 1..2 i=66") << 100 << 1 << 2 << 66 << 1;
    // t = 49/99: 2^t = 1.409, 1 + t^2 = 1.245 (both round to 1, raw still out of order)
    QTest::newRow("n=100 1..2 i=50") << 100 << 1 << 2 << 50 << 1;
    // t = 1/3: 4^(1/3) = 1.587 -> 2, 1 + 3/9 = 1.333 -> 1
    QTest::newRow("n=7 1..4 i=3") << 7 << 1 << 4 << 3 << 1;
}

void RetryScheduleTest::backoffFormula_geometricAboveArithmetic_capNeeded()
{
    QFETCH(int, n);
    QFETCH(int, minDelay);
    QFETCH(int, maxDelay);
    QFETCH(int, index);
    QFETCH(int, roundedArithmetic);

    const double t = double(index - 1) / double(n - 1);
    const double geometric = backoffFormula(BackoffFunction::Geometric, index, n, minDelay, maxDelay);
    const double arithmetic = backoffFormula(BackoffFunction::Arithmetic, index, n, minDelay, maxDelay);
    QVERIFY(std::abs(geometric - (std::pow(maxDelay - minDelay + 1, t) + minDelay - 1)) < 1e-9);
    QVERIFY(std::abs(arithmetic - (minDelay + (maxDelay - minDelay) * t * t)) < 1e-9);
    QVERIFY(geometric > arithmetic); // the raw formulas break the invariant

    const std::vector<int> arith = backoffDelays(BackoffFunction::Arithmetic, n, minDelay, maxDelay);
    const std::vector<int> geo = backoffDelays(BackoffFunction::Geometric, n, minDelay, maxDelay);
    QCOMPARE(arith[size_t(index - 1)], roundedArithmetic);
    QVERIFY(geo[size_t(index - 1)] <= roundedArithmetic); // capped
    for (int i = 0; i < n; ++i)
        QVERIFY(geo[size_t(i)] <= arith[size_t(i)]);
}

// ---------------------------------------------------------------------------
// docs/behaviour.md §3.3 Zaqar dialect.

void RetryScheduleTest::zaqarBackoffRetries_stepRule_data()
{
    QTest::addColumn<int>("minDelay");
    QTest::addColumn<int>("maxDelay");
    QTest::addColumn<int>("count");
    QTest::newRow("blueprint 5..60") << 5 << 60 << 12;
    QTest::newRow("defaults 5..30") << 5 << 30 << 6;
    QTest::newRow("flat 5..5") << 5 << 5 << 1;
    QTest::newRow("5..9") << 5 << 9 << 1;
    QTest::newRow("5..10") << 5 << 10 << 2;
    QTest::newRow("7..30") << 7 << 30 << 5;
    QTest::newRow("1..3600") << 1 << 3600 << 720;
}

void RetryScheduleTest::zaqarBackoffRetries_stepRule()
{
    QFETCH(int, minDelay);
    QFETCH(int, maxDelay);
    QFETCH(int, count);
    QCOMPARE(zaqarBackoffRetries(minDelay, maxDelay), count);
}

void RetryScheduleTest::planSchedule_zaqarBlueprintExample_matchesEveryPhase()
{
    // 3 immediate, 3 x 5 s, backoff 5, 10, ..., 60 (12 retries), 3 x 60 s.
    RetryPolicy policy;
    policy.numNoDelayRetries = 3;
    policy.numMinDelayRetries = 3;
    policy.numMaxDelayRetries = 3;
    policy.minDelayTarget = 5;
    policy.maxDelayTarget = 60;
    policy.backoffFunction = BackoffFunction::Linear;
    policy.numRetries = 3 + 3 + 12 + 3;

    const RetrySchedule schedule = planSchedule(policy, Dialect::Zaqar);
    QCOMPARE(schedule.dialect(), Dialect::Zaqar);
    QCOMPARE(schedule.backoffFunction(), BackoffFunction::Linear);

    const SchedulePhase &immediate = schedule.phase(RetryPhase::Immediate);
    QCOMPARE(immediate.phase, RetryPhase::Immediate);
    QCOMPARE(immediate.retries, int64_t(3));
    QCOMPARE(immediate.delaySeconds, 0);
    QVERIFY(immediate.delays.empty());
    QCOMPARE(immediate.totalSeconds(), int64_t(0));

    const SchedulePhase &pre = schedule.phase(RetryPhase::PreBackoff);
    QCOMPARE(pre.phase, RetryPhase::PreBackoff);
    QCOMPARE(pre.retries, int64_t(3));
    QCOMPARE(pre.delaySeconds, 5);
    QVERIFY(pre.delays.empty());
    QCOMPARE(pre.totalSeconds(), int64_t(15));

    const SchedulePhase &backoff = schedule.phase(RetryPhase::Backoff);
    QCOMPARE(backoff.phase, RetryPhase::Backoff);
    QCOMPARE(backoff.retries, int64_t(12));
    QCOMPARE(toList(backoff.delays), (QList<int>{5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60}));
    QCOMPARE(backoff.totalSeconds(), int64_t(390));

    const SchedulePhase &post = schedule.phase(RetryPhase::PostBackoff);
    QCOMPARE(post.phase, RetryPhase::PostBackoff);
    QCOMPARE(post.retries, int64_t(3));
    QCOMPARE(post.delaySeconds, 60);
    QVERIFY(post.delays.empty());
    QCOMPARE(post.totalSeconds(), int64_t(180));

    QCOMPARE(schedule.retries(), int64_t(21));
    QCOMPARE(schedule.attempts(), int64_t(22));
    QCOMPARE(schedule.totalDelaySeconds(), int64_t(0 + 15 + 390 + 180));
    QCOMPARE(schedule.maxDelaySeconds(), 60);

    // Retry by retry, as the blueprint lists them.
    const QList<int> expectedDelays{0, 0, 0, 5, 5, 5, 5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60, 60, 60, 60};
    int64_t elapsed = 0;
    for (int r = 1; r <= 21; ++r) {
        const RetryPhase expectedPhase = r <= 3 ? RetryPhase::Immediate
                                       : r <= 6 ? RetryPhase::PreBackoff
                                       : r <= 18 ? RetryPhase::Backoff
                                                 : RetryPhase::PostBackoff;
        QCOMPARE(schedule.phaseOfRetry(r), expectedPhase);
        QCOMPARE(schedule.delayBeforeRetry(r), expectedDelays[r - 1]);
        elapsed += expectedDelays[r - 1];
        QCOMPARE(schedule.secondsUntilAttempt(r), elapsed);
    }
}

void RetryScheduleTest::planSchedule_zaqarDefaults_stepsByFive()
{
    // docs/behaviour.md §2.2 defaults 3/3/5/30/3/linear: backoff 5..30 by 5 = 6 retries.
    const RetrySchedule schedule = planSchedule(zaqarDefaultRetryPolicy(), Dialect::Zaqar);
    QCOMPARE(schedule.phase(RetryPhase::Immediate).retries, int64_t(3));
    QCOMPARE(schedule.phase(RetryPhase::PreBackoff).retries, int64_t(3));
    QCOMPARE(schedule.phase(RetryPhase::PreBackoff).delaySeconds, 5);
    QCOMPARE(toList(schedule.phase(RetryPhase::Backoff).delays), (QList<int>{5, 10, 15, 20, 25, 30}));
    QCOMPARE(schedule.phase(RetryPhase::PostBackoff).retries, int64_t(3));
    QCOMPARE(schedule.phase(RetryPhase::PostBackoff).delaySeconds, 30);
    QCOMPARE(schedule.retries(), int64_t(15));
    QCOMPARE(schedule.totalDelaySeconds(), int64_t(210));
}

void RetryScheduleTest::planSchedule_zaqarOtherFunction_usesSameCount()
{
    // "the other three names apply the 3.2 curves to the same n" (docs/behaviour.md §3.3).
    RetryPolicy policy;
    policy.numNoDelayRetries = 0;
    policy.numMinDelayRetries = 0;
    policy.numMaxDelayRetries = 0;
    policy.minDelayTarget = 5;
    policy.maxDelayTarget = 260;
    policy.backoffFunction = BackoffFunction::Exponential;
    policy.numRetries = 52; // floor(255 / 5) + 1
    const RetrySchedule schedule = planSchedule(policy, Dialect::Zaqar);
    const SchedulePhase &backoff = schedule.phase(RetryPhase::Backoff);
    QCOMPARE(backoff.retries, int64_t(52));
    QCOMPARE(int(backoff.delays.size()), 52);
    QCOMPARE(backoff.delays.front(), 5);
    QCOMPARE(backoff.delays.back(), 260);
    QVERIFY(std::is_sorted(backoff.delays.begin(), backoff.delays.end()));
    // Not the linear 5 s staircase: the exponential curve stays low at first.
    QCOMPARE(backoff.delays[1], 5);
}

void RetryScheduleTest::planSchedule_zaqarSpansOfWholeSteps_holdInvariants()
{
    // When max - min is a multiple of 5 the step rule reaches max exactly, and
    // the 5 s staircase is the docs/behaviour.md §3.2 linear curve, so the docs/behaviour.md §3.2
    // invariants hold in the Zaqar dialect too.
    for (int min : {1, 5, 10, 33}) {
        for (int steps : {0, 1, 2, 5, 11, 19}) {
            const int max = min + 5 * steps;
            std::array<std::vector<int>, 4> curves;
            for (size_t f = 0; f < kFunctions.size(); ++f) {
                RetryPolicy policy;
                policy.numNoDelayRetries = 0;
                policy.numMinDelayRetries = 0;
                policy.numMaxDelayRetries = 0;
                policy.minDelayTarget = min;
                policy.maxDelayTarget = max;
                policy.backoffFunction = kFunctions[f];
                policy.numRetries = steps + 1;
                const QString what = describe(kFunctions[f], steps + 1, min, max);
                curves[f] = planSchedule(policy, Dialect::Zaqar).phase(RetryPhase::Backoff).delays;
                QVERIFY2(int(curves[f].size()) == steps + 1, qPrintable(what));
                QVERIFY2(curves[f].front() == min, qPrintable(what));
                QVERIFY2(curves[f].back() == max, qPrintable(what));
                QVERIFY2(std::is_sorted(curves[f].begin(), curves[f].end()), qPrintable(what));
            }
            for (int i = 0; i <= steps; ++i)
                QCOMPARE(curves[0][size_t(i)], min + 5 * i);
            for (size_t f = 1; f < kFunctions.size(); ++f)
                for (int i = 0; i <= steps; ++i)
                    QVERIFY2(curves[f - 1][size_t(i)] >= curves[f][size_t(i)],
                             qPrintable(describe(kFunctions[f], steps + 1, min, max)));
        }
    }
}

// ---------------------------------------------------------------------------
// SNS planning and the RetrySchedule queries on sns-example (docs/behaviour.md §3.4).

void RetryScheduleTest::planSchedule_snsExample_hasFourPhases()
{
    const RetrySchedule schedule = planSchedule(snsExampleRetry(), Dialect::Sns);
    QCOMPARE(schedule.dialect(), Dialect::Sns);
    QCOMPARE(schedule.backoffFunction(), BackoffFunction::Exponential);
    for (size_t i = 0; i < kRetryPhases.size(); ++i)
        QCOMPARE(schedule.phases()[i].phase, kRetryPhases[i]);

    QCOMPARE(schedule.phase(RetryPhase::Immediate).retries, int64_t(3));
    QCOMPARE(schedule.phase(RetryPhase::Immediate).delaySeconds, 0);
    QCOMPARE(schedule.phase(RetryPhase::PreBackoff).retries, int64_t(2));
    QCOMPARE(schedule.phase(RetryPhase::PreBackoff).delaySeconds, 1);
    QCOMPARE(schedule.phase(RetryPhase::Backoff).retries, int64_t(10));
    QCOMPARE(toList(schedule.phase(RetryPhase::Backoff).delays), (QList<int>{1, 1, 1, 1, 1, 2, 4, 9, 23, 60}));
    QCOMPARE(schedule.phase(RetryPhase::PostBackoff).retries, int64_t(35));
    QCOMPARE(schedule.phase(RetryPhase::PostBackoff).delaySeconds, 60);

    QCOMPARE(schedule.phase(RetryPhase::Immediate).totalSeconds(), int64_t(0));
    QCOMPARE(schedule.phase(RetryPhase::PreBackoff).totalSeconds(), int64_t(2));
    QCOMPARE(schedule.phase(RetryPhase::Backoff).totalSeconds(), int64_t(103));
    QCOMPARE(schedule.phase(RetryPhase::PostBackoff).totalSeconds(), int64_t(2100));

    QCOMPARE(schedule.retries(), int64_t(50));
    QCOMPARE(schedule.attempts(), int64_t(51));
    QCOMPARE(schedule.totalDelaySeconds(), int64_t(2205));
    QCOMPARE(schedule.maxDelaySeconds(), 60);
}

void RetryScheduleTest::planSchedule_noBackoffRetries_emptyBackoffPhase()
{
    RetryPolicy policy;
    policy.numRetries = 5;
    policy.numNoDelayRetries = 2;
    policy.numMinDelayRetries = 1;
    policy.numMaxDelayRetries = 2;
    policy.minDelayTarget = 3;
    policy.maxDelayTarget = 7;
    const RetrySchedule schedule = planSchedule(policy, Dialect::Sns);
    QCOMPARE(schedule.phase(RetryPhase::Backoff).retries, int64_t(0));
    QVERIFY(schedule.phase(RetryPhase::Backoff).delays.empty());
    QCOMPARE(schedule.retries(), int64_t(5));
    QCOMPARE(schedule.totalDelaySeconds(), int64_t(0 + 3 + 14));
    QCOMPARE(schedule.phaseOfRetry(3), RetryPhase::PreBackoff);
    QCOMPARE(schedule.phaseOfRetry(4), RetryPhase::PostBackoff); // backoff phase skipped
    QCOMPARE(schedule.delayBeforeRetry(4), 7);

    RetryPolicy none;
    none.numRetries = 0;
    const RetrySchedule empty = planSchedule(none, Dialect::Sns);
    QCOMPARE(empty.retries(), int64_t(0));
    QCOMPARE(empty.attempts(), int64_t(1));
    QCOMPARE(empty.totalDelaySeconds(), int64_t(0));
    QCOMPARE(empty.secondsUntilAttempt(0), int64_t(0));
}

void RetryScheduleTest::retrySchedule_snsExample_answersQueries_data()
{
    QTest::addColumn<int>("retry");
    QTest::addColumn<RetryPhase>("phase");
    QTest::addColumn<int>("delay");
    QTest::addColumn<qint64>("secondsUntil");

    // Cumulative: 0 0 0 | 1 2 | 3 4 5 6 7 9 13 22 45 105 | 165 ... 2205
    QTest::newRow("r1") << 1 << RetryPhase::Immediate << 0 << qint64(0);
    QTest::newRow("r3") << 3 << RetryPhase::Immediate << 0 << qint64(0);
    QTest::newRow("r4") << 4 << RetryPhase::PreBackoff << 1 << qint64(1);
    QTest::newRow("r5") << 5 << RetryPhase::PreBackoff << 1 << qint64(2);
    QTest::newRow("r6") << 6 << RetryPhase::Backoff << 1 << qint64(3);
    QTest::newRow("r10") << 10 << RetryPhase::Backoff << 1 << qint64(7);
    QTest::newRow("r11") << 11 << RetryPhase::Backoff << 2 << qint64(9);
    QTest::newRow("r12") << 12 << RetryPhase::Backoff << 4 << qint64(13);
    QTest::newRow("r13") << 13 << RetryPhase::Backoff << 9 << qint64(22);
    QTest::newRow("r14") << 14 << RetryPhase::Backoff << 23 << qint64(45);
    QTest::newRow("r15") << 15 << RetryPhase::Backoff << 60 << qint64(105);
    QTest::newRow("r16") << 16 << RetryPhase::PostBackoff << 60 << qint64(165);
    QTest::newRow("r30") << 30 << RetryPhase::PostBackoff << 60 << qint64(105 + 15 * 60);
    QTest::newRow("r50") << 50 << RetryPhase::PostBackoff << 60 << qint64(2205);
}

void RetryScheduleTest::retrySchedule_snsExample_answersQueries()
{
    QFETCH(int, retry);
    QFETCH(RetryPhase, phase);
    QFETCH(int, delay);
    QFETCH(qint64, secondsUntil);

    const RetrySchedule schedule = planSchedule(snsExampleRetry(), Dialect::Sns);
    QCOMPARE(schedule.phaseOfRetry(retry), phase);
    QCOMPARE(schedule.delayBeforeRetry(retry), delay);
    QCOMPARE(schedule.secondsUntilAttempt(retry), int64_t(secondsUntil));
}

void RetryScheduleTest::retrySchedule_snsExample_queriesAgreeWithEachOther()
{
    const RetrySchedule schedule = planSchedule(snsExampleRetry(), Dialect::Sns);
    QCOMPARE(schedule.secondsUntilAttempt(0), int64_t(0));
    int64_t sum = 0;
    for (int64_t r = 1; r <= schedule.retries(); ++r) {
        sum += schedule.delayBeforeRetry(r);
        QCOMPARE(schedule.secondsUntilAttempt(r), sum);
        QCOMPARE(schedule.secondsUntilAttempt(r) - schedule.secondsUntilAttempt(r - 1),
                 int64_t(schedule.delayBeforeRetry(r)));
    }
    QCOMPARE(sum, int64_t(2205));
    QCOMPARE(schedule.totalDelaySeconds(), sum);
}

void RetryScheduleTest::retryPhaseName_eachPhase_isSpecName()
{
    QCOMPARE(qs(retryPhaseName(RetryPhase::Immediate)), QStringLiteral("immediate"));
    QCOMPARE(qs(retryPhaseName(RetryPhase::PreBackoff)), QStringLiteral("preBackoff"));
    QCOMPARE(qs(retryPhaseName(RetryPhase::Backoff)), QStringLiteral("backoff"));
    QCOMPARE(qs(retryPhaseName(RetryPhase::PostBackoff)), QStringLiteral("postBackoff"));
}

} // namespace relaydesk

RELAYDESK_TEST_MAIN(relaydesk::RetryScheduleTest)
#include "retry_schedule_test.moc"
