// SPDX-License-Identifier: MIT
#pragma once

#include "broker/result.h"

#include <cstdint>
#include <string>
#include <vector>

namespace relaydesk {

class Database;

// A purge in progress kept in the store, so that a broker stopped mid-purge
// finishes it when it starts again (docs/reliability.md "Bulk removals").
// The purge's first unit notes where it ends (`note`, in `settings` as
// `purge_up_to:<queue id>`) in the commit of its first chunk; each later
// chunk removes messages up to that row (`removeChunk`), and the chunk that
// leaves none removes the note. Messages sent after the purge began have
// higher row ids and are never removed by it. Free functions inside the
// caller's transaction; thread of `db`.
namespace purge_progress {

struct PendingPurge {
    std::int64_t queueId = 0;
    std::string queueName;
    std::int64_t upToRowId = 0;   // the last message there when the purge began
};

// Notes the purge of queue `queueId` up to row `upToRowId`.
Status note(Database &db, std::int64_t queueId, std::int64_t upToRowId);

// The purges noted and not finished, of queues there now and not created
// since the purge began; the notes of any other are removed.
Result<std::vector<PendingPurge>> pending(Database &db);

// One chunk of `purge` (at most bulk_removal::kBulkChunkRows messages);
// answers whether more is left. When none is left, or the queue is gone (or
// is another of the same name), the note goes and it answers false.
Result<bool> removeChunk(Database &db, const PendingPurge &purge);

} // namespace purge_progress

} // namespace relaydesk
