// SPDX-License-Identifier: MIT
#pragma once

#include "broker/clock_time.h"
#include "broker/result.h"

#include <cstdint>
#include <vector>

namespace relaydesk {

class Database;

// Which messages of a FIFO queue a receive may take now (docs/behaviour.md §5.2): strict
// order within a group; a group with a message in flight (received, not
// deleted, visibility timeout running) gives nothing; one group's run is
// taken whole before the next group, groups in the order of their oldest
// message. A group's run ends at its first message not visible yet.
//
// The queue is walked in SequenceNumber order (index messages_by_sequence),
// row by row, until `wanted` messages are found; each new group's run is read
// through messages_by_group as the walk meets the group. The run of a group may be longer
// than needed: the receiver skips what it moves to the dead-letter queue and
// stops at `wanted`.
// Ownership: borrows `db`. Thread safety: none — the thread of `db`.
class FifoGroupGate final {
public:
    explicit FifoGroupGate(Database &db) : m_db(&db) {}

    // Message row ids in the order to receive them.
    Result<std::vector<std::int64_t>> receivable(std::int64_t queueId, std::size_t wanted, ClockTime now);

private:
    Database *m_db = nullptr;
};

} // namespace relaydesk
