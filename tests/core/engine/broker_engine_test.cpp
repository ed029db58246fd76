// SPDX-License-Identifier: MIT
// Tests of BrokerEngine's command path: units from any thread run on the
// broker thread, share commits (group commit), and are answered only after
// their batch committed; unit errors and store failures come back as values;
// stop() commits everything pending. Gates instead of sleeps.
#include "engine/broker_engine.h"

#include "broker/wall_time_source.h"
#include "support/engine_test_support.h"
#include "support/test_main.h"

#include <QSignalSpy>
#include <QTest>

#include <atomic>
#include <future>
#include <thread>
#include <vector>

using namespace relaydesk;
using namespace relaydesk::testing;

class BrokerEngineTest final : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    SystemWallTimeSource m_wall;

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void unit_runsOnBrokerThreadAndRepliesToContext()
    {
        BrokerEngine engine(openDatabase(m_dir, "context.db"), m_wall);
        QThread *unitThread = nullptr;
        QThread *replyThread = nullptr;
        std::optional<Result<std::int64_t>> reply;
        engine.execute(
            [&unitThread](Database &db, ClockTime) {
                unitThread = QThread::currentThread();
                return insertSetting(db, "a");
            },
            this,
            [&](Result<std::int64_t> result) {
                replyThread = QThread::currentThread();
                reply.emplace(std::move(result));
            });
        QTRY_VERIFY_WITH_TIMEOUT(reply.has_value(), 30000);
        QVERIFY(reply->ok());
        QCOMPARE(replyThread, QThread::currentThread());
        QVERIFY(unitThread != nullptr && unitThread != QThread::currentThread());
    }

    void stdFunctionForm_andUnitContext()
    {
        BrokerEngine engine(openDatabase(m_dir, "forms.db"), m_wall);
        std::promise<Result<int>> promise;
        engine.execute<int>(
            std::function<Result<int>(Database &, ClockTime)>([](Database &, ClockTime) { return Result<int>(7); }),
            nullptr, std::function<void(Result<int>)>([&promise](Result<int> r) { promise.set_value(std::move(r)); }));
        Result<int> first = promise.get_future().get();
        QVERIFY(first.ok());
        QCOMPARE(*first, 7);

        const Status second = engine.executeAndWait([](UnitContext &context) -> Status {
            if (!insertSetting(context.database(), "ctx").ok())
                return BrokerError(BrokerErrorCode::InternalError, "insert");
            return {};
        });
        QVERIFY(second.ok());
        const Result<std::int64_t> count = engine.executeAndWait([](Database &db, ClockTime) { return countSettings(db, "ctx"); });
        QVERIFY(count.ok());
        QCOMPARE(*count, 1);
    }

    void concurrentThreads_allCommittedInFewerBatches()
    {
        BrokerEngine engine(openDatabase(m_dir, "group.db"), m_wall);
        // Hold the first batch's commit until every unit is queued, so the rest must share batches.
        std::promise<void> gate;
        std::shared_future<void> gateOpen = gate.get_future().share();
        std::atomic<bool> first{true};
        engine.setBeforeCommitHookForTesting([&first, gateOpen] {
            if (first.exchange(false))
                gateOpen.wait();
        });

        constexpr int kThreads = 16;
        constexpr int kPerThread = 25;
        std::atomic<int> okReplies{0};
        std::atomic<int> submitted{0};
        std::vector<std::thread> threads;
        for (int t = 0; t < kThreads; ++t) {
            threads.emplace_back([&engine, &okReplies, &submitted, t] {
                for (int i = 0; i < kPerThread; ++i) {
                    const std::string key = "g" + std::to_string(t) + "-" + std::to_string(i);
                    engine.execute([key](Database &db, ClockTime) { return insertSetting(db, key); }, nullptr,
                                   [&okReplies](Result<std::int64_t> r) {
                                       if (r.ok())
                                           okReplies.fetch_add(1);
                                   });
                    submitted.fetch_add(1);
                }
            });
        }
        for (std::thread &thread : threads)
            thread.join();
        QCOMPARE(submitted.load(), kThreads * kPerThread);
        gate.set_value();

        const Result<std::int64_t> count = engine.executeAndWait([](Database &db, ClockTime) { return countSettings(db, "g%"); });
        QVERIFY(count.ok());
        QCOMPARE(*count, kThreads * kPerThread);
        QCOMPARE(okReplies.load(), kThreads * kPerThread); // replies of earlier batches ran before the count's
        const CommitQueueStats stats = engine.commitStats();
        QCOMPARE(stats.units, std::uint64_t(kThreads * kPerThread + 1));
        QVERIFY2(stats.batches < stats.units, "units shared no commit");
        QCOMPARE(stats.failedUnits, std::uint64_t(0));
        engine.setBeforeCommitHookForTesting({});
    }

    void reply_neverBeforeCommit()
    {
        BrokerEngine engine(openDatabase(m_dir, "hook.db"), m_wall);
        std::promise<void> inHook;
        std::promise<void> release;
        std::shared_future<void> released = release.get_future().share();
        std::atomic<bool> armed{true};
        engine.setBeforeCommitHookForTesting([&] {
            if (armed.exchange(false)) {
                inHook.set_value();
                released.wait();
            }
        });
        std::atomic<bool> replied{false};
        std::promise<void> repliedPromise;
        engine.execute([](Database &db, ClockTime) { return insertSetting(db, "held"); }, nullptr,
                       [&](Result<std::int64_t> r) {
                           replied.store(r.ok());
                           repliedPromise.set_value();
                       });
        inHook.get_future().wait(); // the unit ran; its batch is about to commit
        QVERIFY(!replied.load());
        auto reader = openDatabase(m_dir, "hook.db", OpenMode::ReadOnly);
        QVERIFY(reader);
        QCOMPARE(*countSettings(*reader, "held"), 0); // not visible before COMMIT
        release.set_value();
        repliedPromise.get_future().wait();
        QVERIFY(replied.load());
        QCOMPARE(*countSettings(*reader, "held"), 1); // durable by the time of the reply
        engine.setBeforeCommitHookForTesting({});
    }

    void unitError_isItsReplyAndRolledBackAlone()
    {
        BrokerEngine engine(openDatabase(m_dir, "errors.db"), m_wall);
        const Result<int> rejected = engine.executeAndWait([](Database &db, ClockTime) -> Result<int> {
            (void)insertSetting(db, "rolled-back");
            return BrokerError(BrokerErrorCode::QueueDoesNotExist, "no such queue");
        });
        QVERIFY(!rejected.ok());
        QCOMPARE(rejected.error().code, BrokerErrorCode::QueueDoesNotExist);
        QCOMPARE(rejected.error().message, std::string("no such queue"));

        const Result<int> thrown = engine.executeAndWait([](Database &, ClockTime) -> Result<int> { throw std::runtime_error("boom"); });
        QVERIFY(!thrown.ok());
        QCOMPARE(thrown.error().code, BrokerErrorCode::InternalError);
        QVERIFY(thrown.error().message.find("boom") != std::string::npos);

        const Result<std::int64_t> count = engine.executeAndWait([](Database &db, ClockTime) { return countSettings(db, "rolled-back"); });
        QCOMPARE(*count, 0);
    }

    void commitFailure_isInternalErrorWithStoreMessage()
    {
        BrokerEngine engine(openDatabase(m_dir, "diskfull.db"), m_wall);
        engine.failNextCommitForTesting(StoreStatus::diskFull("database or disk is full"));
        const Result<std::int64_t> failed = engine.executeAndWait([](Database &db, ClockTime) { return insertSetting(db, "lost"); });
        QVERIFY(!failed.ok());
        QCOMPARE(failed.error().code, BrokerErrorCode::InternalError);
        QVERIFY(failed.error().message.find("disk is full") != std::string::npos);
        const Result<std::int64_t> count = engine.executeAndWait([](Database &db, ClockTime) { return countSettings(db, "lost"); });
        QCOMPARE(*count, 0); // nothing of the failed batch is visible
    }

    void stop_commitsPendingAndLaterCallsFail()
    {
        std::atomic<int> okReplies{0};
        constexpr int kUnits = 200;
        {
            BrokerEngine engine(openDatabase(m_dir, "stop.db"), m_wall);
            for (int i = 0; i < kUnits; ++i)
                engine.execute([i](Database &db, ClockTime) { return insertSetting(db, "s" + std::to_string(i)); }, nullptr,
                               [&okReplies](Result<std::int64_t> r) { okReplies.fetch_add(r.ok() ? 1 : 0); });
            engine.stop();
            QCOMPARE(okReplies.load(), kUnits);
            QCOMPARE(engine.commitStats().units, std::uint64_t(kUnits));

            const Result<int> late = engine.executeAndWait([](Database &, ClockTime) { return Result<int>(1); });
            QVERIFY(!late.ok());
            QCOMPARE(late.error().code, BrokerErrorCode::InternalError);
            engine.stop(); // idempotent
        }
        auto reopened = openDatabase(m_dir, "stop.db"); // the write lock was released with the engine
        QVERIFY(reopened);
        QCOMPARE(*countSettings(*reopened, "s%"), kUnits);
    }

    void destroyedContext_dropsReply()
    {
        BrokerEngine engine(openDatabase(m_dir, "dropped.db"), m_wall);
        bool called = false;
        auto context = std::make_unique<QObject>();
        std::promise<void> gate;
        std::shared_future<void> open = gate.get_future().share();
        engine.execute([open](Database &, ClockTime) { open.wait(); return Result<int>(1); }, context.get(),
                       [&called](Result<int>) { called = true; });
        context.reset();
        gate.set_value();
        QVERIFY(engine.executeAndWait([](Database &, ClockTime) { return Result<int>(2); }).ok());
        QCoreApplication::processEvents();
        QVERIFY(!called);
    }
};

RELAYDESK_TEST_MAIN(BrokerEngineTest)
#include "broker_engine_test.moc"
