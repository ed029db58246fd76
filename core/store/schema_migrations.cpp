// SPDX-License-Identifier: MIT
#include "store/schema_migrations.h"

#include "store/database.h"
#include "store/transaction.h"

#include <algorithm>
#include <string>

namespace relaydesk {

namespace {

// schema_version: one row per migration applied, in order; the current
// version is the highest. Kept apart from PRAGMA user_version so the history
// (what ran, by description) can be read with plain SQL.
constexpr std::string_view kCreateSchemaVersion =
    "CREATE TABLE IF NOT EXISTS schema_version ("
    " version INTEGER PRIMARY KEY,"
    " description TEXT NOT NULL)";

StoreStatus checkMigrationList(std::span<const Migration> migrations)
{
    for (std::size_t i = 0; i < migrations.size(); ++i) {
        if (migrations[i].version != int(i) + 1) {
            return StoreStatus::misuse("migration list out of order: entry " + std::to_string(i + 1) + " has version "
                                       + std::to_string(migrations[i].version));
        }
        if (migrations[i].sql.empty() && !migrations[i].apply)
            return StoreStatus::misuse("migration " + std::to_string(i + 1) + " has neither SQL nor a function");
    }
    return {};
}

StoreResult<bool> hasSchemaVersionTable(Database &database)
{
    StoreResult<std::int64_t> count =
        database.queryInt64("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'schema_version'");
    if (!count.ok())
        return count.status();
    return *count != 0;
}

std::string describe(const Migration &migration)
{
    return "migration " + std::to_string(migration.version) + " (" + std::string(migration.description) + ")";
}

StoreStatus newerSchema(int found, int known)
{
    return StoreStatus::newerSchema("the database has schema version " + std::to_string(found)
                                    + ", newer than this Relaydesk knows (" + std::to_string(known)
                                    + "); use a newer Relaydesk");
}

// Stamps the application_id (new file) and creates schema_version, atomically.
StoreStatus prepareVersionTable(Database &database)
{
    StoreResult<bool> hasTable = hasSchemaVersionTable(database);
    if (!hasTable.ok())
        return hasTable.status();
    StoreResult<std::int64_t> applicationId = database.queryInt64("PRAGMA application_id");
    if (!applicationId.ok())
        return applicationId.status();
    if (*hasTable && *applicationId == kRelaydeskApplicationId)
        return {};
    StoreResult<Transaction> transaction = Transaction::begin(database);
    if (!transaction.ok())
        return transaction.status();
    if (*applicationId != kRelaydeskApplicationId) {
        StoreStatus status = database.execute("PRAGMA application_id = " + std::to_string(kRelaydeskApplicationId));
        if (!status.ok())
            return status;
    }
    if (StoreStatus status = database.execute(kCreateSchemaVersion); !status.ok())
        return status;
    return transaction->commit();
}

StoreStatus applyMigration(Database &database, const Migration &migration)
{
    StoreResult<Transaction> transaction = Transaction::begin(database);
    if (!transaction.ok())
        return transaction.status().withContext(describe(migration));
    StoreStatus status = migration.sql.empty() ? migration.apply(database) : database.execute(migration.sql);
    if (!status.ok())
        return status.withContext(describe(migration) + " failed");
    StoreResult<Statement> record = database.prepare("INSERT INTO schema_version (version, description) VALUES (?, ?)");
    if (!record.ok())
        return record.status().withContext(describe(migration));
    if (status = record->bind(1, migration.version); status.ok())
        status = record->bind(2, migration.description);
    if (status.ok())
        status = record->execute();
    if (!status.ok())
        return status.withContext(describe(migration));
    return transaction->commit().withContext(describe(migration));
}

} // namespace

int latestSchemaVersion(std::span<const Migration> migrations)
{
    int latest = 0;
    for (const Migration &migration : migrations)
        latest = std::max(latest, migration.version);
    return latest;
}

StoreResult<int> schemaVersionOf(Database &database)
{
    StoreResult<bool> hasTable = hasSchemaVersionTable(database);
    if (!hasTable.ok())
        return hasTable.status();
    if (!*hasTable)
        return 0;
    StoreResult<std::int64_t> version = database.queryInt64("SELECT coalesce(max(version), 0) FROM schema_version");
    if (!version.ok())
        return version.status();
    return static_cast<int>(*version);
}

StoreResult<int> migrateSchema(Database &database, std::span<const Migration> migrations)
{
    if (StoreStatus status = checkMigrationList(migrations); !status.ok())
        return status;
    const int known = latestSchemaVersion(migrations);
    StoreResult<int> current = schemaVersionOf(database);
    if (!current.ok())
        return current.status();
    if (*current > known)
        return newerSchema(*current, known); // checked before anything is written
    if (StoreStatus status = prepareVersionTable(database); !status.ok())
        return status;
    for (const Migration &migration : migrations) {
        if (migration.version <= *current)
            continue;
        if (StoreStatus status = applyMigration(database, migration); !status.ok())
            return status;
    }
    return known;
}

StoreStatus checkSchemaVersion(Database &database, std::span<const Migration> migrations)
{
    const int known = latestSchemaVersion(migrations);
    StoreResult<int> current = schemaVersionOf(database);
    if (!current.ok())
        return current.status();
    if (*current > known)
        return newerSchema(*current, known);
    if (*current < known) {
        return StoreStatus::outdatedSchema("the database has schema version " + std::to_string(*current)
                                           + ", older than this Relaydesk (" + std::to_string(known)
                                           + "); open it read-write once to migrate it");
    }
    return {};
}

} // namespace relaydesk
