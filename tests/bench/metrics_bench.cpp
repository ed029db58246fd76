// SPDX-License-Identifier: MIT
// Benchmark (not a test): the cost of the engine's metrics.
//   metrics_bench [queues=1000] [topics=100] [units=1000000]
// 1. counting on the hot path: recordCommitted() as the engine calls it
//    after each committed send (one counted event, one CountsChanged),
//    single thread, over `units` units spread over the queues and a clock
//    moving one minute every 10 000 units — ns per unit;
// 2. snapshot() with `queues` queues and `topics` topics — µs;
// 3. rendering GET /metrics (Prometheus text) and GET /api/v1/metrics (JSON
//    text) from that snapshot — ms and bytes.
// Each timed part is repeated and the median printed, with the machine load.
#include "broker/metrics/broker_metrics.h"
#include "broker/clock.h"
#include "broker/wall_time_source.h"
#include "engine/metrics_recording.h"
#include "api/native/metrics_json.h"
#include "api/native/prometheus_text.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

using namespace relaydesk;

namespace {

using Seconds = std::chrono::duration<double>;

// The median wall seconds of `runs` calls of `work`.
double medianSeconds(int runs, const std::function<void()> &work)
{
    std::vector<double> times;
    for (int i = 0; i < runs; ++i) {
        const auto start = std::chrono::steady_clock::now();
        work();
        times.push_back(Seconds(std::chrono::steady_clock::now() - start).count());
    }
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

std::string loadNow()
{
    std::ifstream file("/proc/loadavg");
    std::string one, five, fifteen;
    file >> one >> five >> fifteen;
    return "load " + one + " " + five + " " + fifteen;
}

std::string queueName(long i) { return "queue-" + std::to_string(i); }

} // namespace

int main(int argc, char **argv)
{
    const long queues = argc > 1 ? std::atol(argv[1]) : 1000;
    const long topics = argc > 2 ? std::atol(argv[2]) : 100;
    const long units = argc > 3 ? std::atol(argv[3]) : 1000000;
    const ClockTime start = fromEpochMilliseconds(1'800'000'000'000);
    ManualWallTimeSource wall;
    Clock clock(wall, ClockMode::Virtual, 1.0, start);
    BrokerMetrics metrics(clock);
    for (long i = 0; i < queues; ++i)
        metrics.addQueue(queueName(i));
    for (long i = 0; i < topics; ++i)
        metrics.addTopic("topic-" + std::to_string(i));

    // 1. The hot path: what the engine does after each committed send.
    std::vector<std::vector<MetricEvent>> counts;
    std::vector<std::vector<EntityChange>> changes;
    for (long i = 0; i < std::min(queues, 1000L); ++i) {
        counts.push_back({MetricEvent{MetricEvent::Entity::Queue, int(QueueCounter::Sent), queueName(i), 1}});
        changes.push_back({EntityChange{EntityChange::Kind::CountsChanged, EntityChange::Entity::Queue,
                                        QString::fromStdString(queueName(i))}});
    }
    const double recordSeconds = medianSeconds(5, [&] {
        for (long u = 0; u < units; ++u) {
            const std::size_t q = std::size_t(u) % counts.size();
            recordCommitted(metrics, counts[q], changes[q], start + std::chrono::minutes(u / 10000));
        }
    });
    std::printf("%-44s %8.0f ns/unit (%ld units, %zu queues counted, %s)\n",
                "recordCommitted (1 send counted + CountsChanged)", recordSeconds * 1e9 / double(units), units,
                counts.size(), loadNow().c_str());

    // 2. snapshot().
    MetricsSnapshot snapshot;
    const double snapshotSeconds = medianSeconds(21, [&] { snapshot = metrics.snapshotAt(start + std::chrono::minutes(units / 10000)); });
    std::printf("%-44s %8.1f us (%ld queues, %ld topics, %s)\n", "snapshot()", snapshotSeconds * 1e6, queues, topics,
                loadNow().c_str());

    // 3. The two renderings.
    std::size_t textBytes = 0;
    const double textSeconds = medianSeconds(21, [&] { textBytes = prometheusText(snapshot).size(); });
    std::printf("%-44s %8.2f ms, %zu bytes (%ld queues, %ld topics, %s)\n", "GET /metrics body (Prometheus text)",
                textSeconds * 1e3, textBytes, queues, topics, loadNow().c_str());
    std::size_t jsonBytes = 0;
    const double jsonSeconds = medianSeconds(21, [&] { jsonBytes = metricsJson(snapshot).dump().size(); });
    std::printf("%-44s %8.2f ms, %zu bytes (%ld queues, %ld topics, %s)\n", "GET /api/v1/metrics body (JSON)",
                jsonSeconds * 1e3, jsonBytes, queues, topics, loadNow().c_str());
    return 0;
}
