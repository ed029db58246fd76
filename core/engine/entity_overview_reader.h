// SPDX-License-Identifier: MIT
#pragma once

#include "broker/broker_identity.h"
#include "broker/metrics/clock_preview.h"
#include "broker/metrics/entity_overview.h"
#include "broker/result.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

class QObject;

namespace relaydesk {

class BrokerEngine;

// Reads the EntityOverview for the window's tree without holding up the
// broker (docs/architecture.md §3: browse never waits for the write transaction): a file
// database on a pool thread through a read-only connection of its own (it
// sees what is committed), an in-memory one as a unit. The reply is posted to
// `context`'s thread and dropped when `context` is gone. Any thread; the
// engine must outlive the read.
void readEntityOverview(BrokerEngine &engine, BrokerIdentity identity, QObject *context,
                        std::function<void(Result<EntityOverview>)> reply);

// Virtual mode: advances the clock to the next due event — the earliest of
// the engine's timers (deliveries, expiry, idle deletion) and `messageDue`
// (e.g. EntityOverview::nextVisible, when a delay, schedule or lock ends).
// Replies with the new time; with nothing due, with the time unchanged.
// ClockNotVirtual in other modes. The reply is posted to `context`'s thread.
void advanceClockToNextDue(BrokerEngine &engine, std::optional<ClockTime> messageDue, QObject *context,
                           std::function<void(Result<ClockTime>)> reply);

// When a message next becomes available (a delay, schedule or lock ends),
// and in which queue: what the window's overview knows.
struct MessageDue {
    ClockTime at;
    std::string queue;
};

// What "to the next due event" would do now (docs/behaviour.md §7.1): the
// time it moves the virtual clock to, what falls due there, and the messages
// that expire by then (the window asks before a long jump or one that
// expires messages).
struct NextClockEvent {
    enum class Kind {
        Nothing,    // nothing due: the clock would stay
        Delivery,   // a delivery attempt; `subject` is the endpoint
        Expiry,     // a message's time to live ends; `subject` is its queue
        MessageDue, // a delay, schedule or lock ends; `subject` is the queue
        Timer,      // another of the broker's timers (a wait, a throttle, an idle deletion)
    };
    Kind kind = Kind::Nothing;
    std::string subject;
    ClockTime now{};
    ClockTime at{}; // == now with Nothing
    std::vector<ExpiringMessages> expiring; // by `at`, per queue

    bool operator==(const NextClockEvent &) const = default;
};

// Reads NextClockEvent on the broker thread (the engine's timers and a
// read of the store, one unit), replying on `context`'s thread; the move
// itself is BrokerEngine::advanceClockTo(at). Any thread.
void previewNextClockEvent(BrokerEngine &engine, std::optional<MessageDue> messageDue, QObject *context,
                           std::function<void(Result<NextClockEvent>)> reply);

} // namespace relaydesk
