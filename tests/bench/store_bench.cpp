// SPDX-License-Identifier: MIT
// Benchmark (not a test): durable single-row inserts per second from 64
// threads into a real database file (WAL, synchronous=FULL), two ways:
//   1. group commit — every thread submits to one CommitQueue and waits for
//      its future, as a request handler would; concurrent inserts share a
//      transaction and its fsync;
//   2. one transaction per insert — the same threads take turns on the
//      connection, BEGIN IMMEDIATE / INSERT / COMMIT each (one fsync each).
// Each insert is a 256-byte message row. Prints both rates and the average
// number of inserts that shared a commit.
//   build/dev/tests/bench/store_bench [inserts-per-thread=200] [directory=/tmp]
#include "store/commit_queue.h"
#include "store/database.h"
#include "store/statement.h"
#include "store/transaction.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <future>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

using namespace relaydesk;

namespace {

constexpr int kThreads = 64;
const std::string kBody(256, 'm');

StoreStatus insertMessage(Database &db, int thread, int index)
{
    auto insert = db.prepareCached("INSERT INTO messages (message_id, queue_id, body, sent_ms, enqueued_ms,"
                                   " visible_at_ms) VALUES (?, 1, ?, 0, 0, 0)");
    if (!insert.ok())
        return insert.status();
    if (StoreStatus s = (*insert)->bind(1, std::to_string(thread) + "-" + std::to_string(index)); !s.ok())
        return s;
    if (StoreStatus s = (*insert)->bind(2, kBody); !s.ok())
        return s;
    return (*insert)->execute();
}

std::unique_ptr<Database> openFresh(const std::filesystem::path &file)
{
    std::filesystem::remove(file);
    std::filesystem::remove(file.string() + "-wal");
    std::filesystem::remove(file.string() + "-shm");
    auto opened = Database::open(file.string());
    if (!opened.ok()) {
        std::fprintf(stderr, "%s\n", opened.status().toString().c_str());
        std::exit(1);
    }
    std::unique_ptr<Database> db = std::move(opened).value();
    if (!db->execute("INSERT INTO queues (id, name, created_ms, last_used_ms) VALUES (1, 'bench', 0, 0)").ok())
        std::exit(1);
    return db;
}

template <class PerThread>
double runThreads(const PerThread &perThread)
{
    const auto start = std::chrono::steady_clock::now();
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
        threads.emplace_back([&perThread, t] { perThread(t); });
    for (std::thread &thread : threads)
        thread.join();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

} // namespace

int main(int argc, char **argv)
{
    const int perThread = argc > 1 ? std::atoi(argv[1]) : 200;
    const std::filesystem::path directory = argc > 2 ? argv[2] : std::filesystem::temp_directory_path();
    const std::filesystem::path file = directory / "relaydesk-store-bench.db";
    const int total = kThreads * perThread;
    std::atomic<int> failures{0};

    double groupSeconds = 0;
    CommitQueueStats stats;
    {
        auto db = openFresh(file);
        CommitQueue queue(*db);
        groupSeconds = runThreads([&](int t) {
            for (int i = 0; i < perThread; ++i) {
                if (!queue.submit([t, i](Database &d) { return insertMessage(d, t, i); }).get().ok())
                    ++failures;
            }
        });
        stats = queue.stats();
    }

    double singleSeconds = 0;
    {
        auto db = openFresh(file);
        std::mutex connection;
        singleSeconds = runThreads([&](int t) {
            for (int i = 0; i < perThread; ++i) {
                std::lock_guard lock(connection);
                auto transaction = Transaction::begin(*db);
                if (!transaction.ok() || !insertMessage(*db, t, i).ok() || !transaction->commit().ok())
                    ++failures;
            }
        });
    }
    std::filesystem::remove(file);
    std::filesystem::remove(file.string() + ".lock");

    std::printf("store_bench: %d threads x %d single-row inserts (256-byte body), synchronous=FULL, WAL, %s\n",
                kThreads, perThread, directory.c_str());
    std::printf("  group commit (CommitQueue):   %9.0f commits/s  (%d in %.2f s; %llu transactions, "
                "average %.1f inserts per transaction, largest %llu)\n",
                total / groupSeconds, total, groupSeconds, static_cast<unsigned long long>(stats.batches),
                double(stats.units) / double(stats.batches ? stats.batches : 1),
                static_cast<unsigned long long>(stats.largestBatch));
    std::printf("  one transaction per insert:   %9.0f commits/s  (%d in %.2f s)\n", total / singleSeconds, total,
                singleSeconds);
    if (failures > 0)
        std::printf("  %d inserts FAILED\n", failures.load());
    return failures > 0 ? 1 : 0;
}
