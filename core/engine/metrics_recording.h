// SPDX-License-Identifier: MIT
#pragma once

#include "broker/metrics/broker_metrics.h"
#include "broker/clock_time.h"
#include "engine/entity_change.h"

#include <functional>
#include <vector>

class QObject;

namespace relaydesk {

class BrokerEngine;

// How the engine feeds BrokerMetrics (see broker/metrics/broker_metrics.h for the
// contract of the counters and depths).

// After a unit's batch committed: applies `changes` — a queue or topic
// Created appears (a queue with stale depths), Deleted goes with its series,
// a queue's CountsChanged marks its depths stale — then counts `counts` at `at`. Any thread (the engine calls it on the broker thread).
void recordCommitted(BrokerMetrics &metrics, const std::vector<MetricEvent> &counts,
                     const std::vector<EntityChange> &changes, ClockTime at);

// Re-reads, in one unit on the broker thread, the depths of the queues
// BrokerMetrics::queuesToRefresh names (from the kept counters, moving a
// queue's depth mark on when due: queue_depths::refresh) — the first time
// (per engine) every queue and topic in the store, which is how the gauges
// come from the store at start, after checking every queue's counters
// against a full count (queue_depths::recountEveryQueue; a difference is
// repaired in that unit and logged with qWarning) — then calls `done` on
// `context`'s thread (null context: on the broker thread at once; must be
// quick). `done` may be empty. Any thread. A store failure leaves the depths
// as they were (`done` is still called).
void refreshQueueDepths(BrokerEngine &engine, QObject *context, std::function<void()> done);

// Broker thread (the engine, when it publishes coalesced changes): starts
// refreshQueueDepths when some queue's depths are stale; otherwise nothing.
void refreshStaleQueueDepths(BrokerEngine &engine);

} // namespace relaydesk
