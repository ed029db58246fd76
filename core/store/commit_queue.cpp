// SPDX-License-Identifier: MIT
#include "store/commit_queue.h"

#include "store/database.h"
#include "store/transaction.h"

#include <algorithm>
#include <chrono>
#include <exception>
#include <utility>

namespace relaydesk {

namespace {

// Completions are caller code: nothing they throw may escape the writer.
void complete(const CommitQueue::Completion &done, const StoreStatus &status)
{
    if (!done)
        return;
    try {
        done(status);
    } catch (...) {
    }
}

} // namespace

CommitQueue::CommitQueue(Database &database, Driver driver) : m_database(database), m_driver(driver)
{
    if (m_driver == Driver::OwnThread)
        m_writer = std::thread([this] { writerLoop(); });
}

CommitQueue::~CommitQueue()
{
    close();
    if (m_writer.joinable())
        m_writer.join();
    else
        while (drainPending() > 0) {
        }
}

void CommitQueue::submit(Work work, Completion done, UnitWrites writes)
{
    std::function<void()> wake;
    {
        std::unique_lock lock(m_mutex);
        if (m_closed) {
            lock.unlock();
            complete(done, StoreStatus::closed("the store is shutting down; the operation was not performed"));
            return;
        }
        const bool wasEmpty = m_pending.empty();
        m_pending.push_back(Unit{std::move(work), std::move(done), writes});
        if (m_lingering && m_pending.size() >= m_lastBatchSize)
            m_wakeWriter.notify_all();
        if (!wasEmpty)
            return;
        if (m_driver == Driver::OwnThread) {
            m_wakeWriter.notify_one();
            return;
        }
        wake = m_wake;
    }
    if (wake)
        wake(); // outside the lock, so the handler may submit or query the queue
}

std::size_t CommitQueue::drainOnce()
{
    if (m_driver == Driver::OwnThread)
        return 0; // the own writer thread drives
    return drainPending();
}

std::size_t CommitQueue::drainPending()
{
    std::lock_guard drain(m_drainMutex);
    std::vector<Unit> batch;
    {
        std::unique_lock lock(m_mutex);
        lingerForCallers(lock);
        batch.swap(m_pending);
    }
    if (batch.empty())
        return 0;
    return runBatch(std::move(batch));
}

// Group commit works best when the callers answered by the last commit are
// in the next batch too, but they need a moment to send their next unit
// (their thread must wake up, and on a busy machine be scheduled). If fewer
// units are pending than the last batch had, wait a little for them: at
// most half the last COMMIT's time (so waiting never costs more than the
// fsync it saves), and never more than kMaxLinger.
void CommitQueue::lingerForCallers(std::unique_lock<std::mutex> &lock)
{
    constexpr std::chrono::microseconds kMaxLinger{2000};
    if (m_closed || m_pending.empty() || m_pending.size() >= m_lastBatchSize || m_lastBatchSize < 2)
        return;
    const auto linger = std::min(kMaxLinger, m_lastCommitTime / 2);
    if (linger.count() <= 0)
        return;
    m_lingering = true;
    m_wakeWriter.wait_for(lock, linger, [this] { return m_closed || m_pending.size() >= m_lastBatchSize; });
    m_lingering = false;
}

void CommitQueue::writerLoop()
{
    for (;;) {
        {
            std::unique_lock lock(m_mutex);
            m_wakeWriter.wait(lock, [this] { return m_closed || !m_pending.empty(); });
            if (m_closed && m_pending.empty())
                return;
        }
        drainPending();
    }
}

StoreStatus CommitQueue::runUnit(Unit &unit)
{
    StoreResult<Savepoint> savepoint = Savepoint::begin(m_database, "unit");
    if (!savepoint.ok())
        return savepoint.status();
    StoreStatus status;
    try {
        status = unit.work ? unit.work(m_database) : StoreStatus::misuse("empty unit of work");
    } catch (const std::exception &error) {
        status = StoreStatus::failed(std::string("the operation threw: ") + error.what());
    } catch (...) {
        status = StoreStatus::failed("the operation threw an unknown exception");
    }
    if (!status.ok()) {
        savepoint->rollback();
        return status;
    }
    return savepoint->release();
}

// Does the writes the units [firstInTransaction, end) handed over; a unit
// whose writes failed gets that error. If SQLite rolled the transaction back
// meanwhile, every unit of it gets the error and a new transaction begins:
// returns true then.
bool CommitQueue::flushDeferred(std::vector<StoreStatus> &results, std::size_t firstInTransaction, std::size_t end,
                                StoreResult<Transaction> &transaction)
{
    std::vector<std::shared_ptr<DeferredWrites>> deferred;
    {
        std::lock_guard lock(m_mutex);
        deferred = m_deferred;
    }
    if (!transaction.ok())
        return false;
    StoreStatus lost = StoreStatus::failed("the batch's deferred writes failed");
    for (const auto &writes : deferred) {
        if (!writes->pending())
            continue;
        for (auto &[unit, status] : writes->flush(m_database)) {
            if (unit < end && results[unit].ok())
                results[unit] = status;
            lost = status;
        }
        if (!m_database.inTransaction())
            break;
    }
    if (m_database.inTransaction())
        return false;
    for (const auto &writes : deferred)
        for (std::size_t j = firstInTransaction; j < end; ++j)
            writes->forget(j);
    for (std::size_t j = firstInTransaction; j < end; ++j) {
        if (results[j].ok())
            results[j] = lost.withContext("rolled back with its batch");
    }
    transaction->rollback();
    transaction = Transaction::begin(m_database);
    return true;
}

void CommitQueue::runEpilogue(std::vector<StoreStatus> &results, std::size_t firstInTransaction,
                              StoreResult<Transaction> &transaction)
{
    Unit epilogue;
    {
        std::lock_guard lock(m_mutex);
        epilogue.work = m_epilogue;
    }
    const bool anyCommitting = std::any_of(results.begin() + static_cast<std::ptrdiff_t>(firstInTransaction),
                                           results.end(), [](const StoreStatus &status) { return status.ok(); });
    if (!epilogue.work || !transaction.ok() || !anyCommitting)
        return;
    const StoreStatus status = runUnit(epilogue);
    if (status.ok() || m_database.inTransaction())
        return;
    // SQLite rolled the whole transaction back: the units in it are gone too.
    for (std::size_t j = firstInTransaction; j < results.size(); ++j) {
        if (results[j].ok())
            results[j] = status.withContext("rolled back with its batch");
    }
    transaction->rollback();
    transaction = Transaction::begin(m_database);
}

std::size_t CommitQueue::runBatch(std::vector<Unit> batch)
{
    const auto started = std::chrono::steady_clock::now();
    std::vector<StoreStatus> results(batch.size());
    std::size_t firstInTransaction = 0; // units run in the current transaction start here
    const std::int64_t changesBefore = m_database.totalChanges();
    StoreResult<Transaction> transaction = Transaction::begin(m_database);
    std::vector<std::shared_ptr<DeferredWrites>> deferred;
    {
        std::lock_guard lock(m_mutex);
        deferred = m_deferred;
    }
    const auto forget = [&deferred](std::size_t unit) {
        for (const auto &writes : deferred)
            writes->forget(unit);
    };
    for (std::size_t i = 0; i < batch.size(); ++i) {
        if (!transaction.ok()) {
            results[i] = transaction.status().withContext("cannot start the write transaction");
            continue;
        }
        const bool defers = batch[i].writes == UnitWrites::MayDefer;
        if (defers) {
            for (const auto &writes : deferred)
                writes->unitStarts(i);
        } else if (flushDeferred(results, firstInTransaction, i, transaction)) {
            firstInTransaction = i;
        }
        results[i] = runUnit(batch[i]);
        if (defers && !results[i].ok())
            forget(i);
        if (results[i].ok() || m_database.inTransaction())
            continue;
        // SQLite rolled the whole transaction back after this unit's error:
        // the units run before it in this transaction are gone too.
        for (std::size_t j = firstInTransaction; j < i; ++j) {
            if (results[j].ok())
                results[j] = results[i].withContext("rolled back with its batch");
            forget(j);
        }
        firstInTransaction = i + 1;
        transaction->rollback(); // forget the dead one before a new BEGIN
        transaction = Transaction::begin(m_database);
    }
    if (flushDeferred(results, firstInTransaction, batch.size(), transaction))
        firstInTransaction = batch.size();

    if (m_database.totalChanges() != changesBefore) // a batch of reads only stays without a write
        runEpilogue(results, firstInTransaction, transaction);

    std::function<void()> hook;
    StoreStatus injected;
    {
        std::lock_guard lock(m_mutex);
        hook = m_beforeCommitHook;
        injected = std::exchange(m_injectedCommitFailure, StoreStatus());
    }
    if (hook)
        hook();

    const auto committing = std::chrono::steady_clock::now();
    StoreStatus commit;
    if (transaction.ok()) {
        if (!injected.ok()) {
            transaction->rollback();
            commit = injected;
        } else {
            commit = transaction->commit();
        }
    }
    if (!commit.ok()) {
        for (std::size_t j = firstInTransaction; j < batch.size(); ++j) {
            if (results[j].ok())
                results[j] = commit.withContext("commit failed");
        }
    }

    const auto committed = std::chrono::steady_clock::now();
    const auto micros = [](auto duration) {
        return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::microseconds>(duration).count());
    };
    {
        std::lock_guard lock(m_mutex);
        m_lastBatchSize = batch.size();
        m_lastCommitTime = std::chrono::duration_cast<std::chrono::microseconds>(committed - committing);
        m_stats.unitMicroseconds += micros(committing - started);
        m_stats.commitMicroseconds += micros(committed - committing);
        ++m_stats.batches;
        m_stats.units += batch.size();
        m_stats.failedUnits += std::count_if(results.begin(), results.end(), [](const StoreStatus &s) { return !s.ok(); });
        m_stats.failedCommits += commit.ok() ? 0 : 1;
        m_stats.largestBatch = std::max<std::uint64_t>(m_stats.largestBatch, batch.size());
    }
    for (std::size_t i = 0; i < batch.size(); ++i)
        complete(batch[i].done, results[i]);
    return batch.size();
}

void CommitQueue::setWakeHandler(std::function<void()> wake)
{
    std::lock_guard lock(m_mutex);
    m_wake = std::move(wake);
}

void CommitQueue::close()
{
    {
        std::lock_guard lock(m_mutex);
        m_closed = true;
    }
    m_wakeWriter.notify_all();
}

CommitQueueStats CommitQueue::stats() const
{
    std::lock_guard lock(m_mutex);
    return m_stats;
}

std::size_t CommitQueue::pendingCount() const
{
    std::lock_guard lock(m_mutex);
    return m_pending.size();
}

void CommitQueue::setBatchEpilogue(Work epilogue)
{
    std::lock_guard lock(m_mutex);
    m_epilogue = std::move(epilogue);
}

void CommitQueue::addDeferredWrites(std::shared_ptr<DeferredWrites> writes)
{
    std::lock_guard lock(m_mutex);
    m_deferred.push_back(std::move(writes));
}

void CommitQueue::setBeforeCommitHookForTesting(std::function<void()> hook)
{
    std::lock_guard lock(m_mutex);
    m_beforeCommitHook = std::move(hook);
}

void CommitQueue::failNextCommitForTesting(StoreStatus failure)
{
    std::lock_guard lock(m_mutex);
    m_injectedCommitFailure = std::move(failure);
}

} // namespace relaydesk
