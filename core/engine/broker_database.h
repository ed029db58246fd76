// SPDX-License-Identifier: MIT
#pragma once
// The broker's database file as the host opens it. Above core/engine nothing
// includes core/store or broker/store_calls.h (cmake/check_layering.py): SQL
// lives in core/broker, units run through the engine, and the host only
// names the file to open and reads why it could not be.

#include "store/database.h"
#include "store/store_status.h"

#include <memory>
#include <string>

namespace relaydesk {

// Why the database could not be opened (disk full, in use, damaged, …).
using DatabaseProblemKind = StoreStatus::Kind;

// Opens (creating, migrating) the database at `path` for a BrokerEngine.
inline StoreResult<std::unique_ptr<Database>> openBrokerDatabase(const std::string &path)
{
    return Database::open(path);
}

} // namespace relaydesk
