// SPDX-License-Identifier: MIT
#include "engine/broker_engine.h"

#include "broker/clock_mark.h"
#include "broker/metrics/broker_metrics.h"
#include "broker/queues/pending_sends.h"
#include "broker/wall_time_source.h"
#include "engine/broker_thread.h"
#include "engine/clock_scheduler.h"
#include "engine/metrics_recording.h"
#include "engine/sanitizer_handoff.h"
#include "engine/waiter_registry.h"
#include "store/database.h"

#include <QThread>

#include <openssl/crypto.h>

#include <mutex>

namespace relaydesk {

namespace {

void runGuarded(const std::function<void()> &call)
{
    try {
        if (call)
            call();
    } catch (...) {
        // replies are caller code: nothing they throw escapes a thread
    }
}

// Where the clock starts on `database`: resumed from its clock mark, so broker
// time never goes backwards across a restart (docs/behaviour.md §7).
ClockTime startingClockTime(Database *database, const WallTimeSource &wall, const BrokerEngineOptions &options)
{
    std::optional<ClockMark> mark;
    if (database) {
        if (Result<std::optional<ClockMark>> stored = readClockMark(*database))
            mark = *stored;
    }
    return resumeClockTime(mark, std::chrono::floor<ClockDuration>(wall.systemNow()), options.clockStart,
                           options.clockMode);
}

} // namespace

BrokerEngine::BrokerEngine(std::unique_ptr<Database> database, WallTimeSource &wall, BrokerEngineOptions options,
                           QObject *parent)
    : QObject(parent),
      m_clock(std::make_unique<Clock>(wall, options.clockMode, options.clockScale,
                                      startingClockTime(database.get(), wall, options))),
      m_metrics(std::make_unique<BrokerMetrics>(*m_clock)),
      m_databasePath(database ? database->path() : std::string()),
      m_thread(new QThread(this)),
      m_pendingSends(std::make_shared<PendingSends>())
{
    qRegisterMetaType<EntityChange>();
    qRegisterMetaType<QList<EntityChange>>();
    m_thread->setObjectName(QStringLiteral("relaydesk-broker"));
    m_core = new BrokerThread(std::move(database), *m_clock, options.changeInterval, [this](QList<EntityChange> changes) {
        // On the broker thread: emit on the engine's own thread. A post to a
        // deleted engine is dropped by Qt (the engine outlives m_core anyway).
        if (m_counting.load(std::memory_order_relaxed))
            refreshStaleQueueDepths(*this);
        sanitizer_handoff::queue(this, [this, changes = std::move(changes)] { emit changesPublished(changes); });
    });
    m_core->queue().addDeferredWrites(m_pendingSends);
    m_core->moveToThread(m_thread);
    // OpenSSL keeps state per thread (random bytes, HMAC seals, TLS of
    // deliveries). It is ended here, on the broker thread, as its run ends:
    // left to the thread-local destructor, it could be freed there and again
    // by OpenSSL's exit handler on the main thread, since QThread::wait()
    // returns before a thread's thread-local destructors have run.
    connect(m_thread, &QThread::finished, m_thread, [] { OPENSSL_thread_stop(); }, Qt::DirectConnection);
    m_thread->start();
}

BrokerEngine::~BrokerEngine() { stop(); }

void BrokerEngine::stop()
{
    {
        std::unique_lock lock(m_lifetime);
        if (m_stopped)
            return;
        m_stopped = true;
    }
    QThread *owner = thread();
    BrokerThread *core = m_core;
    CommitQueueStats stats;
    sanitizer_handoff::queueAndWait(core, [core, owner, &stats] { stats = core->shutdown(owner); });
    {
        std::unique_lock lock(m_lifetime);
        m_finalStats = stats;
    }
    m_thread->quit();
    m_thread->wait();
    delete core;
    m_core = nullptr;
}

void BrokerEngine::submitWork(UnitWork work, UnitDone done, UnitWrites writes)
{
    std::shared_lock lock(m_lifetime);
    if (m_stopped) {
        lock.unlock();
        done(StoreStatus::closed("the broker engine has stopped; the operation was not performed"), nullptr);
        return;
    }
    BrokerThread *core = m_core;
    Clock *clock = m_clock.get();
    struct Committed {
        std::vector<EntityChange> changes;
        std::vector<MetricEvent> counts;
        ClockTime at{};
    };
    auto committed = std::make_shared<Committed>();
    std::shared_ptr<void> token = core->acquireWork();
    BrokerMetrics *metrics = m_counting.load(std::memory_order_relaxed) ? m_metrics.get() : nullptr;
    core->queue().submit(
        [work = std::move(work), committed, clock, counting = metrics != nullptr](Database &database) -> StoreStatus {
            UnitContext context(database, clock->now(), counting);
            StoreStatus status = work(context);
            if (status.ok()) {
                committed->changes = context.takeChanges();
                committed->counts = context.takeCounts();
                committed->at = context.now();
            }
            return status;
        },
        [done = std::move(done), committed, core, token, metrics](const StoreStatus &status) {
            if (status.ok()) {
                if (metrics)
                    recordCommitted(*metrics, committed->counts, committed->changes, committed->at);
                if (!committed->changes.empty())
                    core->noteChanges(committed->changes);
            }
            done(status, token);
        },
        writes);
}

void BrokerEngine::deliver(const ReplyTarget &target, std::function<void()> call, std::shared_ptr<void> workToken)
{
    if (!target.hasContext()) {
        runGuarded(call);
        return; // the work token goes with this frame: the reply has run
    }
    if (!target.livesOn(m_thread))
        workToken.reset(); // a reply on another thread is not broker work an advance could wait for
    target.post([call = std::move(call), workToken] { runGuarded(call); });
}

void BrokerEngine::advanceClock(ClockDuration by, QObject *context, std::function<void(Result<ClockTime>)> reply)
{
    requestAdvance(by, ClockTime{}, ReplyTarget(context), std::move(reply));
}

void BrokerEngine::advanceClockTo(ClockTime to, QObject *context, std::function<void(Result<ClockTime>)> reply)
{
    requestAdvance(std::nullopt, to, ReplyTarget(context), std::move(reply));
}

void BrokerEngine::advanceClockTo(ClockTime to, const ReplyTarget &target, std::function<void(Result<ClockTime>)> reply)
{
    requestAdvance(std::nullopt, to, target, std::move(reply));
}

void BrokerEngine::requestAdvance(std::optional<ClockDuration> by, ClockTime to, const ReplyTarget &target,
                                  std::function<void(Result<ClockTime>)> reply)
{
    auto respond = [this, target, reply = std::move(reply)](Result<ClockTime> result) {
        deliver(target, [reply, result] { reply(result); }, nullptr);
    };
    std::shared_lock lock(m_lifetime);
    if (m_stopped) {
        lock.unlock();
        respond(BrokerError(BrokerErrorCode::InternalError, "the broker engine has stopped"));
        return;
    }
    BrokerThread *core = m_core;
    core->post([core, by, to, respond] { core->advance(by, to, respond); });
}

Result<ClockTime> BrokerEngine::advanceClockAndWait(ClockDuration by)
{
    if (isBrokerThread())
        return BrokerError(BrokerErrorCode::InternalError, "advanceClockAndWait() called on the broker thread");
    auto promise = std::make_shared<std::promise<Result<ClockTime>>>();
    std::future<Result<ClockTime>> future = promise->get_future();
    advanceClock(by, nullptr, [promise](Result<ClockTime> result) { promise->set_value(std::move(result)); });
    return future.get();
}

void BrokerEngine::setClockMode(ClockMode mode, double scale, QObject *context, std::function<void(Status)> reply)
{
    const ReplyTarget target(context);
    auto respond = [this, target, reply = std::move(reply)](Status status) {
        deliver(target, [reply, status] { if (reply) reply(status); }, nullptr);
    };
    std::shared_lock lock(m_lifetime);
    if (m_stopped) {
        lock.unlock();
        respond(BrokerError(BrokerErrorCode::InternalError, "the broker engine has stopped"));
        return;
    }
    BrokerThread *core = m_core;
    core->post([core, mode, scale, respond] { respond(core->setClockMode(mode, scale)); });
}

Status BrokerEngine::setClockModeAndWait(ClockMode mode, double scale)
{
    if (isBrokerThread())
        return BrokerError(BrokerErrorCode::InternalError, "setClockModeAndWait() called on the broker thread");
    auto promise = std::make_shared<std::promise<Status>>();
    std::future<Status> future = promise->get_future();
    setClockMode(mode, scale, nullptr, [promise](Status status) { promise->set_value(std::move(status)); });
    return future.get();
}

void BrokerEngine::post(std::function<void()> call)
{
    std::shared_lock lock(m_lifetime);
    if (!m_stopped)
        m_core->post(std::move(call));
}

void BrokerEngine::postAndWait(std::function<void()> call)
{
    if (isBrokerThread()) {
        runGuarded(call);
        return;
    }
    auto promise = std::make_shared<std::promise<void>>();
    std::future<void> future = promise->get_future();
    {
        std::shared_lock lock(m_lifetime);
        if (m_stopped)
            return;
        m_core->post([call = std::move(call), promise] {
            runGuarded(call);
            promise->set_value();
        });
    }
    future.wait();
}

std::shared_ptr<void> BrokerEngine::holdAdvance()
{
    std::shared_lock lock(m_lifetime);
    return m_stopped ? nullptr : m_core->acquireWork();
}

ClockScheduler &BrokerEngine::scheduler() { return m_core->scheduler(); }
WaiterRegistry &BrokerEngine::waiters() { return m_core->waiters(); }

void BrokerEngine::postToCore(std::function<void(BrokerThread &)> call)
{
    std::shared_lock lock(m_lifetime);
    if (m_stopped)
        return;
    BrokerThread *core = m_core;
    core->post([core, call = std::move(call)] { call(*core); });
}

void BrokerEngine::notify(std::string key)
{
    postToCore([key = std::move(key)](BrokerThread &core) { core.waiters().notify(key); });
}

void BrokerEngine::publishChanges(std::vector<EntityChange> changes)
{
    postToCore([this, changes = std::move(changes)](BrokerThread &core) {
        recordCommitted(*m_metrics, {}, changes, m_clock->now());
        core.noteChanges(changes);
    });
}

void BrokerEngine::flushChanges()
{
    postToCore([](BrokerThread &core) { core.flushChanges(); });
}

CommitQueueStats BrokerEngine::commitStats() const
{
    std::shared_lock lock(m_lifetime);
    return m_stopped ? m_finalStats : m_core->queue().stats();
}

void BrokerEngine::setBeforeCommitHookForTesting(std::function<void()> hook)
{
    std::shared_lock lock(m_lifetime);
    if (!m_stopped)
        m_core->queue().setBeforeCommitHookForTesting(std::move(hook));
}

void BrokerEngine::failNextCommitForTesting(StoreStatus failure)
{
    std::shared_lock lock(m_lifetime);
    if (!m_stopped)
        m_core->queue().failNextCommitForTesting(std::move(failure));
}

} // namespace relaydesk
