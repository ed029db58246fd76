// SPDX-License-Identifier: MIT
// Unit tests of jitter (docs/behaviour.md §3.5): a non-zero planned delay d is executed as a
// uniform draw from [d(1-J), d(1+J)] at millisecond resolution; zero stays
// zero; a seed makes the sequence reproducible. Every test uses a fixed seed,
// so the outcome never depends on chance or on time.

#include "policy/jitter_sampler.h"
#include "support/test_main.h"

#include <QList>
#include <QtTest>

#include <cmath>

using namespace relaydesk;
using std::chrono::milliseconds;

namespace relaydesk {
namespace {

QList<qint64> drawSequence(JitterSampler &sampler, const QList<int> &delays)
{
    QList<qint64> out;
    for (int d : delays)
        out << qint64(sampler.sample(d).count());
    return out;
}

const QList<int> kMixedDelays{0, 1, 5, 20, 60, 0, 600, 3600, 7, 13, 1, 1, 60, 60, 60, 1000, 2, 3, 4, 5};

} // namespace

class JitterSamplerTest final : public QObject {
    Q_OBJECT

private slots:
    void sample_manyDraws_stayInsideBand_data();
    void sample_manyDraws_stayInsideBand();
    void band_delayAndFraction_isSpecInterval_data();
    void band_delayAndFraction_isSpecInterval();
    void sample_zeroDelay_staysZero();
    void sample_fractionZero_isExactDelay();
    void sample_sameSeed_givesIdenticalSequence();
    void sample_differentSeeds_giveDifferentSequences();
    void constructor_fraction_isKept();
};

void JitterSamplerTest::sample_manyDraws_stayInsideBand_data()
{
    QTest::addColumn<int>("delay");
    QTest::addColumn<double>("fraction");
    QTest::addColumn<qint64>("lowMs");
    QTest::addColumn<qint64>("highMs");

    // [d(1-J), d(1+J)] in milliseconds, by hand.
    QTest::newRow("1 s, J=0.1") << 1 << 0.1 << qint64(900) << qint64(1100);
    QTest::newRow("7 s, J=0.1") << 7 << 0.1 << qint64(6300) << qint64(7700);
    QTest::newRow("60 s, J=0.1") << 60 << 0.1 << qint64(54000) << qint64(66000);
    QTest::newRow("3600 s, J=0.1") << 3600 << 0.1 << qint64(3240000) << qint64(3960000);
    QTest::newRow("1 s, J=0.5") << 1 << 0.5 << qint64(500) << qint64(1500);
    QTest::newRow("3 s, J=0.5") << 3 << 0.5 << qint64(1500) << qint64(4500);
    QTest::newRow("600 s, J=0.5") << 600 << 0.5 << qint64(300000) << qint64(900000);
    QTest::newRow("20 s, J=0.25") << 20 << 0.25 << qint64(15000) << qint64(25000);
}

void JitterSamplerTest::sample_manyDraws_stayInsideBand()
{
    QFETCH(int, delay);
    QFETCH(double, fraction);
    QFETCH(qint64, lowMs);
    QFETCH(qint64, highMs);

    // At millisecond resolution the ends may be rounded by 1 ms either way;
    // every draw must stay inside the band the sampler reports.
    const auto [bandLow, bandHigh] = JitterSampler::band(delay, fraction);
    QVERIFY(std::abs(qint64(bandLow.count()) - lowMs) <= 1);
    QVERIFY(std::abs(qint64(bandHigh.count()) - highMs) <= 1);
    lowMs = bandLow.count();
    highMs = bandHigh.count();

    JitterSampler sampler(fraction, 12345);
    qint64 lowest = highMs;
    qint64 highest = lowMs;
    int below = 0;
    int above = 0;
    const qint64 planned = qint64(delay) * 1000;
    for (int i = 0; i < 2000; ++i) {
        const qint64 ms = sampler.sample(delay).count();
        QVERIFY2(ms >= lowMs && ms <= highMs,
                 qPrintable(QStringLiteral("draw %1: %2 ms outside [%3, %4]").arg(i).arg(ms).arg(lowMs).arg(highMs)));
        lowest = std::min(lowest, ms);
        highest = std::max(highest, ms);
        below += ms < planned;
        above += ms > planned;
    }
    // Uniform over the band: with 2000 seeded draws both sides of the planned
    // delay are hit and the draws spread over most of the band.
    QVERIFY(below > 0);
    QVERIFY(above > 0);
    QVERIFY(highest - lowest > (highMs - lowMs) / 2);
}

void JitterSamplerTest::band_delayAndFraction_isSpecInterval_data()
{
    sample_manyDraws_stayInsideBand_data();
    QTest::newRow("0 s, J=0.5") << 0 << 0.5 << qint64(0) << qint64(0);
    QTest::newRow("60 s, J=0") << 60 << 0.0 << qint64(60000) << qint64(60000);
}

void JitterSamplerTest::band_delayAndFraction_isSpecInterval()
{
    QFETCH(int, delay);
    QFETCH(double, fraction);
    QFETCH(qint64, lowMs);
    QFETCH(qint64, highMs);
    // Millisecond resolution: d(1-J) and d(1+J) are not always exact in
    // binary floating point, so allow the ends 1 ms of rounding.
    const auto [low, high] = JitterSampler::band(delay, fraction);
    QVERIFY2(std::abs(qint64(low.count()) - lowMs) <= 1, qPrintable(QString::number(low.count())));
    QVERIFY2(std::abs(qint64(high.count()) - highMs) <= 1, qPrintable(QString::number(high.count())));
    QVERIFY(low <= high);
}

void JitterSamplerTest::sample_zeroDelay_staysZero()
{
    for (double fraction : {0.0, 0.1, 0.5}) {
        JitterSampler sampler(fraction, 7);
        for (int i = 0; i < 100; ++i)
            QCOMPARE(qint64(sampler.sample(0).count()), qint64(0));
    }
}

void JitterSamplerTest::sample_fractionZero_isExactDelay()
{
    JitterSampler sampler(0.0, 99);
    for (int delay : kMixedDelays)
        QCOMPARE(qint64(sampler.sample(delay).count()), qint64(delay) * 1000);
}

void JitterSamplerTest::sample_sameSeed_givesIdenticalSequence()
{
    for (double fraction : {0.1, 0.5}) {
        JitterSampler a(fraction, 42);
        JitterSampler b(fraction, 42);
        const QList<qint64> first = drawSequence(a, kMixedDelays);
        const QList<qint64> second = drawSequence(b, kMixedDelays);
        QCOMPARE(first, second);
        // And the sequence is not trivially the planned delays.
        QList<qint64> planned;
        for (int d : kMixedDelays)
            planned << qint64(d) * 1000;
        QVERIFY(first != planned);
    }
}

void JitterSamplerTest::sample_differentSeeds_giveDifferentSequences()
{
    JitterSampler a(0.1, 1);
    JitterSampler b(0.1, 2);
    QVERIFY(drawSequence(a, kMixedDelays) != drawSequence(b, kMixedDelays));

    JitterSampler c(0.5, 1000);
    JitterSampler d(0.5, 1001);
    QVERIFY(drawSequence(c, kMixedDelays) != drawSequence(d, kMixedDelays));
}

void JitterSamplerTest::constructor_fraction_isKept()
{
    QCOMPARE(JitterSampler().fraction(), 0.1);
    QCOMPARE(JitterSampler::kDefaultFraction, 0.1);
    QCOMPARE(JitterSampler::kMaxFraction, 0.5);
    QCOMPARE(JitterSampler(0.5, 1).fraction(), 0.5);
    QCOMPARE(JitterSampler(0.0, 1).fraction(), 0.0);
}

} // namespace relaydesk

RELAYDESK_TEST_MAIN(relaydesk::JitterSamplerTest)
#include "jitter_sampler_test.moc"
