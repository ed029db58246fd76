// SPDX-License-Identifier: MIT
// Unit tests of CommitQueue (group commit, docs/behaviour.md §9): concurrent units share a
// transaction, each is answered only after its commit, a failing unit is
// rolled back alone, and disk-full / commit failures lose nothing already
// acknowledged. Deterministic: gates (promises) instead of sleeps or timings.

#include "store/commit_queue.h"
#include "store/database.h"
#include "store/statement.h"
#include "support/test_main.h"

#include <QTemporaryDir>
#include <QtTest>

#include <chrono>
#include <future>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

using namespace relaydesk;
using namespace std::chrono_literals;

namespace relaydesk {
namespace {

StoreStatus insertSetting(Database &db, const std::string &key, const std::string &value = "v")
{
    auto insert = db.prepareCached("INSERT INTO settings (key, value) VALUES (?, ?)");
    if (!insert.ok())
        return insert.status();
    if (StoreStatus status = (*insert)->bind(1, key); !status.ok())
        return status;
    if (StoreStatus status = (*insert)->bind(2, value); !status.ok())
        return status;
    return (*insert)->execute();
}

auto insertUnit(std::string key)
{
    return [key](Database &db) { return insertSetting(db, key); };
}

// The settings the test wrote that match `pattern` (the schema's own key, the
// receipt seal key, is not one of them).
std::int64_t countKeys(Database &db, const std::string &pattern)
{
    auto query = db.prepare("SELECT count(*) FROM settings WHERE key LIKE ? AND key <> 'receipt.seal_key'");
    if (!query.ok() || !query->bind(1, pattern).ok() || !query->step().ok())
        return -1;
    return query->columnInt64(0);
}

bool contains(const StoreStatus &status, const char *text) { return status.message().find(text) != std::string::npos; }

// DeferredWrites of settings keys: the units hand keys over; the flush
// inserts them in order and fails the unit whose key is refused.
class DeferredKeys final : public DeferredWrites {
public:
    void hand(std::string key) { m_keys.emplace_back(m_unit, std::move(key)); }
    int flushes = 0;

    void unitStarts(std::size_t unit) override { m_unit = unit; }
    void forget(std::size_t unit) override { std::erase_if(m_keys, [unit](const auto &key) { return key.first == unit; }); }
    bool pending() const override { return !m_keys.empty(); }
    std::vector<std::pair<std::size_t, StoreStatus>> flush(Database &db) override
    {
        ++flushes;
        std::vector<std::pair<std::size_t, StoreStatus>> failures;
        for (const auto &[unit, key] : std::exchange(m_keys, {})) {
            if (StoreStatus inserted = insertSetting(db, key); !inserted.ok())
                failures.emplace_back(unit, inserted);
        }
        return failures;
    }

private:
    std::size_t m_unit = 0;
    std::vector<std::pair<std::size_t, std::string>> m_keys;
};

} // namespace

class CommitQueueTest final : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::string path(const char *name) const { return m_dir.filePath(QString::fromUtf8(name)).toStdString(); }

    std::unique_ptr<Database> open(const std::string &file, OpenMode mode = OpenMode::ReadWrite)
    {
        DatabaseOptions options;
        options.mode = mode;
        auto opened = Database::open(file, options);
        if (!opened.ok())
            qWarning("%s", opened.status().toString().c_str());
        return opened.ok() ? std::move(opened).value() : nullptr;
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void concurrentSubmitters_shareTransactionsAndAllCommit()
    {
        auto db = open(path("group.db"));
        QVERIFY(db);
        CommitQueue queue(*db);

        // Hold the writer inside a first unit until every other unit is queued.
        std::promise<void> started;
        std::promise<void> gate;
        std::shared_future<void> gateOpen = gate.get_future().share();
        auto blocker = queue.submit([&started, gateOpen](Database &d) {
            started.set_value();
            gateOpen.wait();
            return insertSetting(d, "blocker");
        });
        started.get_future().wait();

        constexpr int kThreads = 8;
        constexpr int kUnitsPerThread = 25;
        constexpr int kUnits = kThreads * kUnitsPerThread;
        std::vector<std::vector<std::future<StoreStatus>>> futures(kThreads);
        std::vector<std::thread> submitters;
        for (int t = 0; t < kThreads; ++t) {
            submitters.emplace_back([&queue, &futures, t] {
                for (int i = 0; i < kUnitsPerThread; ++i)
                    futures[t].push_back(queue.submit(insertUnit("row-" + std::to_string(t) + "-" + std::to_string(i))));
            });
        }
        for (std::thread &submitter : submitters)
            submitter.join();
        QCOMPARE(queue.pendingCount(), std::size_t(kUnits));
        gate.set_value();

        QVERIFY(blocker.get().ok());
        for (auto &perThread : futures) {
            for (auto &future : perThread) {
                const StoreStatus status = future.get();
                QVERIFY2(status.ok(), status.toString().c_str());
            }
        }
        const CommitQueueStats stats = queue.stats();
        QCOMPARE(stats.units, std::uint64_t(kUnits + 1));
        QVERIFY(stats.batches < std::uint64_t(kUnits));
        QCOMPARE(stats.batches, std::uint64_t(2)); // the blocker alone, then everything queued behind it
        QCOMPARE(stats.largestBatch, std::uint64_t(kUnits));
        QCOMPARE(stats.failedUnits, std::uint64_t(0));

        auto reader = open(path("group.db"), OpenMode::ReadOnly);
        QVERIFY(reader);
        QCOMPARE(countKeys(*reader, "row-%"), std::int64_t(kUnits));
        QCOMPARE(countKeys(*reader, "blocker"), 1);
    }

    void failingUnit_isRolledBackAloneAndOthersCommit()
    {
        auto db = open(path("failing-unit.db"));
        QVERIFY(db);
        CommitQueue queue(*db, CommitQueue::Driver::External);
        auto a = queue.submit(insertUnit("a"));
        auto b = queue.submit([](Database &d) {
            insertSetting(d, "b");
            return StoreStatus::failed("rejected by a broker rule");
        });
        auto c = queue.submit([](Database &d) -> StoreStatus {
            insertSetting(d, "c");
            throw std::runtime_error("boom");
        });
        auto duplicate = queue.submit(insertUnit("a"));
        auto e = queue.submit(insertUnit("e"));
        QCOMPARE(queue.drainOnce(), std::size_t(5));

        QVERIFY(a.get().ok());
        const StoreStatus bStatus = b.get();
        QCOMPARE(bStatus.kind(), StoreStatus::Kind::Failed);
        QVERIFY(contains(bStatus, "rejected by a broker rule"));
        const StoreStatus cStatus = c.get();
        QCOMPARE(cStatus.kind(), StoreStatus::Kind::Failed);
        QVERIFY(contains(cStatus, "boom"));
        QCOMPARE(duplicate.get().kind(), StoreStatus::Kind::Constraint);
        QVERIFY(e.get().ok());

        QCOMPARE(countKeys(*db, "%"), 2);
        QCOMPARE(countKeys(*db, "a"), 1);
        QCOMPARE(countKeys(*db, "e"), 1);
        QCOMPARE(queue.stats().batches, std::uint64_t(1));
        QCOMPARE(queue.stats().failedUnits, std::uint64_t(3));
    }

    // Units that defer hand their writes over; the queue flushes them before a
    // unit that does not defer (which sees them) and before COMMIT; a refused
    // hand-over fails its own unit only, a unit that fails has its hand-overs
    // forgotten.
    void deferredWrites_flushedInOrder_eachUnitKeepsItsOutcome()
    {
        auto db = open(path("deferred.db"));
        QVERIFY(db);
        CommitQueue queue(*db, CommitQueue::Driver::External);
        auto keys = std::make_shared<DeferredKeys>();
        queue.addDeferredWrites(keys);
        std::vector<StoreStatus> results(6);
        const auto deferring = [&](std::size_t i, std::string key, bool fail = false) {
            queue.submit(
                [keys, key, fail](Database &) {
                    keys->hand(key);
                    return fail ? StoreStatus::failed("refused before writing") : StoreStatus();
                },
                [&results, i](const StoreStatus &status) { results[i] = status; }, UnitWrites::MayDefer);
        };
        std::int64_t seenByImmediate = -1;
        deferring(0, "d1");
        deferring(1, "d2", true);
        queue.submit([&seenByImmediate](Database &d) {
            seenByImmediate = countKeys(d, "d%");
            return StoreStatus();
        }, [&results](const StoreStatus &status) { results[2] = status; });
        deferring(3, "d3");
        deferring(4, "d1");   // refused: the key is there
        deferring(5, "d4");
        QCOMPARE(queue.drainOnce(), std::size_t(6));

        QCOMPARE(seenByImmediate, std::int64_t(1));
        QCOMPARE(keys->flushes, 2);
        QVERIFY(results[0].ok());
        QVERIFY(contains(results[1], "refused before writing"));
        QVERIFY(results[2].ok());
        QVERIFY(results[3].ok());
        QCOMPARE(results[4].kind(), StoreStatus::Kind::Constraint);
        QVERIFY(results[5].ok());
        QCOMPARE(countKeys(*db, "d%"), 3);
        QCOMPARE(countKeys(*db, "d2"), 0);
        QCOMPARE(queue.stats().batches, std::uint64_t(1));
    }

    void unitErrorEndingTheTransaction_failsEarlierUnitsAndLaterOnesCommit()
    {
        // What SQLite does after some SQLITE_FULL / I/O errors: it rolls back
        // the whole transaction. Simulated by a unit that ends it itself.
        auto db = open(path("lost-transaction.db"));
        QVERIFY(db);
        CommitQueue queue(*db, CommitQueue::Driver::External);
        auto before = queue.submit(insertUnit("before"));
        auto breaking = queue.submit([](Database &d) {
            insertSetting(d, "breaking");
            d.execute("ROLLBACK");
            return StoreStatus::ioError("simulated write error");
        });
        auto after = queue.submit(insertUnit("after"));
        QCOMPARE(queue.drainOnce(), std::size_t(3));

        const StoreStatus beforeStatus = before.get();
        QCOMPARE(beforeStatus.kind(), StoreStatus::Kind::IoError);
        QVERIFY(contains(beforeStatus, "rolled back with its batch"));
        QCOMPARE(breaking.get().kind(), StoreStatus::Kind::IoError);
        QVERIFY(after.get().ok());
        QCOMPARE(countKeys(*db, "%"), 1);
        QCOMPARE(countKeys(*db, "after"), 1);
    }

    void future_isNotReadyBeforeItsCommit()
    {
        const std::string file = path("not-before-commit.db");
        auto db = open(file);
        QVERIFY(db);
        auto reader = open(file, OpenMode::ReadOnly);
        QVERIFY(reader);
        CommitQueue queue(*db);

        std::promise<void> atCommit;
        std::promise<void> release;
        std::shared_future<void> released = release.get_future().share();
        queue.setBeforeCommitHookForTesting([&atCommit, released] {
            atCommit.set_value();
            released.wait();
        });
        auto future = queue.submit(insertUnit("pending"));
        atCommit.get_future().wait(); // the unit has run; COMMIT has not

        QCOMPARE(future.wait_for(0s), std::future_status::timeout);
        QCOMPARE(countKeys(*reader, "pending"), 0); // not visible to others either
        release.set_value();

        QVERIFY(future.get().ok());
        QCOMPARE(countKeys(*reader, "pending"), 1);
    }

    void submit_unitReturningValue_deliversItAfterCommit()
    {
        auto db = open(path("value.db"));
        QVERIFY(db);
        CommitQueue queue(*db);
        auto id = queue.submit([](Database &d) -> StoreResult<std::int64_t> {
            if (StoreStatus status = d.execute("INSERT INTO queues (name, created_ms, last_used_ms) VALUES ('q', 0, 0)");
                !status.ok())
                return status;
            return d.lastInsertRowId();
        });
        auto refused = queue.submit([](Database &) -> StoreResult<std::int64_t> {
            return StoreStatus::constraint("queue already exists");
        });
        const StoreResult<std::int64_t> created = id.get();
        QVERIFY(created.ok());
        QCOMPARE(*created, 1);
        const StoreResult<std::int64_t> rejected = refused.get();
        QVERIFY(!rejected.ok());
        QCOMPARE(rejected.status().kind(), StoreStatus::Kind::Constraint);
    }

    void diskFull_unitGetsDiskFullAndCommittedRowsStayIntact()
    {
        const std::string file = path("disk-full.db");
        {
            auto db = open(file);
            QVERIFY(db);
            CommitQueue queue(*db);
            std::vector<std::future<StoreStatus>> earlier;
            for (int i = 0; i < 10; ++i)
                earlier.push_back(queue.submit(insertUnit("kept-" + std::to_string(i))));
            for (auto &future : earlier)
                QVERIFY(future.get().ok());

            auto full = queue.submit([](Database &d) -> StoreStatus {
                const StoreResult<std::int64_t> pages = d.queryInt64("PRAGMA page_count");
                if (!pages.ok())
                    return pages.status();
                if (StoreStatus status = d.execute("PRAGMA max_page_count = " + std::to_string(*pages)); !status.ok())
                    return status;
                return insertSetting(d, "too-big", std::string(1 << 20, 'x'));
            });
            const StoreStatus status = full.get();
            QCOMPARE(status.kind(), StoreStatus::Kind::DiskFull);

            // Space comes back: the store keeps working.
            auto recovered = queue.submit([](Database &d) -> StoreStatus {
                if (StoreStatus status = d.execute("PRAGMA max_page_count = 1073741823"); !status.ok())
                    return status;
                return insertSetting(d, "after-full");
            });
            QVERIFY(recovered.get().ok());
            QCOMPARE(countKeys(*db, "kept-%"), 10);
            QCOMPARE(countKeys(*db, "too-big"), 0);
        }
        auto reopened = open(file); // runs quick_check
        QVERIFY(reopened);
        QCOMPARE(countKeys(*reopened, "kept-%"), 10);
        QCOMPARE(countKeys(*reopened, "after-full"), 1);
        QCOMPARE(countKeys(*reopened, "too-big"), 0);
    }

    void commitFailure_everyUnitGetsTheErrorAndNothingIsVisible()
    {
        auto db = open(path("commit-failure.db"));
        QVERIFY(db);
        CommitQueue queue(*db, CommitQueue::Driver::External);
        queue.failNextCommitForTesting(StoreStatus::ioError("simulated fsync failure"));
        std::vector<std::future<StoreStatus>> batch;
        for (int i = 0; i < 3; ++i)
            batch.push_back(queue.submit(insertUnit("lost-" + std::to_string(i))));
        QCOMPARE(queue.drainOnce(), std::size_t(3));
        for (auto &future : batch) {
            const StoreStatus status = future.get();
            QCOMPARE(status.kind(), StoreStatus::Kind::IoError);
            QVERIFY(contains(status, "commit failed"));
        }
        QCOMPARE(countKeys(*db, "lost-%"), 0);
        QCOMPARE(queue.stats().failedCommits, std::uint64_t(1));

        auto next = queue.submit(insertUnit("next"));
        QCOMPARE(queue.drainOnce(), std::size_t(1));
        QVERIFY(next.get().ok());
        QCOMPARE(countKeys(*db, "next"), 1);
    }

    void externalDriver_wakeHandlerFiresWhenQueueBecomesNonEmpty()
    {
        auto db = open(path("wake.db"));
        QVERIFY(db);
        CommitQueue queue(*db, CommitQueue::Driver::External);
        int wakes = 0;
        queue.setWakeHandler([&wakes] { ++wakes; });
        auto first = queue.submit(insertUnit("w1"));
        auto second = queue.submit(insertUnit("w2"));
        QCOMPARE(wakes, 1);
        QCOMPARE(first.wait_for(0s), std::future_status::timeout); // nothing runs until drained
        QCOMPARE(queue.drainOnce(), std::size_t(2));
        QCOMPARE(queue.drainOnce(), std::size_t(0));
        auto third = queue.submit(insertUnit("w3"));
        QCOMPARE(wakes, 2);
        QCOMPARE(queue.drainOnce(), std::size_t(1));
        QVERIFY(first.get().ok() && second.get().ok() && third.get().ok());
    }

    void close_pendingUnitsStillCommitAndLaterSubmitsAreRefused()
    {
        auto db = open(path("close.db"));
        QVERIFY(db);
        std::future<StoreStatus> pending;
        {
            CommitQueue queue(*db, CommitQueue::Driver::External);
            pending = queue.submit(insertUnit("pending"));
            queue.close();
            auto refused = queue.submit(insertUnit("refused"));
            QCOMPARE(refused.wait_for(0s), std::future_status::ready);
            QCOMPARE(refused.get().kind(), StoreStatus::Kind::Closed);
        } // the destructor drains what was queued before close()
        QVERIFY(pending.get().ok());
        QCOMPARE(countKeys(*db, "pending"), 1);
        QCOMPARE(countKeys(*db, "refused"), 0);
    }
};

} // namespace relaydesk

RELAYDESK_TEST_MAIN(relaydesk::CommitQueueTest)
#include "commit_queue_test.moc"
