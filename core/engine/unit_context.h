// SPDX-License-Identifier: MIT
#pragma once

#include "broker/metrics/broker_metrics.h"
#include "broker/clock_time.h"
#include "engine/entity_change.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace relaydesk {

class Database;

// What a unit of work sees while it runs on the broker thread, inside its
// batch's transaction: the write connection, the clock time of the batch,
// a place to report the entity changes it makes, and one to count what it
// did for BrokerMetrics. The changes are published (coalesced) and the
// counts recorded only if the unit's batch commits.
//
// Ownership: made by the engine for one unit run; references the Database.
// Thread: the broker thread, for the duration of the unit only.
class UnitContext final {
public:
    // `counting` false: countQueue/countTopic record nothing (the engine's
    // setMetricsCountingForTesting, for benchmarks).
    UnitContext(Database &database, ClockTime now, bool counting = true)
        : m_database(database), m_now(now), m_counting(counting)
    {
    }
    UnitContext(const UnitContext &) = delete;
    UnitContext &operator=(const UnitContext &) = delete;

    Database &database() const { return m_database; }
    ClockTime now() const { return m_now; }

    void reportChange(EntityChange change) { m_changes.push_back(std::move(change)); }
    std::vector<EntityChange> takeChanges() { return std::exchange(m_changes, {}); }

    // Counts `count` of `counter` for a queue or topic (by name).
    void countQueue(QueueCounter counter, const std::string &queue, std::int64_t count = 1)
    {
        if (m_counting && count > 0)
            m_counts.push_back(MetricEvent{MetricEvent::Entity::Queue, int(counter), queue, count});
    }
    void countTopic(TopicCounter counter, const std::string &topic, std::int64_t count = 1)
    {
        if (m_counting && count > 0)
            m_counts.push_back(MetricEvent{MetricEvent::Entity::Topic, int(counter), topic, count});
    }
    std::vector<MetricEvent> takeCounts() { return std::exchange(m_counts, {}); }

private:
    Database &m_database;
    ClockTime m_now;
    bool m_counting = true;
    std::vector<EntityChange> m_changes;
    std::vector<MetricEvent> m_counts;
};

} // namespace relaydesk
