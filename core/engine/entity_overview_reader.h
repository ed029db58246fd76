// SPDX-License-Identifier: MIT
#pragma once

#include "broker/broker_identity.h"
#include "broker/metrics/entity_overview.h"
#include "broker/result.h"

#include <functional>
#include <optional>

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

} // namespace relaydesk
