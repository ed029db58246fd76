// SPDX-License-Identifier: MIT
#pragma once

#include "store/database_lock.h"
#include "store/relaydesk_schema.h"
#include "store/schema_migrations.h"
#include "store/statement.h"
#include "store/store_status.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>

struct sqlite3;

namespace relaydesk {

class CachedStatement;

enum class OpenMode {
    ReadWrite, // the one writer: takes the PATH.lock, sets WAL/FULL/foreign keys, migrates
    ReadOnly,  // a browse connection: no lock, SQLITE_OPEN_READONLY, sees committed data only
};

struct DatabaseOptions {
    OpenMode mode = OpenMode::ReadWrite;
    // The schema this build knows: applied on read-write open, expected exactly on read-only open.
    std::span<const Migration> migrations = relaydeskMigrations();
    // Run PRAGMA quick_check on open (O(database size); turn off only where a caller has just checked).
    bool checkIntegrity = true;
    // A read-write open of a file at least this big skips quick_check when the
    // previous writer closed it cleanly and nothing has written it since (its
    // seal, store/clean_close_seal.h, matches). Smaller files are always checked.
    std::uintmax_t checkAlwaysBelowBytes = 64u << 20;
    // How long SQLite waits for a lock held by another connection before reporting Busy.
    std::chrono::milliseconds busyTimeout{250};
};

// One SQLite connection to a Relaydesk database (RAII: closed on destruction).
//
// open() refuses, with a message naming the file: a file that is not SQLite
// or is damaged (Corrupt — header check, SQLITE_NOTADB/CORRUPT, quick_check),
// a SQLite file of another application (NotRelaydesk: application_id is not
// kRelaydeskApplicationId, or is unset while the file has tables), a schema
// newer than this build (NewerSchema), and — read-write only — a database
// already opened read-write by another process or another Database in this
// process (InUse, via the DatabaseLock on PATH.lock held for this object's
// lifetime). A read-write open switches to journal_mode=WAL (verified),
// synchronous=FULL and foreign_keys=ON, then runs the migrations. ":memory:"
// is accepted for read-write (no lock, no WAL).
//
// Ownership: returned in a std::unique_ptr; Statements and CachedStatements
// it made must be destroyed before it. Thread safety: none (opened with
// SQLITE_OPEN_NOMUTEX) — one thread at a time; a connection may be handed
// from one thread to another (the CommitQueue writer does that).
class Database final {
public:
    static StoreResult<std::unique_ptr<Database>> open(const std::string &path, const DatabaseOptions &options = {});

    Database(const Database &) = delete;
    Database &operator=(const Database &) = delete;
    ~Database();

    const std::string &path() const { return m_path; }
    OpenMode mode() const { return m_mode; }
    int schemaVersion() const { return m_schemaVersion; }
    // Whether this open ran quick_check (false when a clean close's seal let it skip).
    bool integrityChecked() const { return m_integrityChecked; }

    // Runs a script of one or more statements, discarding any rows.
    StoreStatus execute(std::string_view sql);
    // Prepares one statement (the first of `sql`).
    StoreResult<Statement> prepare(std::string_view sql);
    // Like prepare(), but reuses a statement prepared earlier with the same
    // text; the statement is reset and its bindings cleared when the handle
    // is destroyed. Nested use of the same text gets a fresh statement.
    StoreResult<CachedStatement> prepareCached(std::string_view sql);
    // The first column of the first row of `sql` (e.g. a PRAGMA or count(*));
    // Failed when there is no row.
    StoreResult<std::int64_t> queryInt64(std::string_view sql);
    StoreResult<std::string> queryText(std::string_view sql);

    std::int64_t lastInsertRowId() const;
    int changes() const;          // rows changed by the last INSERT/UPDATE/DELETE
    std::int64_t totalChanges() const; // rows changed by every INSERT/UPDATE/DELETE since the open
    bool inTransaction() const;   // false in autocommit mode (also after SQLite rolled back by itself)
    std::size_t cachedStatementCount() const { return m_cache.size(); }

    // The SQLite error of the last call on this connection, with context.
    StoreStatus lastError(std::string_view context) const;
    // Values a caller read from this database and keeps for the connection's
    // life, by the caller's key. Only for values committed before the first
    // unit that reads them and never changed after (the receipt seal key).
    std::unordered_map<std::string, std::string> &memo() { return m_memo; }

    // The raw connection, for SQLite calls this class does not wrap.
    sqlite3 *handle() const { return m_db; }

private:
    friend class CachedStatement;
    Database() = default;
    StoreStatus connect(const DatabaseOptions &options, bool sealedClean);
    StoreStatus checkIdentity();
    StoreStatus checkIntegrity();
    StoreStatus configureWriter();

    // One statement of the cache; `lent` while a CachedStatement holds it.
    struct CacheEntry {
        std::unique_ptr<Statement> statement;
        bool lent = false;
    };
    // Looks the cache up by the SQL text itself (no key string is made).
    struct SqlHash {
        using is_transparent = void;
        std::size_t operator()(std::string_view sql) const noexcept { return std::hash<std::string_view>{}(sql); }
    };

    sqlite3 *m_db = nullptr;
    DatabaseLock m_lock; // released after m_db is closed (member order)
    std::string m_path;
    OpenMode m_mode = OpenMode::ReadWrite;
    bool m_inMemory = false;
    int m_schemaVersion = 0;
    bool m_integrityChecked = false;
    bool m_sealOnClose = false; // a read-write file database that opened fully
    // Entries stay in the map while lent (their addresses are stable), so a
    // borrow costs one lookup and no allocation.
    std::unordered_map<std::string, CacheEntry, SqlHash, std::equal_to<>> m_cache;
    std::unordered_map<std::string, std::string> m_memo;
};

// A Statement borrowed from a Database's cache (see prepareCached()); gives it
// back, reset and with cleared bindings, on destruction. A nested use of a
// text already lent owns a fresh statement instead, finalized on destruction.
// Move-only; must not outlive its Database.
class CachedStatement final {
public:
    CachedStatement(Statement &statement, Database::CacheEntry &entry);
    explicit CachedStatement(std::unique_ptr<Statement> owned);
    CachedStatement(CachedStatement &&other) noexcept;
    CachedStatement &operator=(CachedStatement &&) = delete;
    CachedStatement(const CachedStatement &) = delete;
    CachedStatement &operator=(const CachedStatement &) = delete;
    ~CachedStatement();

    Statement &operator*() { return *m_statement; }
    Statement *operator->() { return m_statement; }

private:
    Statement *m_statement = nullptr;
    Database::CacheEntry *m_entry = nullptr; // null when m_owned holds the statement
    std::unique_ptr<Statement> m_owned;
};

} // namespace relaydesk
