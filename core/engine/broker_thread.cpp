// SPDX-License-Identifier: MIT
#include "engine/broker_thread.h"

#include "broker/clock_mark.h"
#include "engine/reply_target.h"
#include "engine/sanitizer_handoff.h"
#include "store/commit_queue.h"
#include "store/database.h"

#include <QPointer>
#include <QThread>
#include <QTimer>

#include <atomic>
#include <mutex>
#include <utility>

namespace relaydesk {

namespace {

// How often a warping clock's mark is stored while no work commits (wall time).
constexpr int kWarpMarkIntervalMs = 5000;

StoreStatus storeClockMark(Database &database, const Clock &clock)
{
    const Status written = writeClockMark(database, ClockMark{clock.now(), clock.wallTime()});
    return written ? StoreStatus() : StoreStatus::failed(written.error().message);
}

} // namespace

// Counts store work in flight; shared with the tokens, so a token released
// after shutdown touches only this, never the BrokerThread.
struct BrokerThread::WorkCounter {
    std::atomic<long> inFlight{0};
    std::atomic<bool> advanceWaiting{false};
    std::mutex mutex;
    std::function<void()> onIdle; // posts the next advance step; cleared at shutdown

    void release()
    {
        if (inFlight.fetch_sub(1) != 1 || !advanceWaiting.exchange(false))
            return;
        std::lock_guard lock(mutex);
        if (onIdle)
            onIdle();
    }
};

BrokerThread::BrokerThread(std::unique_ptr<Database> database, Clock &clock, std::chrono::milliseconds changeInterval,
                           ChangeSink changeSink)
    : m_database(std::move(database)),
      m_queue(std::make_unique<CommitQueue>(*m_database, CommitQueue::Driver::External)),
      m_clock(clock),
      m_scheduler(new ClockScheduler(clock, this)),
      m_waiters(std::make_unique<WaiterRegistry>(*m_scheduler)),
      m_work(std::make_shared<WorkCounter>()),
      m_changeTimer(new QTimer(this)),
      m_markTimer(new QTimer(this)),
      m_changeSink(std::move(changeSink))
{
    // docs/behaviour.md §7: broker time never goes backwards, across restarts
    // too. Every commit stores the clock mark with the work it commits, so a
    // restart resumes at or after any time the broker acted on.
    m_queue->setBatchEpilogue([&clock](Database &database) { return storeClockMark(database, clock); });
    m_queue->setWakeHandler([this] { post([this] { drain(); }); });
    m_markTimer->setInterval(kWarpMarkIntervalMs);
    connect(m_markTimer, &QTimer::timeout, this, [this] {
        if (m_clock.mode() == ClockMode::Scaled)
            markClock();
    });
    if (m_clock.mode() == ClockMode::Scaled)
        m_markTimer->start(); // moves to the broker thread with this object
    m_work->onIdle = [this] { post([this] { stepAdvance(); }); };
    m_changeTimer->setSingleShot(true);
    m_changeTimer->setInterval(static_cast<int>(changeInterval.count()));
    connect(m_changeTimer, &QTimer::timeout, this, [this] { flushChanges(); });
}

BrokerThread::~BrokerThread()
{
    std::lock_guard lock(m_work->mutex);
    m_work->onIdle = nullptr;
}

void BrokerThread::post(std::function<void()> call)
{
    sanitizer_handoff::queue(this, [call = std::move(call)] {
        try {
            call();
        } catch (...) {
            // nothing escapes the broker thread
        }
    });
}

std::shared_ptr<void> BrokerThread::acquireWork()
{
    m_work->inFlight.fetch_add(1);
    std::shared_ptr<WorkCounter> counter = m_work;
    return std::shared_ptr<void>(counter.get(), [counter](WorkCounter *) { counter->release(); });
}

// The replies of one drain (one batch: they all follow its COMMIT) leave as
// one queued call per receiving thread (ReplyBatch).
void BrokerThread::drain()
{
    const ReplyBatch replies;
    if (m_queue)
        m_queue->drainOnce();
}

// Stores the clock mark on its own, outside any batch: the broker thread
// drives the commit queue, so no transaction is open between drains. A
// failure (disk full) is not fatal: the next commit's mark replaces it.
void BrokerThread::markClock()
{
    if (m_database && !m_database->inTransaction())
        storeClockMark(*m_database, m_clock);
}

void BrokerThread::noteChanges(const std::vector<EntityChange> &changes)
{
    for (const EntityChange &change : changes)
        m_changes.add(change);
    if (!m_changes.empty() && !m_changeTimer->isActive())
        m_changeTimer->start();
}

void BrokerThread::flushChanges()
{
    m_changeTimer->stop();
    if (m_changes.empty())
        return;
    QList<EntityChange> changes = m_changes.take();
    if (m_changeSink)
        m_changeSink(std::move(changes));
}

Status BrokerThread::setClockMode(ClockMode mode, double scale)
{
    Status status = m_clock.setMode(mode, scale);
    m_scheduler->rearm();
    if (status)
        post([this] { markClock(); }); // after the reply: a mode switch answers without waiting for the disk
    if (m_clock.mode() == ClockMode::Scaled)
        m_markTimer->start();
    else
        m_markTimer->stop();
    return status;
}

void BrokerThread::advance(std::optional<ClockDuration> by, ClockTime to, AdvanceReply reply)
{
    m_advances.push_back(Advance{by, to, std::move(reply)});
    if (m_advances.size() == 1)
        stepAdvance();
}

void BrokerThread::stepAdvance()
{
    if (m_stepping || m_advances.empty())
        return;
    Advance &current = m_advances.front();
    if (!current.started) {
        if (m_clock.mode() != ClockMode::Virtual) {
            finishAdvance(BrokerError(BrokerErrorCode::ClockNotVirtual, "the clock can only be advanced in virtual mode"));
            return;
        }
        const ClockTime now = m_clock.now();
        if (current.by) {
            if (current.by->count() < 0) {
                finishAdvance(BrokerError(BrokerErrorCode::InvalidParameterValue, "cannot advance the clock by a negative duration"));
                return;
            }
            current.target = now + *current.by;
        } else if (current.target < now) {
            finishAdvance(BrokerError(BrokerErrorCode::InvalidParameterValue, "cannot move the clock back"));
            return;
        }
        current.started = true;
    }

    // Wait until the store work of the previous step has committed.
    m_work->advanceWaiting.store(true);
    if (m_work->inFlight.load() != 0 || !m_work->advanceWaiting.exchange(false))
        return; // WorkCounter::release() posts the next step

    const std::optional<ClockTime> next = m_scheduler->earliestDue();
    if (next && *next <= current.target) {
        if (*next > m_clock.now()) {
            if (Status moved = m_clock.advanceTo(*next); !moved) {
                finishAdvance(moved.error());
                return;
            }
        }
        m_stepping = true;
        m_scheduler->fireDue();
        m_stepping = false;
        post([this] { stepAdvance(); });
        return;
    }
    if (current.target > m_clock.now()) {
        if (Status moved = m_clock.advanceTo(current.target); !moved) {
            finishAdvance(moved.error());
            return;
        }
    }
    m_scheduler->rearm();
    finishAdvance(m_clock.now());
}

void BrokerThread::finishAdvance(Result<ClockTime> result)
{
    Advance done = std::move(m_advances.front());
    m_advances.pop_front();
    if (result)
        post([this] { markClock(); }); // after the reply
    try {
        if (done.reply)
            done.reply(std::move(result));
    } catch (...) {
    }
    if (!m_advances.empty() && !m_shuttingDown)
        post([this] { stepAdvance(); });
}

CommitQueueStats BrokerThread::shutdown(QThread *owner)
{
    m_shuttingDown = true;
    if (m_queue) {
        m_queue->close();
        while (m_queue->drainOnce() > 0) {
        }
    }
    while (!m_advances.empty())
        finishAdvance(BrokerError(BrokerErrorCode::InternalError, "the broker engine stopped before the advance ended"));
    m_waiters->cancelAll();
    m_scheduler->clear();
    flushChanges();
    CommitQueueStats stats;
    if (m_queue)
        stats = m_queue->stats();
    m_queue.reset();    // drains nothing more: closed and empty
    m_markTimer->stop();
    markClock();
    m_database.reset(); // closes the write connection on its own thread
    {
        std::lock_guard lock(m_work->mutex);
        m_work->onIdle = nullptr;
    }
    moveToThread(owner);
    return stats;
}

} // namespace relaydesk
