// SPDX-License-Identifier: MIT
#pragma once
// Internal to the BrokerService implementation files (broker_service*.cpp):
// the shared state and the way one operation runs as a unit. Not for other
// callers.

#include "engine/broker_service.h"

#include "broker/id_source.h"
#include "broker/queues/purge_progress.h"
#include "engine/broker_engine.h"
#include "engine/clock_scheduler.h"
#include "engine/unit_context.h"
#include "engine/waiter_registry.h"
#include "store/database.h"

#include <QMetaObject>
#include <QObject>
#include <QString>

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace relaydesk {

struct BrokerService::State {
    State(BrokerEngine &engineRef, BrokerIdentity identityValue, std::unique_ptr<IdSource> idSource)
        : engine(engineRef), identity(std::move(identityValue)), ids(std::move(idSource)) {}

    BrokerEngine &engine;
    const BrokerIdentity identity;
    const std::unique_ptr<IdSource> ids; // used inside units only (broker thread)
    // Broker thread only:
    ClockTimerId lifetimeTimer = 0;
    std::optional<ClockTime> lifetimeDue;
    bool lifetimeCheckQueued = false;   // a check unit is submitted and has not answered
    std::map<std::string, ClockTimerId> moveChunkTimers;   // the next chunk of each running move task
    bool stopped = false;
    // Any thread: the delivery worker told about committed deliveries (null: none).
    std::atomic<DeliveryWorker *> worker{nullptr};
    // Signs the envelopes the fan-out enqueues (empty: unsigned). Set before the first unit.
    EnvelopeSigner sign;
};

namespace service_unit {

using StatePtr = std::shared_ptr<BrokerService::State>;
using Unit = std::monostate; // the value of an operation that answers nothing

inline std::string waitKey(const std::string &queueName) { return "queue:" + queueName; }

inline EntityChange change(EntityChange::Kind kind, EntityChange::Entity entity, const std::string &name)
{
    return {kind, entity, QString::fromStdString(name)};
}

inline void reportQueueCounts(UnitContext &unit, const std::string &queueName)
{
    unit.reportChange(change(EntityChange::Kind::CountsChanged, EntityChange::Entity::Queue, queueName));
}

// What an operation's unit hands to its reply on the broker thread.
template <class T>
struct Outcome {
    T value;
    std::vector<std::string> wake;        // queues whose waiting receives to retry
};

// An operation's work inside its unit: the value, the changes it reported
// and, in `wake`, the queues whose waiting receives must retry after commit.
template <class T>
using Body = std::function<Result<T>(UnitContext &, BrokerService::State &, std::vector<std::string> &wake)>;

// Calls `call` on `target`'s thread (dropped when it is gone), or at once
// without a context. Nothing `call` throws escapes.
void deliver(const ReplyTarget &target, std::function<void()> call);
// Runs `work` on the global thread pool.
void startOnPool(std::function<void()> work);
// The earliest lifetime work due after `now` (queues and topics).
Result<std::optional<ClockTime>> lifetimeDue(Database &db, ClockTime now);
// Broker thread: moves the lifetime timer earlier to `due`, if it is.
void lowerLifetimeTimer(const StatePtr &state, std::optional<ClockTime> due);
// Broker thread, after a commit: reads lifetimeDue() in a unit of its own and
// lowers the timer to it. One check is queued at a time, so the commits of
// many units share one read (six SELECTs) instead of running it in every
// unit; the check runs before anything submitted after this call — a clock
// advance included —, so no due time is missed.
void requestLifetimeCheck(const StatePtr &state);
// Broker thread: runs the next chunk of move task `taskHandle` at `due`, and
// the chunks after it, until the task ends (broker_service_messages.cpp).
void scheduleMoveChunk(const StatePtr &state, const std::string &taskHandle, std::optional<std::int64_t> perSecond,
                       ClockTime due);
// Broker thread or any: schedules the chunks of the tasks still RUNNING in the
// database (a broker stopped mid-move goes on where it stopped).
void resumeMoveTasks(const StatePtr &state);

// Any thread: removes the rest of a purge in chunks (runChunks), then calls
// `then` on the broker thread.
void purgeInChunks(const StatePtr &state, purge_progress::PendingPurge purge, std::function<void(Status)> then);
// Any thread: goes on with the purges a stopped broker left noted in the
// store (broker/queues/purge_progress.h).
void resumePurges(const StatePtr &state);

// Any thread: runs `body` as a unit; on the broker thread after the commit,
// queues a lifetime check, wakes the receives of `wake`, calls `afterCommit`
// with the value (when the unit succeeded), then replies.
// `writes` MayDefer: the body may hand its sends to the engine's PendingSends.
template <class T>
void run(const StatePtr &state, Body<T> body, QObject *context, BrokerService::Reply<T> reply,
         std::function<void(const T &)> afterCommit = nullptr, UnitWrites writes = UnitWrites::Immediate)
{
    using Out = Outcome<T>;
    const ReplyTarget target(context);
    state->engine.execute(
        [state, body = std::move(body)](UnitContext &unit) -> Result<Out> {
            std::vector<std::string> wake;
            Result<T> value = body(unit, *state, wake);
            if (!value)
                return value.error();
            return Out{std::move(value).value(), std::move(wake)};
        },
        nullptr,
        [state, target, reply = std::move(reply),
         afterCommit = std::move(afterCommit)](Result<Out> result) {
            auto answer = std::make_shared<std::optional<Result<T>>>();
            if (result) {
                requestLifetimeCheck(state);
                for (const std::string &queue : result->wake)
                    state->engine.waiters().notify(waitKey(queue));
                if (afterCommit)
                    afterCommit(result->value);
                answer->emplace(std::move(result).value().value);
            } else {
                answer->emplace(result.error());
            }
            deliver(target, [reply, answer] { reply(std::move(**answer)); });
        },
        writes);
}

// Any thread: runs `chunk` as a unit again and again — each a unit of its
// own, after the units already submitted — while it answers true (more to
// do); then calls `then` on the broker thread, with the error of a chunk
// that failed. For bulk removals (broker/queues/bulk_removal.h).
inline void runChunks(const StatePtr &state, Body<bool> chunk, std::function<void(Status)> then)
{
    run<bool>(state, chunk, nullptr, [state, chunk, then = std::move(then)](Result<bool> more) mutable {
        if (!more)
            then(Status(more.error()));
        else if (*more)
            runChunks(state, std::move(chunk), std::move(then));
        else
            then(Status());
    });
}

// Any thread: runs the read `read(db, now)` where it never holds up the
// broker thread. A file database is read on a pool thread through a
// read-only connection of its own (it sees what is committed; docs/architecture.md §3:
// reads never wait for or block the broker thread's write transaction); an
// in-memory one has no second connection, so it is read as a unit. The reply
// goes to `context`'s thread, or (null context) to the broker thread.
template <class T>
void readCommitted(const StatePtr &state, std::function<Result<T>(Database &, ClockTime)> read, QObject *context,
                   BrokerService::Reply<T> reply)
{
    const std::string &path = state->engine.databasePath();
    if (path == ":memory:" || path.empty()) {
        run<T>(
            state,
            [read = std::move(read)](UnitContext &unit, BrokerService::State &, std::vector<std::string> &) {
                return read(unit.database(), unit.now());
            },
            context, std::move(reply));
        return;
    }
    const ReplyTarget target(context);
    BrokerEngine &engine = state->engine;   // only used without a context (tests, on the broker thread)
    const ClockTime now = engine.clock().now();
    startOnPool([&engine, path, now, read = std::move(read), target, reply = std::move(reply)]() mutable {
        DatabaseOptions options;
        options.mode = OpenMode::ReadOnly;
        options.checkIntegrity = false;   // the writer checked it on open
        auto reader = Database::open(path, options);
        auto answer = std::make_shared<std::optional<Result<T>>>();
        if (!reader.ok())
            answer->emplace(storeFailure(reader.status()));
        else
            answer->emplace(read(**reader, now));
        auto call = [reply = std::move(reply), answer] { reply(std::move(**answer)); };
        if (target.hasContext())
            deliver(target, std::move(call));
        else
            engine.post(std::move(call));   // null context: replies come on the broker thread
    });
}

inline BrokerService::Reply<Unit> toStatusReply(BrokerService::Reply<void> reply)
{
    return [reply = std::move(reply)](Result<Unit> result) { reply(result ? Status() : Status(result.error())); };
}

// A reply made on the broker thread (a unit run without a context) that
// answers `reply` on `target`'s thread: for an operation whose last unit is
// submitted later than the request (after runChunks).
inline BrokerService::Reply<Unit> replyTo(const ReplyTarget &target, BrokerService::Reply<void> reply)
{
    return [target, reply = std::move(reply)](Result<Unit> result) {
        const Status status = result ? Status() : Status(result.error());
        deliver(target, [reply, status] { reply(status); });
    };
}

// A Status as the value of a Body<Unit>.
inline Result<Unit> asUnit(const Status &status)
{
    if (!status)
        return status.error();
    return Unit{};
}

} // namespace service_unit

} // namespace relaydesk
