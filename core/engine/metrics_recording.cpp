// SPDX-License-Identifier: MIT
#include "engine/metrics_recording.h"

#include "broker/metrics/entity_overview.h"
#include "broker/queues/queue_depths.h"
#include "engine/broker_engine.h"
#include "engine/reply_target.h"
#include "engine/unit_context.h"

#include <QString>

#include <optional>
#include <string>
#include <utility>

namespace relaydesk {

namespace {

// What one refresh read, applied after its unit (in unit order with the
// other units' recordCommitted).
struct DepthRead {
    std::optional<EntityOverview> everything;                         // the first refresh
    std::vector<QueueDepthRepair> repairs;                            // the first refresh's check
    std::vector<std::pair<std::string, std::optional<QueueOverview>>> queues; // otherwise: empty = gone
    ClockTime at{};
};

QString describe(const QueueCounts &counts)
{
    return QStringLiteral("available %1, in flight %2, delayed %3, scheduled %4, dead-lettered %5")
        .arg(counts.available)
        .arg(counts.inFlight)
        .arg(counts.delayed)
        .arg(counts.scheduled)
        .arg(counts.deadLettered);
}

// A repaired queue is a defect (the counters are kept by triggers in every
// write's transaction): said once, at start, with both readings.
void logRepairs(const std::vector<QueueDepthRepair> &repairs)
{
    for (const QueueDepthRepair &repair : repairs) {
        qWarning("queue depths: the counters of queue %s differed from a full count and were repaired (kept: %s; "
                 "counted: %s)",
                 repair.queue.c_str(), qPrintable(describe(repair.kept)), qPrintable(describe(repair.counted)));
    }
}

Result<DepthRead> readDepths(UnitContext &unit, const BrokerMetrics &metrics)
{
    DepthRead read;
    read.at = unit.now();
    if (!metrics.entitiesLoaded()) {
        // At start: the kept counters against a full count (O(messages), once).
        Result<std::vector<QueueDepthRepair>> repairs = queue_depths::recountEveryQueue(unit.database(), unit.now());
        if (!repairs)
            return repairs.error();
        read.repairs = std::move(*repairs);
        Result<EntityOverview> overview = readEntityOverview(unit.database(), BrokerIdentity{}, unit.now());
        if (!overview)
            return overview.error();
        read.everything = std::move(*overview);
        return read;
    }
    for (std::string &name : metrics.queuesToRefresh(unit.now())) {
        Result<std::optional<QueueOverview>> queue = refreshQueueOverview(unit.database(), name, unit.now());
        if (!queue)
            return queue.error();
        read.queues.emplace_back(std::move(name), std::move(*queue));
    }
    return read;
}

void applyDepths(BrokerMetrics &metrics, const DepthRead &read)
{
    if (read.everything) {
        logRepairs(read.repairs);
        metrics.loadEntities(*read.everything, read.at);
        return;
    }
    for (const auto &[name, queue] : read.queues) {
        if (queue)
            metrics.setDepths(name, queue->counts, queue->nextVisible, read.at);
        else
            metrics.removeQueue(name);
    }
}

} // namespace

void recordCommitted(BrokerMetrics &metrics, const std::vector<MetricEvent> &counts,
                     const std::vector<EntityChange> &changes, ClockTime at)
{
    for (const EntityChange &change : changes) {
        if (change.entity == EntityChange::Entity::Subscription)
            continue;
        const std::string name = change.name.toStdString();
        const bool queue = change.entity == EntityChange::Entity::Queue;
        switch (change.kind) {
        case EntityChange::Kind::Created:
            if (queue)
                metrics.addQueue(name);
            else
                metrics.addTopic(name);
            break;
        case EntityChange::Kind::Deleted:
            if (queue)
                metrics.removeQueue(name);
            else
                metrics.removeTopic(name);
            break;
        case EntityChange::Kind::CountsChanged:
            if (queue)
                metrics.markStale(name);
            break;
        case EntityChange::Kind::Changed:
        case EntityChange::Kind::AttemptsLogged: // subscriptions only; skipped above
            break;
        }
    }
    metrics.record(counts, at); // after Created: a unit may make an entity and count on it
}

void refreshQueueDepths(BrokerEngine &engine, QObject *context, std::function<void()> done)
{
    BrokerMetrics &metrics = engine.metrics();
    const ReplyTarget target(context);
    engine.execute([&metrics](UnitContext &unit) { return readDepths(unit, metrics); }, nullptr,
                   [&metrics, target, done = std::move(done)](Result<DepthRead> read) {
                       // On the broker thread, in unit order: apply before later units' counts.
                       if (read)
                           applyDepths(metrics, *read);
                       if (!done)
                           return;
                       target.post(done);
                   });
}

void refreshStaleQueueDepths(BrokerEngine &engine)
{
    const BrokerMetrics &metrics = engine.metrics();
    if (metrics.entitiesLoaded() && metrics.queuesToRefresh(engine.clock().now()).empty())
        return;
    refreshQueueDepths(engine, nullptr, {});
}

} // namespace relaydesk
