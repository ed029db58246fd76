// SPDX-License-Identifier: MIT
// Benchmark (not a test): the median time of one 1200x700 chart render, as
// `relaydesk policy render` does it — build the chart offscreen, draw it into
// an image, encode the PNG — for sns-example and sns-aws-managed.
//   render_bench [ITERATIONS]   (default 30)
#include "charts/policy_chart.h"

#include "policy/policy_presets.h"

#include <QApplication>
#include <QBuffer>
#include <QElapsedTimer>
#include <QImage>

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace relaydesk;

namespace {

struct Timing {
    double drawMs = 0;  // chart built and drawn into a QImage
    double totalMs = 0; // ... plus PNG encoding
    qsizetype pngBytes = 0;
};

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    const size_t n = values.size();
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

Timing measure(const char *presetName, int iterations)
{
    const std::optional<PolicyPreset> preset = findPolicyPreset(presetName);
    const RetrySchedule schedule = planSchedule(preset->policy.retryOrDefault(), preset->policy.dialect);
    PolicyChart chart;
    chart.setSchedule(schedule, QString::fromLatin1(presetName));
    const QSize size(1200, 700);
    std::vector<double> draw;
    std::vector<double> total;
    Timing timing;
    for (int i = 0; i < iterations + 1; ++i) {
        QElapsedTimer timer;
        timer.start();
        const QImage image = chart.renderImage(size);
        const qint64 drawn = timer.nsecsElapsed();
        QByteArray png;
        QBuffer buffer(&png);
        buffer.open(QIODevice::WriteOnly);
        image.save(&buffer, "PNG");
        const qint64 encoded = timer.nsecsElapsed();
        if (i == 0)
            continue; // warm-up: fonts and glyph caches
        draw.push_back(double(drawn) / 1e6);
        total.push_back(double(encoded) / 1e6);
        timing.pngBytes = png.size();
    }
    timing.drawMs = median(draw);
    timing.totalMs = median(total);
    return timing;
}

} // namespace

int main(int argc, char **argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const int iterations = argc > 1 ? std::max(1, std::atoi(argv[1])) : 30;
    std::printf("1200x700 PNG render, median of %d (after one warm-up)\n", iterations);
    for (const char *preset : {"sns-example", "sns-aws-managed"}) {
        const Timing t = measure(preset, iterations);
        std::printf("  %-16s %7.1f ms per PNG (%.1f ms drawing, %.1f ms encoding, %lld bytes)\n", preset, t.totalMs,
                    t.drawMs, t.totalMs - t.drawMs, static_cast<long long>(t.pngBytes));
    }
    return 0;
}
