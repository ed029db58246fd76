// SPDX-License-Identifier: MIT
#pragma once

#include "broker/clock.h"
#include "broker/result.h"
#include "engine/clock_scheduler.h"
#include "engine/entity_change.h"
#include "engine/waiter_registry.h"
#include "store/commit_queue.h"

#include <QList>
#include <QObject>

#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

class QTimer;

namespace relaydesk {

class Database;

// The state that lives on the broker thread (docs/architecture.md §3):
// the write connection and its group-commit queue (External driver: each
// wake posts one drainOnce() here), the clock's timer service, the long-poll
// waiters, the change-event throttle, and virtual-clock advances.
//
// An advance moves the virtual clock to each due time in order, fires what is
// due there, and goes on only when no store work is in flight any more (every
// unit submitted meanwhile committed and its broker-thread reply ran) — so
// callbacks at one time see the committed effects of earlier ones, and the
// advance's reply means "all of it is done".
//
// Ownership: owns the Database, the CommitQueue, the scheduler and waiters;
// not the Clock (owned by BrokerEngine, outlives this). Thread: constructed on
// the engine's thread and moved to the broker thread before it starts; the
// methods marked "any thread" are safe everywhere, the others run on the
// broker thread only. BrokerEngine is the public face; use that.
class BrokerThread final : public QObject { // no Q_OBJECT: no signals or slots of its own
public:
    using ChangeSink = std::function<void(QList<EntityChange>)>;
    using AdvanceReply = std::function<void(Result<ClockTime>)>;

    BrokerThread(std::unique_ptr<Database> database, Clock &clock, std::chrono::milliseconds changeInterval,
                 ChangeSink changeSink);
    ~BrokerThread() override;
    BrokerThread(const BrokerThread &) = delete;
    BrokerThread &operator=(const BrokerThread &) = delete;

    // Any thread.
    CommitQueue &queue() { return *m_queue; }
    Clock &clock() { return m_clock; }
    void post(std::function<void()> call);
    // A token counting one piece of store work in flight; an advance waits
    // until none is left. Release it on any thread.
    std::shared_ptr<void> acquireWork();

    // Broker thread only.
    ClockScheduler &scheduler() { return *m_scheduler; }
    WaiterRegistry &waiters() { return *m_waiters; }
    void noteChanges(const std::vector<EntityChange> &changes);
    void flushChanges();
    // Virtual mode: `to` absolute, or `by` relative to now() when the advance starts.
    void advance(std::optional<ClockDuration> by, ClockTime to, AdvanceReply reply);
    Status setClockMode(ClockMode mode, double scale);
    // Commits everything pending, ends waiters and advances, closes the
    // database, and hands this object back to `owner` (so it can be deleted
    // there). Returns the commit queue's final figures.
    CommitQueueStats shutdown(QThread *owner);

private:
    struct Advance {
        std::optional<ClockDuration> by;
        ClockTime target;
        AdvanceReply reply;
        bool started = false;
    };
    struct WorkCounter;

    void drain();
    void markClock();
    void stepAdvance();
    void finishAdvance(Result<ClockTime> result);

    std::unique_ptr<Database> m_database;
    std::unique_ptr<CommitQueue> m_queue;
    Clock &m_clock;
    ClockScheduler *m_scheduler = nullptr; // child
    std::unique_ptr<WaiterRegistry> m_waiters;
    std::shared_ptr<WorkCounter> m_work;

    EntityChangeCoalescer m_changes;
    QTimer *m_changeTimer = nullptr; // child
    QTimer *m_markTimer = nullptr;   // child: the clock mark while warping
    ChangeSink m_changeSink;

    std::deque<Advance> m_advances;
    bool m_stepping = false;
    bool m_shuttingDown = false;
};

} // namespace relaydesk
