// SPDX-License-Identifier: MIT
#pragma once

#include "store/store_status.h"

#include <cstdint>
#include <functional>
#include <span>
#include <string_view>

namespace relaydesk {

class Database;

// "RLDK": the SQLite application_id stamped in the header of every Relaydesk
// database (https://www.sqlite.org/fileformat.html#application_id). A file
// without it (and with tables) or with another id is not ours and is refused.
inline constexpr std::int32_t kRelaydeskApplicationId = 0x524C444B;

// One step of the schema: either SQL text (a script of one or more
// statements) or a function for what SQL alone cannot do. Versions start at
// 1 and follow each other without gaps. A migration never changes once
// released: changes go into a new one.
struct Migration {
    int version = 0;
    std::string_view description;
    std::string_view sql;                         // used when not empty
    std::function<StoreStatus(Database &)> apply; // used when sql is empty
};

// The highest version in `migrations` (0 for none).
int latestSchemaVersion(std::span<const Migration> migrations);

// The version recorded in the database's schema_version table; 0 when the
// table does not exist (a new database).
StoreResult<int> schemaVersionOf(Database &database);

// Brings a read-write database to the latest version: stamps the Relaydesk
// application_id on a new file, creates schema_version, then applies each
// missing migration in order, each in its own BEGIN IMMEDIATE transaction
// together with its schema_version row (a failing migration leaves the
// database at the previous version). Refuses (NewerSchema) a database whose
// version is above the latest known. Returns the version reached.
// Call only outside a transaction, on the thread that uses `database`.
StoreResult<int> migrateSchema(Database &database, std::span<const Migration> migrations);

// For read-only connections: Ok when the database is exactly at the latest
// version, NewerSchema above it, OutdatedSchema below it (not migrated yet).
StoreStatus checkSchemaVersion(Database &database, std::span<const Migration> migrations);

} // namespace relaydesk
