// SPDX-License-Identifier: MIT
#pragma once
// Shared parts of broker_bench (a benchmark, not a test): a fresh broker on a
// real database file (WAL, synchronous=FULL) driven from real threads, the
// blocking call helper, commit-count spans and the one-line figure printer.
//
// Ownership: a BrokerBench owns its engine, service and database file (the
// file and its -wal/-shm are removed when it is destroyed). Thread: construct
// and destroy on the main thread; call()/sendBatchUnit() from any thread but
// the broker thread.

#include "broker/id_source.h"
#include "broker/queues/message_receiver.h"
#include "broker/queues/message_sender.h"
#include "engine/broker_engine.h"
#include "engine/broker_service.h"
#include "broker/wall_time_source.h"

#include "support/call_and_wait.h"

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <future>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace relaydesk::bench {

constexpr std::size_t kBodySize = 256;

// Whether the engines BrokerBench makes keep their metrics
// (broker_bench's fifth argument "metrics=off" turns them off to measure their cost).
extern bool countMetrics;

// A 256-byte body that starts with `serial` (so no two are equal).
std::string bodyOf(std::uint64_t serial);

// Calls `start(reply)` and waits for the reply (any thread but the broker's).
template <class T, class Start>
Result<T> call(Start start)
{
    return testing::callAndWait<T>(std::move(start));
}

// Runs perThread(t) on `threads` threads; the wall seconds until all ended.
double runThreads(int threads, const std::function<void(int)> &perThread);

// CPU seconds used so far by the broker thread (named relaydesk-broker) and
// by the whole process: load-independent cost figures.
double brokerThreadCpuSeconds();
double processCpuSeconds();

// Units, commits and CPU time between start() and end().
struct CommitSpan {
    CommitQueueStats before;
    CommitQueueStats after;
    double brokerCpu = 0;  // seconds, after - before
    double processCpu = 0;
    void start(const BrokerEngine &engine);
    void end(const BrokerEngine &engine);
    std::uint64_t units() const { return after.units - before.units; }
    std::uint64_t commits() const { return after.batches - before.batches; }
};

// "load 1.23 1.10 0.98" from /proc/loadavg.
std::string loadNow();
// VmRSS of this process in kB (from /proc/self/status); -1 when unknown.
long residentKilobytes();

// One result line: "<figure>: <parameters>: <rate> msg/s (target N) | <messages per commit> | load".
void printFigure(const std::string &figure, const std::string &parameters, double messages, double seconds,
                 double target, const CommitSpan &span, long failures);

class BrokerBench final {
public:
    BrokerBench(const std::filesystem::path &directory, const std::string &name, BrokerEngineOptions options = {});
    ~BrokerBench();

    BrokerEngine &engine() { return *m_engine; }
    BrokerService &service() { return *m_service; }
    const std::filesystem::path &file() const { return m_file; }

    // Creates the queue (FIFO when the name ends with ".fifo", with content-based deduplication).
    void createQueue(const std::string &name);
    // One engine unit running MessageSender::sendBatch (not BrokerService).
    Result<std::vector<BatchEntryResult<SendReceipt>>> sendBatchUnit(const std::string &queue,
                                                                     std::vector<BatchEntry<SendRequest>> entries);
    // Stores `count` messages with send-batch units of 10 from 4 threads; FIFO
    // messages are spread over `groups` groups. Returns the number stored.
    long preload(const std::string &queue, long count, int groups = 0);
    // Commits everything pending, closes the database (WAL checkpointed and removed).
    void stop();
    // Start-up on the stored file: stop(), open it again with a new engine
    // (same options) and wait for the answer to GetQueueUrl(`queue`): the
    // wall seconds from the open to that answer.
    double restart(const std::string &queue);

private:
    std::filesystem::path m_file;
    SystemWallTimeSource m_wall;
    RandomIdSource m_unitIds{42}; // used inside units only, i.e. on the broker thread
    BrokerEngineOptions m_options;
    std::unique_ptr<BrokerEngine> m_engine;
    std::unique_ptr<BrokerService> m_service;
};

// Both sides of a figure measure a warm WAL: SQL that writes 8 MB through
// the WAL in one transaction, drops it and restarts the WAL, so that later
// commits overwrite WAL blocks already written. While a WAL is new, each
// commit also grows the file, and its fdatasync then commits file-system
// metadata too: 10–20 times dearer per commit on ext4 (docs/figures.md,
// "The broker in-process"). Without it the figure measures how far each side
// got past its first 4 MB, not its steady state.
inline constexpr const char *kWarmWalSql =
    "CREATE TABLE bench_warm_wal (pad BLOB);"
    "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000) "
    "INSERT INTO bench_warm_wal SELECT zeroblob(4000) FROM n;"
    "DROP TABLE bench_warm_wal;"
    "PRAGMA wal_checkpoint(RESTART);";

// The references (broker_bench_reference.cpp): raw SQLite's rate for the same
// row operations, `perCommit` messages to a transaction, on a new file beside
// `relaydeskFile` with its messages table and indexes; and the line that
// prints a figure's ratio to it.
double referenceInsertRate(const std::filesystem::path &relaydeskFile, long rows, double perCommit);
// A receive's UPDATE and a delete's DELETE per message.
double referenceReceiveDeleteRate(const std::filesystem::path &relaydeskFile, long rows, double perCommit);
void printReference(const std::string &figure, double rate, double reference, double perCommit, double target);

// Bulk figures (broker_bench_bulk.cpp): `count` messages into `queue` through
// MessageSender, 5 000 to a unit (the fastest preload that still goes through
// the product's sender); and `operation` (blocking) timed while a prober sends
// to the queue "probe" one message after another and a sampler reads VmRSS
// every 5 ms: one line with its time, peak RSS above the start, the
// longest SendMessage wait (the longest stall another request saw), when it
// began and how many waited over 100 ms.
void fillQueue(BrokerBench &broker, const std::string &queue, long count);
void measureBulk(BrokerBench &broker, const char *path, long messages, const std::function<Status()> &operation);

// BrokerService sends into `queue` from `producers` threads, `perProducer`
// each, one after the other: messages per second (0 when any failed).
double serviceSendRate(BrokerBench &broker, const std::string &queue, int producers, int perProducer);
// `consumers` threads receive (up to maxPerReceive, no wait) and delete each
// message received through BrokerService until `messages` are deleted.
struct ReceiveRun {
    double seconds = 0;
    CommitSpan span;
    long deleted = 0;
    long failures = 0;
    long emptyReceives = 0;
};
ReceiveRun receiveAndDelete(BrokerBench &broker, const std::string &queue, int consumers, long messages,
                            int maxPerReceive);
// Sends and receive+deletes with 0 / 100 000 / 1 000 000 messages stored and
// with 1 / 1 000 / 10 000 queues, each relative to its first row (broker_bench_curves.cpp).
void benchCurves(const std::filesystem::path &directory, double scale);
// The figures (broker_bench_send.cpp, broker_bench_receive.cpp).
void benchSend(const std::filesystem::path &directory, int producers, int perProducer);
void benchSendWithBacklog(const std::filesystem::path &directory, int producers, int perProducer, long backlog);
void benchSendUnit(const std::filesystem::path &directory, int producers, int perProducer);
void benchSendBatch(const std::filesystem::path &directory, int producers, int batchesPerProducer);
void benchReceiveDelete(const std::filesystem::path &directory, bool fifo, int consumers, long messages,
                        int maxPerReceive);
void benchReceiveDeleteUnits(const std::filesystem::path &directory, bool fifo, int consumers, long messages);
void benchLongPoll(const std::filesystem::path &directory, int samples);
void benchMemory(const std::filesystem::path &directory, long messages);
void benchDepths(const std::filesystem::path &directory, long backlog, int runs); // broker_bench_depths.cpp
// Expiry, purge, queue deletion and auto-delete of `messages` messages on a
// virtual clock: time, peak resident memory and the longest wait of a
// SendMessage to another queue meanwhile (broker_bench_bulk.cpp).
void benchBulkRemoval(const std::filesystem::path &directory, long messages);
// The purge alone (its part of benchBulkRemoval).
void benchBulkPurge(const std::filesystem::path &directory, long messages);
// broker_bench_scale.cpp: one queue to 10 million messages (× scale), then their expiry and purge.
void benchScale(const std::filesystem::path &directory, double scale);

} // namespace relaydesk::bench
