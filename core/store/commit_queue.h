// SPDX-License-Identifier: MIT
#pragma once

#include "store/store_status.h"

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

namespace relaydesk {

class Database;
class Transaction;

// What a CommitQueue has done so far (for tests and benchmarks).
struct CommitQueueStats {
    std::uint64_t batches = 0;       // transactions committed or attempted (one fsync each)
    std::uint64_t units = 0;         // units run
    std::uint64_t failedUnits = 0;   // units answered with an error (their own or their batch's)
    std::uint64_t failedCommits = 0; // batches whose COMMIT failed (all their units failed)
    std::uint64_t largestBatch = 0;  // most units in one batch
    std::uint64_t unitMicroseconds = 0;   // wall time the writer spent running units (BEGIN to before COMMIT)
    std::uint64_t commitMicroseconds = 0; // wall time the writer spent in COMMIT (the fsync)
};

// Writes that units hand over instead of doing them, so that a run of such
// units makes one set-based statement (the broker's PendingSends: a commit's
// sends into one queue become one multi-row INSERT). The CommitQueue tells it
// which unit of the batch runs (unitStarts), that a unit failed (forget its
// hand-overs), and flushes it before any unit that does not defer runs, and
// after the batch's units, before the epilogue and COMMIT — so every unit sees
// the writes of the units before it, in order. flush() does every handed-over
// write and returns the units (by their index in the batch) whose writes
// failed, with the error; their other effects must be none (a deferring unit
// hands over all of its writes). Writer thread only.
class DeferredWrites {
public:
    virtual ~DeferredWrites() = default;
    virtual void unitStarts(std::size_t unit) = 0;
    virtual void forget(std::size_t unit) = 0;
    virtual bool pending() const = 0;
    virtual std::vector<std::pair<std::size_t, StoreStatus>> flush(Database &database) = 0;
};

// Whether a unit may hand its writes to the queue's DeferredWrites.
enum class UnitWrites { Immediate, MayDefer };

// Group commit for the one write connection (docs/behaviour.md §9): units of work arrive
// from any thread; the writer takes every pending unit, opens one
// transaction, runs each unit inside its own Savepoint, commits once (one
// fsync for the whole batch) and only then answers every unit. So a caller
// hears "ok" only once its changes are durable, and concurrent callers share
// the cost of the fsync.
//
//  - A unit that returns an error (or throws) is rolled back alone and gets
//    its error; the others of the batch still commit.
//  - If SQLite rolls the whole transaction back after a unit's error (it may
//    on SQLITE_FULL / I/O errors), the units already run in it get that error
//    too — none of them was acknowledged, so nothing acknowledged is lost —
//    and the rest of the batch continues in a new transaction.
//  - If COMMIT fails (disk full, I/O error), every unit of the batch gets that
//    error and nothing of the batch is visible.
//  - Before taking a batch, the writer may wait briefly for the callers the
//    last commit answered (while fewer units are pending than the last batch
//    had: at most half that COMMIT's duration, never over 2 ms), so that
//    closed-loop callers keep sharing one fsync.
//
// Units must not begin, commit or roll back transactions themselves (use a
// Savepoint for nested undo). A unit returns StoreStatus, or StoreResult<T>
// to hand a value back (e.g. a new row id); the future/completion carries it.
//
// Drivers: Driver::OwnThread starts a writer thread in the constructor.
// Driver::External leaves driving to the owner's thread (the engine's broker
// thread): it calls drainOnce() whenever the wake handler has fired.
//
// Ownership: the Database is not owned; it must outlive the CommitQueue, and
// while the queue exists only the writer (the own thread, or the thread that
// calls drainOnce()) may use it. Thread safety: submit(), close(), stats(),
// pendingCount() are safe from any thread; drainOnce() from the driving
// thread only. Completions run on the writer thread, after the commit, and
// must be quick (post a reply; do not submit-and-wait from inside one).
class CommitQueue final {
public:
    using Work = std::function<StoreStatus(Database &)>;
    using Completion = std::function<void(const StoreStatus &)>;
    enum class Driver { OwnThread, External };

    explicit CommitQueue(Database &database, Driver driver = Driver::OwnThread);
    // Closes the queue, runs what is still pending (in External mode on the
    // destroying thread, which must then be the driving thread) and joins.
    ~CommitQueue();
    CommitQueue(const CommitQueue &) = delete;
    CommitQueue &operator=(const CommitQueue &) = delete;

    // Queues a unit; `done` is called once with the unit's final status after
    // its batch committed (or failed). After close(), `done` is called at
    // once, on the calling thread, with a Closed error. A MayDefer unit may
    // hand writes to the DeferredWrites (setDeferredWrites); a flush failure
    // of its writes is its error, after the unit itself returned ok.
    void submit(Work work, Completion done, UnitWrites writes = UnitWrites::Immediate);

    // Queues a unit returning StoreStatus or StoreResult<T>; the future
    // becomes ready only after the batch containing it has committed (or has
    // failed: then it holds the error).
    template <class UnitFunction>
    auto submit(UnitFunction unit) -> std::future<std::invoke_result_t<UnitFunction &, Database &>>;

    // Runs every unit pending now as one batch; returns how many ran.
    // External driver only: with Driver::OwnThread it does nothing and returns 0.
    std::size_t drainOnce();

    // External driver: called (on the submitting thread) each time the
    // queue goes from empty to non-empty. It should post a call of
    // drainOnce() to the driving thread, not drain itself (submit() may be
    // called from a completion, i.e. from inside a drain). Set it before the
    // first submit().
    void setWakeHandler(std::function<void()> wake);

    // Stops accepting units; the pending ones still run. Idempotent.
    void close();

    CommitQueueStats stats() const;
    std::size_t pendingCount() const;

    // Runs `epilogue` in every batch's transaction after its units and before
    // COMMIT, in a savepoint of its own, when the batch changed rows and at
    // least one unit of that transaction succeeded: what must be stored with
    // every commit that writes (the broker's clock mark). A batch of reads
    // only stays without a write (and without an fsync). It is no unit: it answers nobody and is not
    // counted in stats(); if it fails it is rolled back alone. Set before the
    // first submit().
    void setBatchEpilogue(Work epilogue);
    // A place where MayDefer units hand their writes (none: they write
    // themselves); several are flushed in the order they were added. Add
    // before the first submit().
    void addDeferredWrites(std::shared_ptr<DeferredWrites> writes);
    // Test hooks. Called on the writer thread after the batch's units ran and
    // before COMMIT — a test can hold the writer there to see that no future
    // is ready before the commit. Set before submitting.
    void setBeforeCommitHookForTesting(std::function<void()> hook);
    // Makes the next COMMIT fail with `failure` (the batch is rolled back), to
    // exercise the path a real disk-full or I/O error at commit takes.
    void failNextCommitForTesting(StoreStatus failure);

private:
    struct Unit {
        Work work;
        Completion done;
        UnitWrites writes = UnitWrites::Immediate;
    };

    void writerLoop();
    std::size_t drainPending();
    void lingerForCallers(std::unique_lock<std::mutex> &lock);
    std::size_t runBatch(std::vector<Unit> batch);
    StoreStatus runUnit(Unit &unit);
    bool flushDeferred(std::vector<StoreStatus> &results, std::size_t firstInTransaction, std::size_t end,
                       StoreResult<Transaction> &transaction);
    void runEpilogue(std::vector<StoreStatus> &results, std::size_t firstInTransaction,
                     StoreResult<Transaction> &transaction);

    Database &m_database;
    Driver m_driver = Driver::OwnThread;

    mutable std::mutex m_mutex;
    std::condition_variable m_wakeWriter;
    std::vector<Unit> m_pending;
    bool m_closed = false;
    CommitQueueStats m_stats;
    std::function<void()> m_wake;
    std::function<void()> m_beforeCommitHook;
    Work m_epilogue;
    std::vector<std::shared_ptr<DeferredWrites>> m_deferred;
    StoreStatus m_injectedCommitFailure;
    std::size_t m_lastBatchSize = 0;                 // units of the last batch
    std::chrono::microseconds m_lastCommitTime{0};   // how long its COMMIT took
    bool m_lingering = false;                        // the writer waits for the last batch's callers

    std::mutex m_drainMutex; // one batch at a time, whatever thread calls (defensive: drains never overlap)
    std::thread m_writer;
};

namespace detail {
inline const StoreStatus &unitStatus(const StoreStatus &status) { return status; }
template <class T>
const StoreStatus &unitStatus(const StoreResult<T> &result)
{
    static const StoreStatus okStatus;
    return result.ok() ? okStatus : result.status();
}
} // namespace detail

template <class UnitFunction>
auto CommitQueue::submit(UnitFunction unit) -> std::future<std::invoke_result_t<UnitFunction &, Database &>>
{
    using Reply = std::invoke_result_t<UnitFunction &, Database &>;
    struct Exchange {
        std::promise<Reply> promise;
        std::optional<Reply> reply; // written by the unit, read by the completion (same writer thread)
    };
    auto exchange = std::make_shared<Exchange>();
    std::future<Reply> future = exchange->promise.get_future();
    submit(
        [exchange, unit = std::move(unit)](Database &database) mutable -> StoreStatus {
            exchange->reply.emplace(unit(database));
            return detail::unitStatus(*exchange->reply);
        },
        [exchange](const StoreStatus &status) {
            if (status.ok() && exchange->reply)
                exchange->promise.set_value(std::move(*exchange->reply));
            else
                exchange->promise.set_value(Reply(status));
        });
    return future;
}

} // namespace relaydesk
