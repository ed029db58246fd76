// SPDX-License-Identifier: MIT
// broker_bench: the queue-depth figures. One queue is filled with `backlog`
// messages by bare send units (which report no changes), then marked stale
// and refreshed once (the refresh after the fill, timed); then, each
// repeated and printed as min / median / max:
//  - the depth read of that queue inside a unit (readQueueOverview, what the
//    broker thread's refresh runs for each stale queue);
//  - a refresh round trip (refreshQueueDepths after the queue was marked stale);
//  - the window's tree read (readEntityOverview on a read-only connection);
// and the send figure with the refresh running (every change interval).
#include "broker_bench.h"

#include "broker/broker_identity.h"
#include "broker/metrics/broker_metrics.h"
#include "broker/metrics/entity_overview.h"
#include "engine/metrics_recording.h"
#include "store/database.h"

#include <algorithm>
#include <atomic>
#include <cstdio>

namespace relaydesk::bench {

namespace {

using Milliseconds = std::chrono::duration<double, std::milli>;

struct Spread {
    double min = 0, median = 0, max = 0;
};

Spread spreadOf(std::vector<double> times)
{
    std::sort(times.begin(), times.end());
    return Spread{times.front(), times[times.size() / 2], times.back()};
}

void printSpread(const char *figure, long backlog, const Spread &spread, int runs)
{
    std::printf("%-34s %ld messages: min %.3f ms, median %.3f ms, max %.3f ms over %d runs | %s\n", figure, backlog,
                spread.min, spread.median, spread.max, runs, loadNow().c_str());
    std::fflush(stdout);
}

void refreshAndWait(BrokerEngine &engine)
{
    auto done = std::make_shared<std::promise<void>>();
    std::future<void> ready = done->get_future();
    refreshQueueDepths(engine, nullptr, [done] { done->set_value(); });
    ready.wait();
}

} // namespace

void benchDepths(const std::filesystem::path &directory, long backlog, int runs)
{
    BrokerBench broker(directory, "depths");
    broker.createQueue("bench");
    broker.preload("bench", backlog);
    BrokerEngine &engine = broker.engine();
    engine.metrics().markStale("bench");
    const auto filled = std::chrono::steady_clock::now();
    refreshAndWait(engine);
    const double afterFill = Milliseconds(std::chrono::steady_clock::now() - filled).count();
    printSpread("refresh after the fill", backlog, Spread{afterFill, afterFill, afterFill}, 1);

    std::vector<double> reads;
    for (int i = 0; i < runs; ++i) {
        Result<double> read = engine.executeAndWait([](Database &db, ClockTime now) -> Result<double> {
            const auto start = std::chrono::steady_clock::now();
            Result<std::optional<QueueOverview>> overview = readQueueOverview(db, "bench", now);
            if (!overview)
                return overview.error();
            return Milliseconds(std::chrono::steady_clock::now() - start).count();
        });
        if (!read) {
            std::fprintf(stderr, "depth read: %s\n", read.error().message.c_str());
            std::exit(1);
        }
        reads.push_back(*read);
    }
    printSpread("depth read (one queue, in a unit)", backlog, spreadOf(reads), runs);

    std::vector<double> refreshes;
    for (int i = 0; i < runs; ++i) {
        engine.metrics().markStale("bench");
        const auto start = std::chrono::steady_clock::now();
        refreshAndWait(engine);
        refreshes.push_back(Milliseconds(std::chrono::steady_clock::now() - start).count());
    }
    printSpread("depth refresh (round trip)", backlog, spreadOf(refreshes), runs);

    DatabaseOptions readOnly;
    readOnly.mode = OpenMode::ReadOnly;
    readOnly.checkIntegrity = false;
    auto reader = Database::open(broker.file().string(), readOnly);
    if (!reader.ok()) {
        std::fprintf(stderr, "read-only open: %s\n", reader.status().toString().c_str());
        std::exit(1);
    }
    std::vector<double> trees;
    for (int i = 0; i < runs; ++i) {
        const auto start = std::chrono::steady_clock::now();
        Result<EntityOverview> overview = readEntityOverview(**reader, BrokerIdentity{}, engine.clock().now());
        trees.push_back(Milliseconds(std::chrono::steady_clock::now() - start).count());
        if (!overview || overview->queues.size() != 1) {
            std::fprintf(stderr, "tree read failed\n");
            std::exit(1);
        }
    }
    printSpread("tree read (read-only connection)", backlog, spreadOf(trees), runs);
    reader.value().reset();

    constexpr int kProducers = 32;
    const int perProducer = 300;
    std::atomic<long> failures{0};
    CommitSpan span;
    span.start(engine);
    const double seconds = runThreads(kProducers, [&](int t) {
        for (int i = 0; i < perProducer; ++i) {
            SendRequest request;
            request.body = bodyOf(static_cast<std::uint64_t>(backlog) + static_cast<std::uint64_t>(t) * 1000000u + i);
            const bool sent = call<SendReceipt>([&](auto reply) {
                                  broker.service().sendMessage("bench", std::move(request), nullptr, reply);
                              }).ok();
            failures += sent ? 0 : 1;
        }
    });
    span.end(engine);
    printFigure("send (BrokerService, depths on)",
                "32 producers x " + std::to_string(perProducer) + ", 256 B, " + std::to_string(backlog) + " stored before",
                double(kProducers) * perProducer, seconds, 40000, span, failures.load());
}

} // namespace relaydesk::bench
