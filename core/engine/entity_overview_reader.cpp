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

namespace {

// What falls due at `at`, the earliest of the engine's timers and the
// message due: a delivery and an expiry are named by the store's rows.
NextClockEvent::Kind classify(const ClockEvents &events, const std::optional<MessageDue> &messageDue,
                              bool timerDue, ClockTime at, std::string &subject)
{
    if (events.nextDelivery && *events.nextDelivery <= at) {
        subject = events.deliveryEndpoint;
        return NextClockEvent::Kind::Delivery;
    }
    if (events.nextExpiry && *events.nextExpiry <= at) {
        subject = events.expiryQueue;
        return NextClockEvent::Kind::Expiry;
    }
    if (messageDue && messageDue->at <= at) {
        subject = messageDue->queue;
        return NextClockEvent::Kind::MessageDue;
    }
    return timerDue ? NextClockEvent::Kind::Timer : NextClockEvent::Kind::Nothing;
}

} // namespace

void previewNextClockEvent(BrokerEngine &engine, std::optional<MessageDue> messageDue, QObject *context,
                           std::function<void(Result<NextClockEvent>)> reply)
{
    std::function<Result<NextClockEvent>(Database &, ClockTime)> unit =
        [&engine, messageDue](Database &db, ClockTime now) -> Result<NextClockEvent> {
        auto events = readClockEvents(db, now);
        if (!events)
            return events.error();
        const std::optional<ClockTime> timer = engine.scheduler().earliestDue();
        std::optional<ClockTime> due = timer;
        if (messageDue && (!due || messageDue->at < *due))
            due = messageDue->at;
        NextClockEvent next;
        next.now = now;
        next.at = due && *due > now ? *due : now;
        next.kind = classify(*events, messageDue, timer.has_value(), next.at, next.subject);
        auto expiring = readExpiringBy(db, next.at);
        if (!expiring)
            return expiring.error();
        next.expiring = std::move(*expiring);
        return next;
    };
    engine.execute(std::move(unit), context, std::move(reply));
}

} // namespace relaydesk
