// SPDX-License-Identifier: MIT
#pragma once

#include "broker/clock_time.h"
#include "engine/entity_change.h"

#include <utility>
#include <vector>

namespace relaydesk {

class Database;

// What a unit of work sees while it runs on the broker thread, inside its
// batch's transaction: the write connection, the clock time of the batch,
// and a place to report the entity changes it makes. The changes are
// published (coalesced) only if the unit's batch commits.
//
// Ownership: made by the engine for one unit run; references the Database.
// Thread: the broker thread, for the duration of the unit only.
class UnitContext final {
public:
    UnitContext(Database &database, ClockTime now) : m_database(database), m_now(now) {}
    UnitContext(const UnitContext &) = delete;
    UnitContext &operator=(const UnitContext &) = delete;

    Database &database() const { return m_database; }
    ClockTime now() const { return m_now; }

    void reportChange(EntityChange change) { m_changes.push_back(std::move(change)); }
    std::vector<EntityChange> takeChanges() { return std::exchange(m_changes, {}); }

private:
    Database &m_database;
    ClockTime m_now;
    std::vector<EntityChange> m_changes;
};

} // namespace relaydesk
