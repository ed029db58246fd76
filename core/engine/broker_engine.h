// SPDX-License-Identifier: MIT
#pragma once

#include "broker/clock.h"
#include "broker/result.h"
#include "broker/store_failure.h"
#include "engine/entity_change.h"
#include "engine/reply_target.h"
#include "engine/unit_context.h"
#include "store/commit_queue.h"
#include "store/store_status.h"

#include <QList>
#include <QObject>
#include <QThread>

#include <atomic>

#include <chrono>
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <shared_mutex>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace relaydesk {

class BrokerMetrics;
class BrokerThread;
class ClockScheduler;
class Database;
class PendingSends;
class WaiterRegistry;
class WallTimeSource;

struct BrokerEngineOptions {
    ClockMode clockMode = ClockMode::Real;
    double clockScale = 1.0;                  // scaled mode only
    std::optional<ClockTime> clockStart;      // default: the wall calendar time; never before the database's clock mark
    // Change events are coalesced for this long before one changesPublished
    // (a UI throttle, wall time). Zero: on the next event-loop turn.
    std::chrono::milliseconds changeInterval{250};
};

namespace detail {
template <class Unit>
auto invokeUnit(Unit &unit, UnitContext &context)
{
    if constexpr (std::is_invocable_v<Unit &, UnitContext &>)
        return unit(context);
    else
        return unit(context.database(), context.now());
}
template <class Unit>
using UnitResult = decltype(invokeUnit(std::declval<Unit &>(), std::declval<UnitContext &>()));
} // namespace detail

// The broker thread (docs/architecture.md §3). Commands come from any
// thread as units of work — `Result<T>(Database &, ClockTime now)` or
// `Result<T>(UnitContext &)` — and run on the broker thread, which owns the
// write connection; units arriving together share one transaction and one
// fsync (group commit), and each reply is given only after its unit's batch
// committed. A unit's error rolls back that unit alone and is its reply; a
// store failure (commit, disk full, I/O) is replied as InternalError with the
// store's message. The broker thread also runs the clock's timer service
// (scheduler()), the long-poll waiters (waiters()), virtual-clock advances,
// and coalesces the entity changes units report into changesPublished.
//
// Ownership: owns the QThread, the Clock and (through the broker thread) the
// write Database and its CommitQueue. The WallTimeSource must outlive it.
// Thread: the object lives on the thread that made it (changesPublished is
// emitted there); execute/advance/post/notify and the other "any thread"
// methods are safe everywhere; scheduler() and waiters() are for code running
// on the broker thread (units' replies without context, scheduled callbacks,
// post()ed functions).
class BrokerEngine final : public QObject {
    Q_OBJECT

public:
    // Takes the write connection (opened read-write by the caller; must not
    // be null) and starts the broker thread.
    BrokerEngine(std::unique_ptr<Database> database, WallTimeSource &wall, BrokerEngineOptions options = {},
                 QObject *parent = nullptr);
    // stop().
    ~BrokerEngine() override;
    BrokerEngine(const BrokerEngine &) = delete;
    BrokerEngine &operator=(const BrokerEngine &) = delete;

    // Any thread. Runs `unit` on the broker thread; after its batch committed
    // (or failed), `reply(Result<T>)` is posted to `context`'s thread, or —
    // with a null context — called on the broker thread at once (it must be
    // quick). A reply whose context was destroyed meanwhile is dropped.
    // After stop(), the reply is an InternalError, given at once.
    // `writes` MayDefer: the unit may hand its sends to pendingSends() (set-based
    // at the flush; docs/architecture.md §4).
    template <class Unit, class Reply>
    void execute(Unit unit, QObject *context, Reply reply, UnitWrites writes = UnitWrites::Immediate);
    template <class T>
    void execute(std::function<Result<T>(Database &, ClockTime)> unit, QObject *context,
                 std::function<void(Result<T>)> reply)
    {
        execute<decltype(unit), decltype(reply)>(std::move(unit), context, std::move(reply));
    }
    // Blocking convenience (tests, CLI): waits for the reply. Not on the broker thread.
    template <class Unit>
    detail::UnitResult<Unit> executeAndWait(Unit unit);

    // Any thread. Virtual mode only (ClockNotVirtual otherwise): moves the
    // clock to each due time up to now()+by / `to` in order, runs what is
    // due there and waits for its store work to commit; replies with the new
    // time once all of it is done. Advances queue behind each other.
    void advanceClock(ClockDuration by, QObject *context, std::function<void(Result<ClockTime>)> reply);
    void advanceClockTo(ClockTime to, QObject *context, std::function<void(Result<ClockTime>)> reply);
    // The same, for a request made on the context's thread and passed on by the broker thread.
    void advanceClockTo(ClockTime to, const ReplyTarget &target, std::function<void(Result<ClockTime>)> reply);
    Result<ClockTime> advanceClockAndWait(ClockDuration by); // not on the broker thread
    // Any thread: switches the clock's mode and re-arms the timer service.
    void setClockMode(ClockMode mode, double scale, QObject *context, std::function<void(Status)> reply);
    Status setClockModeAndWait(ClockMode mode, double scale = 1.0);
    // Reading the clock is safe from any thread; change it only through the engine.
    const Clock &clock() const { return *m_clock; }
    // Any thread: the counters of committed units and the queues' depths
    // (see BrokerMetrics for what is counted and how fresh the depths are).
    // The engine records each unit's counts (UnitContext::countQueue/Topic)
    // and applies its Created/Deleted/CountsChanged after its batch
    // committed; when it publishes coalesced changes and some queue's depths
    // are stale, it re-reads them in a unit (refreshQueueDepths).
    BrokerMetrics &metrics() const { return *m_metrics; }
    // Any thread: the path the write connection was opened with (":memory:"
    // for an in-memory database), for read-only connections (browse).
    const std::string &databasePath() const { return m_databasePath; }

    // Any thread: runs `call` on the broker thread (posted). The AndWait form blocks until it ran.
    void post(std::function<void()> call);
    void postAndWait(std::function<void()> call);
    bool isBrokerThread() const { return QThread::currentThread() == m_thread; }

    // Any thread: a token for asynchronous broker work that is not a unit
    // (e.g. an HTTP delivery in flight). While one is alive, a virtual-clock
    // advance does not move on from the current step, so its reply still
    // means "everything due has been done". Null after stop().
    std::shared_ptr<void> holdAdvance();

    // Broker thread only.
    // Where the units run with UnitWrites::MayDefer hand their sends; the
    // commit queue flushes it (CommitQueue, DeferredWrites).
    PendingSends &pendingSends() { return *m_pendingSends; }
    ClockScheduler &scheduler();
    WaiterRegistry &waiters();

    // Any thread: retries the waiters of `key` (posted to the broker thread).
    void notify(std::string key);
    // Any thread: reports changes not made by a unit (they are coalesced like units' changes).
    void publishChanges(std::vector<EntityChange> changes);
    // Any thread: publishes the coalesced changes now instead of at the end of the interval.
    void flushChanges();

    // Any thread.
    CommitQueueStats commitStats() const;
    // Test hook (see CommitQueue): runs on the broker thread before each COMMIT.
    void setBeforeCommitHookForTesting(std::function<void()> hook);
    // Test hook (benchmarks): false stops all metrics work — units count
    // nothing, commits record nothing, no depth refresh — to measure its cost.
    void setMetricsCountingForTesting(bool counting) { m_counting.store(counting); }
    // Test hook (see CommitQueue): the next COMMIT fails with `failure`.
    void failNextCommitForTesting(StoreStatus failure);

    // Commits everything pending, ends waiters (Cancelled) and advances
    // (InternalError), closes the database and joins the thread. Idempotent;
    // call from the engine's own thread.
    void stop();

signals:
    void changesPublished(const QList<relaydesk::EntityChange> &changes);

private:
    // advanceClock / advanceClockTo: `by` when set, else up to `to`.
    void requestAdvance(std::optional<ClockDuration> by, ClockTime to, const ReplyTarget &target,
                        std::function<void(Result<ClockTime>)> reply);
    using UnitWork = std::function<StoreStatus(UnitContext &)>;
    using UnitDone = std::function<void(const StoreStatus &, std::shared_ptr<void> workToken)>;

    void submitWork(UnitWork work, UnitDone done, UnitWrites writes);
    void postToCore(std::function<void(BrokerThread &)> call);
    void deliver(const ReplyTarget &target, std::function<void()> call, std::shared_ptr<void> workToken);

    std::unique_ptr<Clock> m_clock;
    std::unique_ptr<BrokerMetrics> m_metrics; // borrows m_clock
    const std::string m_databasePath;
    QThread *m_thread = nullptr; // child
    BrokerThread *m_core = nullptr; // owned; lives on m_thread until stop()
    mutable std::shared_mutex m_lifetime; // exclusive in stop(), shared while submitting
    bool m_stopped = false;
    CommitQueueStats m_finalStats;
    std::atomic<bool> m_counting{true};
    std::shared_ptr<PendingSends> m_pendingSends; // shared with the commit queue
};

template <class Unit, class Reply>
void BrokerEngine::execute(Unit unit, QObject *context, Reply reply, UnitWrites writes)
{
    using R = detail::UnitResult<Unit>;
    struct Exchange {
        Unit unit;
        Reply reply;
        std::optional<R> result;
        bool rejected = false; // the unit itself returned an error
    };
    auto exchange = std::make_shared<Exchange>(Exchange{std::move(unit), std::move(reply), std::nullopt, false});
    const ReplyTarget target(context);
    submitWork(
        [exchange](UnitContext &unitContext) -> StoreStatus {
            exchange->result.emplace(detail::invokeUnit(exchange->unit, unitContext));
            if (exchange->result->ok())
                return {};
            exchange->rejected = true;
            return StoreStatus::failed("rejected by the broker: " + exchange->result->error().message);
        },
        [this, exchange, target](const StoreStatus &status, std::shared_ptr<void> workToken) {
            auto outcome = std::make_shared<std::optional<R>>();
            if (exchange->rejected || (status.ok() && exchange->result))
                outcome->emplace(std::move(*exchange->result));
            else
                outcome->emplace(status.ok() ? BrokerError(BrokerErrorCode::InternalError, "the operation produced no reply")
                                             : storeFailure(status));
            deliver(target, [exchange, outcome] { exchange->reply(std::move(**outcome)); }, std::move(workToken));
        },
        writes);
}

template <class Unit>
detail::UnitResult<Unit> BrokerEngine::executeAndWait(Unit unit)
{
    using R = detail::UnitResult<Unit>;
    if (isBrokerThread())
        return R(BrokerError(BrokerErrorCode::InternalError, "executeAndWait() called on the broker thread"));
    auto promise = std::make_shared<std::promise<R>>();
    std::future<R> future = promise->get_future();
    execute(std::move(unit), nullptr, [promise](R result) { promise->set_value(std::move(result)); });
    return future.get();
}

} // namespace relaydesk
