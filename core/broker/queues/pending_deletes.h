// SPDX-License-Identifier: MIT
#pragma once

#include "store/commit_queue.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace relaydesk {

class Database;

// The deletes of one commit, written set-based (docs/architecture.md §4,
// "Set-based sends and deletes"): MessageReceiver hands over a delete by a
// sealed receipt handle — whose answer is success whether or not the message
// is still there (docs/behaviour.md §5.3) — instead of running it; at the
// flush each queue's deletes become DELETEs of 64, 32, …, 1 rows
// (`queue_id = ? AND id IN (…) AND receipt_handle IN (…)`: a sealed handle
// names its row, and handles are unique, so the two lists match pairwise).
// If a set-based statement fails, the flush is undone and redone unit by
// unit, each in a savepoint: only the unit whose delete fails gets the error.
//
// Ownership: the BrokerEngine owns it and gives it to the commit queue.
// Thread: the broker thread only.
class PendingDeletes final : public DeferredWrites {
public:
    // The running unit's delete of row `rowId` of queue `queueId` while it is
    // locked by `receiptHandle`.
    void add(std::int64_t queueId, std::int64_t rowId, std::string receiptHandle);

    void unitStarts(std::size_t unit) override { m_unit = unit; }
    void forget(std::size_t unit) override;
    bool pending() const override { return !m_deletes.empty(); }
    std::vector<std::pair<std::size_t, StoreStatus>> flush(Database &database) override;

private:
    struct Delete {
        std::size_t unit = 0;
        std::int64_t queueId = 0;
        std::int64_t rowId = 0;
        std::string receiptHandle;
    };

    StoreStatus deleteRows(Database &database, const std::vector<const Delete *> &rows) const;
    std::vector<std::pair<std::size_t, StoreStatus>> flushUnitByUnit(Database &database);

    std::size_t m_unit = 0;
    std::vector<Delete> m_deletes;
};

} // namespace relaydesk
