// SPDX-License-Identifier: MIT
#include "engine/entity_overview_reader.h"

#include "engine/broker_engine.h"
#include "engine/clock_scheduler.h"
#include "engine/sanitizer_handoff.h"
#include "store/database.h"

#include <QMetaObject>
#include <QObject>
#include <QThreadPool>

#include <memory>

namespace relaydesk {

namespace {

// Calls `call` on `target`'s thread; dropped when it is gone.
void postTo(const ReplyTarget &target, std::function<void()> call)
{
    if (target.hasContext())
        target.post(std::move(call));
}

} // namespace

void readEntityOverview(BrokerEngine &engine, BrokerIdentity identity, QObject *context,
                        std::function<void(Result<EntityOverview>)> reply)
{
    const ReplyTarget target(context);
    const std::string &path = engine.databasePath();
    if (path.empty() || path == ":memory:") {
        engine.execute(
            [identity = std::move(identity)](Database &db, ClockTime now) { return readEntityOverview(db, identity, now); },
            context, std::move(reply));
        return;
    }
    const ClockTime now = engine.clock().now();
    sanitizer_handoff::startOnPool(*QThreadPool::globalInstance(), [path, now, identity = std::move(identity), target, reply = std::move(reply)] {
        DatabaseOptions options;
        options.mode = OpenMode::ReadOnly;
        options.checkIntegrity = false; // the writer checked it on open
        auto reader = Database::open(path, options);
        auto overview = std::make_shared<std::optional<Result<EntityOverview>>>();
        if (!reader.ok())
            overview->emplace(storeFailure(reader.status()));
        else
            overview->emplace(readEntityOverview(**reader, identity, now));
        postTo(target, [reply, overview] { reply(std::move(**overview)); });
    });
}

void advanceClockToNextDue(BrokerEngine &engine, std::optional<ClockTime> messageDue, QObject *context,
                           std::function<void(Result<ClockTime>)> reply)
{
    const ReplyTarget target(context);
    engine.post([&engine, messageDue, target, reply = std::move(reply)] {
        std::optional<ClockTime> due = engine.scheduler().earliestDue();
        if (messageDue && (!due || *messageDue < *due))
            due = messageDue;
        const ClockTime now = engine.clock().now();
        if (!due || *due < now)
            due = now;
        if (!target.gone()) // without its context the reply would run here, on the broker thread
            engine.advanceClockTo(*due, target, reply);
    });
}

} // namespace relaydesk
