// SPDX-License-Identifier: MIT
#pragma once

#include "broker/queues/queue_depths.h"
#include "store/commit_queue.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace relaydesk {

class Database;

// How many rows the next set-based statement takes of `left` (> 0): the
// largest of 64, 32, …, 1 that fits, so each size's statement is prepared once.
std::size_t setBasedStatementRows(std::size_t left);

// The sends of one commit, written set-based (docs/architecture.md §4,
// "Set-based sends"): MessageSender hands over the rows of a standard queue's sends and
// their counter tally instead of writing them; at the flush (before a unit
// that does not defer runs, and before COMMIT — CommitQueue) the rows become
// multi-row INSERTs of 64, 32, …, 1 rows (one cached statement per size) and
// each queue's counters one UPDATE (queue_depths::addSent). If a set-based
// statement fails, the flush is undone and every unit's rows are written on
// their own, in a savepoint per unit: only the unit whose rows fail gets the
// error, and only the units whose rows are in count in the queue's counters.
//
// Ownership: the engine's BrokerService owns it and gives it to the commit
// queue. Thread: the broker thread only.
class PendingSends final : public DeferredWrites {
public:
    // One row of `messages`, its values ready to bind.
    struct Row {
        std::string messageId;
        std::int64_t queueId = 0;
        std::string body;
        std::string attributes;   // queue_records::writeMessageAttributes
        std::optional<std::string> groupId;
        std::int64_t sentMs = 0;
        std::optional<std::int64_t> scheduledMs;
        std::int64_t enqueuedMs = 0;
        std::int64_t visibleAtMs = 0;
        std::int64_t expiresAtMs = 0;
        const char *state = "queued";   // "queued" or "scheduled"
        std::optional<std::string> deadLetterReason;
    };

    // The running unit's message, counted in its queue's counters with `tally`'s
    // rule when it is written.
    void add(Row row);
    // The running unit's send call on `queueId` at `nowMs`: adds `tally` to the
    // queue's counters and moves its idle clock, once per queue per flush.
    void addTally(std::int64_t queueId, const queue_depths::SentTally &tally, std::int64_t nowMs);

    void unitStarts(std::size_t unit) override { m_unit = unit; }
    void forget(std::size_t unit) override;
    bool pending() const override { return !m_rows.empty() || !m_tallies.empty(); }
    std::vector<std::pair<std::size_t, StoreStatus>> flush(Database &database) override;

private:
    struct Tally {
        std::size_t unit = 0;
        std::int64_t queueId = 0;
        queue_depths::SentTally tally;
        std::int64_t nowMs = 0;
    };

    StoreStatus insertRows(Database &database, std::size_t first, std::size_t count) const;
    StoreStatus addTallies(Database &database, const std::vector<std::size_t> &failedUnits) const;
    std::vector<std::pair<std::size_t, StoreStatus>> flushUnitByUnit(Database &database);

    std::size_t m_unit = 0;
    std::vector<Row> m_rows;
    std::vector<std::size_t> m_rowUnits;   // the unit of each row
    std::vector<Tally> m_tallies;
};

} // namespace relaydesk
