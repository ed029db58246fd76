// SPDX-License-Identifier: MIT
// Benchmark (not a test): durable single-row inserts per second through the
// broker engine — 64 threads each execute a unit inserting one 256-byte
// message row and wait for its reply, as request handlers would; the units
// run on the broker thread and share commits (WAL, synchronous=FULL).
// Prints units/s and the average number of units per commit, next to the
// CommitQueue driven by its own thread (store_bench) for comparison of the
// engine's overhead (queued wake + reply hand-off).
//   build/dev/tests/bench/engine_bench [units-per-thread=200] [directory=/tmp]
#include "broker/wall_time_source.h"
#include "engine/broker_engine.h"
#include "store/database.h"
#include "store/statement.h"

#include <QCoreApplication>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

using namespace relaydesk;

namespace {

constexpr int kThreads = 64;
const std::string kBody(256, 'm');

Status insertMessage(Database &db, int thread, int index)
{
    auto insert = db.prepareCached("INSERT INTO messages (message_id, queue_id, body, sent_ms, enqueued_ms,"
                                   " visible_at_ms) VALUES (?, 1, ?, 0, 0, 0)");
    StoreStatus status = insert.ok() ? StoreStatus() : insert.status();
    if (status.ok())
        status = (*insert)->bind(1, std::to_string(thread) + "-" + std::to_string(index));
    if (status.ok())
        status = (*insert)->bind(2, kBody);
    if (status.ok())
        status = (*insert)->execute();
    if (!status.ok())
        return BrokerError(BrokerErrorCode::InternalError, status.toString());
    return {};
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const int perThread = argc > 1 ? std::atoi(argv[1]) : 200;
    const std::filesystem::path directory = argc > 2 ? argv[2] : "/tmp";
    const std::filesystem::path file = directory / "relaydesk_engine_bench.db";
    for (const char *suffix : {"", "-wal", "-shm"})
        std::filesystem::remove(file.string() + suffix);

    auto opened = Database::open(file.string());
    if (!opened.ok()) {
        std::fprintf(stderr, "%s\n", opened.status().toString().c_str());
        return 1;
    }
    std::unique_ptr<Database> db = std::move(opened).value();
    if (!db->execute("INSERT INTO queues (id, name, created_ms, last_used_ms) VALUES (1, 'bench', 0, 0)").ok())
        return 1;

    SystemWallTimeSource wall;
    BrokerEngine engine(std::move(db), wall);
    std::atomic<int> failures{0};
    const auto start = std::chrono::steady_clock::now();
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&engine, &failures, perThread, t] {
            for (int i = 0; i < perThread; ++i) {
                const Status status = engine.executeAndWait([t, i](Database &d, ClockTime) { return insertMessage(d, t, i); });
                if (!status.ok())
                    failures.fetch_add(1);
            }
        });
    }
    for (std::thread &thread : threads)
        thread.join();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const CommitQueueStats stats = engine.commitStats();
    engine.stop();

    const double units = double(kThreads) * perThread;
    std::printf("engine group commit: %d threads x %d units, %.0f units/s, %.1f units per commit (%llu commits, "
                "largest %llu), %d failed\n",
                kThreads, perThread, units / seconds, stats.batches ? double(stats.units) / double(stats.batches) : 0.0,
                static_cast<unsigned long long>(stats.batches), static_cast<unsigned long long>(stats.largestBatch),
                failures.load());
    for (const char *suffix : {"", "-wal", "-shm"})
        std::filesystem::remove(file.string() + suffix);
    return failures.load() == 0 ? 0 : 1;
}
