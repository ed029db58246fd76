// SPDX-License-Identifier: MIT
#include "store/database.h"

#include "store/clean_close_seal.h"

#include <sqlite3.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <utility>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace relaydesk {

namespace {

constexpr mode_t kOwnerOnlyFileMode = 0600;   // as DatabaseLock's file: owner read/write only

constexpr char kSqliteMagic[16] = "SQLite format 3"; // 15 characters and the terminating NUL

bool isMemoryPath(const std::string &path) { return path == ":memory:"; }

// A non-empty file must start with the SQLite header string. SQLite itself
// treats a file shorter than one page as empty and would overwrite it, so a
// small foreign file has to be caught here, before SQLite touches it.
StoreStatus checkSqliteHeader(const std::string &path)
{
    std::ifstream file(path, std::ios::binary);
    if (!file)
        return {}; // does not exist (yet): SQLite creates it or reports CANTOPEN
    char header[sizeof kSqliteMagic] = {};
    file.read(header, sizeof header);
    const std::streamsize read = file.gcount();
    if (read == 0)
        return {}; // empty file: a new database
    if (read < std::streamsize(sizeof header) || std::memcmp(header, kSqliteMagic, sizeof header) != 0) {
        return StoreStatus::notRelaydesk(path + " is not a Relaydesk database: it is not a SQLite file");
    }
    return {};
}

std::string hex32(std::int64_t value)
{
    char text[16];
    std::snprintf(text, sizeof text, "0x%08X", static_cast<unsigned>(static_cast<std::uint32_t>(value)));
    return text;
}

// The database holds message bodies and the signing private key: its files
// are the owner's alone. Creates PATH 0600 when missing
// (SQLite would make it 0644 less the umask) and tightens an existing PATH,
// PATH-wal and PATH-shm to 0600; SQLite gives the -wal and -shm it creates
// the mode of PATH. Best effort: a file this user may not chmod keeps its
// mode, and SQLite reports a path it cannot open.
void restrictToOwner(const std::string &path)
{
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, kOwnerOnlyFileMode);
    if (fd >= 0) {
        ::fchmod(fd, kOwnerOnlyFileMode);
        ::close(fd);
    }
    for (const char *suffix : {"-wal", "-shm"})
        ::chmod((path + suffix).c_str(), kOwnerOnlyFileMode);   // ENOENT: SQLite creates it with PATH's mode
}

// Process-wide SQLite settings, made once before the first connection
// (sqlite3_config works only before SQLite initializes; if something else in
// the process initialized it first, SQLite's defaults stay).
// The savepoint journal — the original of each page a unit changes, kept for
// that unit's rollback — stays in memory up to kSavepointJournalInMemory
// instead of SQLite's 64 KiB: past it, SQLite moves it to a temporary file
// (create, write, unlink) for the rest of the transaction, which a few units
// of each second of sends did at 64 KiB.
//
// The bound must stay below 128 KiB. SQLite keeps that journal in chunks of
// the spill size and, when it spills, writes each chunk with one call of the
// unix VFS, which writes at most 0x1ffff bytes a call (os_unix.c
// seekAndWriteFd masks the count; SQLite 3.40): a chunk of 128 KiB or more
// is written short or not at all, and the unit fails with SQLITE_FULL
// ("database or disk is full") on a disk with room. At 4 MiB this stopped a
// queue once a few thousand of its messages expired in one unit
// (docs/reliability.md "Bulk removals").
void configureSqliteOnce()
{
    static const bool configured = [] {
        constexpr int kSavepointJournalInMemory = 120 << 10;
        return sqlite3_config(SQLITE_CONFIG_STMTJRNL_SPILL, kSavepointJournalInMemory) == SQLITE_OK;
    }();
    (void)configured;
}

} // namespace

StoreResult<std::unique_ptr<Database>> Database::open(const std::string &path, const DatabaseOptions &options)
{
    configureSqliteOnce();
    if (path.empty())
        return StoreStatus::misuse("no database path given");
    std::unique_ptr<Database> database(new Database());
    database->m_path = path;
    database->m_mode = options.mode;
    database->m_inMemory = isMemoryPath(path);
    if (database->m_inMemory && options.mode == OpenMode::ReadOnly)
        return StoreStatus::misuse("an in-memory database cannot be opened read-only");

    if (!database->m_inMemory) {
        // Checks without side effects first, so a wrong path leaves no PATH.lock behind.
        std::error_code error;
        if (std::filesystem::is_directory(path, error))
            return StoreStatus::cannotOpen("cannot open " + path + ": it is a directory");
        if (StoreStatus status = checkSqliteHeader(path); !status.ok())
            return status;
    }
    if (options.mode == OpenMode::ReadWrite && !database->m_inMemory) {
        StoreResult<DatabaseLock> lock = DatabaseLock::acquire(path + ".lock");
        if (!lock.ok())
            return lock.status().withContext(path);
        database->m_lock = std::move(lock).value();
        restrictToOwner(path);
    }
    // Under the lock, before anything is written: a seal is good for one open.
    const bool sealedClean =
        options.mode == OpenMode::ReadWrite && !database->m_inMemory && clean_close_seal::take(path);
    if (StoreStatus status = database->connect(options, sealedClean); !status.ok())
        return status;
    database->m_sealOnClose = options.mode == OpenMode::ReadWrite && !database->m_inMemory;
    return database;
}

StoreStatus Database::connect(const DatabaseOptions &options, bool sealedClean)
{
    int flags = SQLITE_OPEN_NOMUTEX;
    flags |= m_mode == OpenMode::ReadOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    const int code = sqlite3_open_v2(m_path.c_str(), &m_db, flags, nullptr);
    if (code != SQLITE_OK) {
        StoreStatus status = StoreStatus::fromSqlite(code, "cannot open " + m_path,
                                                     m_db ? sqlite3_errmsg(m_db) : sqlite3_errstr(code));
        sqlite3_close_v2(m_db);
        m_db = nullptr;
        return status;
    }
    sqlite3_extended_result_codes(m_db, 1);
    sqlite3_busy_timeout(m_db, static_cast<int>(options.busyTimeout.count()));

    // Identity and integrity first: nothing may be written to a foreign file
    // (switching to WAL rewrites header bytes). Until both passed, closing
    // must not checkpoint: a foreign or damaged file left with a WAL would
    // otherwise be rewritten (WAL copied in, WAL deleted) by its refusal.
    // An empty WAL (SQLite has just made it) is still removed by the close.
    sqlite3_db_config(m_db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, nullptr);
    const auto refuse = [this](StoreStatus status) {
        std::error_code error;
        if (std::filesystem::file_size(m_path + "-wal", error) == 0 && !error)
            sqlite3_db_config(m_db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 0, nullptr);
        return status;
    };
    if (StoreStatus status = checkIdentity(); !status.ok())
        return refuse(status);
    std::error_code sizeError;
    const bool skipCheck = sealedClean && std::filesystem::file_size(m_path, sizeError) >= options.checkAlwaysBelowBytes
        && !sizeError;
    if (options.checkIntegrity && !skipCheck) {
        if (StoreStatus status = checkIntegrity(); !status.ok())
            return refuse(status);
        m_integrityChecked = true;
    }
    sqlite3_db_config(m_db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 0, nullptr);
    if (m_mode == OpenMode::ReadOnly) {
        if (StoreStatus status = checkSchemaVersion(*this, options.migrations); !status.ok())
            return status.withContext(m_path);
        m_schemaVersion = latestSchemaVersion(options.migrations);
        return {};
    }
    if (StoreStatus status = configureWriter(); !status.ok())
        return status;
    StoreResult<int> version = migrateSchema(*this, options.migrations);
    if (!version.ok())
        return version.status().withContext(m_path);
    m_schemaVersion = *version;
    return {};
}

StoreStatus Database::checkIdentity()
{
    StoreResult<std::int64_t> applicationId = queryInt64("PRAGMA application_id");
    if (!applicationId.ok()) {
        const StoreStatus &status = applicationId.status();
        if (status.kind() == StoreStatus::Kind::Corrupt) {
            return StoreStatus::corrupt(m_path + " is damaged or not a database file (" + status.message() + ")");
        }
        return status.withContext("cannot read " + m_path);
    }
    if (*applicationId == kRelaydeskApplicationId)
        return {};
    if (*applicationId != 0) {
        return StoreStatus::notRelaydesk(m_path + " is not a Relaydesk database: it belongs to another application"
                                         " (SQLite application_id " + hex32(*applicationId) + ")");
    }
    StoreResult<std::int64_t> objects = queryInt64("SELECT count(*) FROM sqlite_schema");
    if (!objects.ok())
        return objects.status().withContext("cannot read " + m_path);
    if (*objects != 0) {
        return StoreStatus::notRelaydesk(m_path + " is not a Relaydesk database: it is a SQLite database with "
                                         "tables but without the Relaydesk application_id");
    }
    return {}; // a new, empty file: migrateSchema() stamps it
}

StoreStatus Database::checkIntegrity()
{
    StoreResult<Statement> check = prepare("PRAGMA quick_check(3)");
    if (!check.ok()) {
        return StoreStatus::corrupt(m_path + " is damaged: " + check.status().message());
    }
    std::string problems;
    for (;;) {
        StoreResult<Step> step = check->step();
        if (!step.ok())
            return StoreStatus::corrupt(m_path + " is damaged: " + step.status().message());
        if (*step == Step::Done)
            break;
        std::string line = check->columnText(0);
        if (line == "ok")
            return {};
        for (char &c : line)
            c = c == '\n' ? ' ' : c;
        problems += problems.empty() ? line : "; " + line;
    }
    return StoreStatus::corrupt(m_path + " is damaged (quick_check: " + problems + ")");
}

StoreStatus Database::configureWriter()
{
    StoreResult<std::string> journal = queryText("PRAGMA journal_mode=WAL");
    if (!journal.ok())
        return journal.status().withContext("cannot switch " + m_path + " to WAL");
    const std::string expected = m_inMemory ? "memory" : "wal";
    if (*journal != expected) {
        return StoreStatus::failed("cannot switch " + m_path + " to WAL: journal_mode stayed " + *journal);
    }
    if (StoreStatus status = execute("PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON"); !status.ok())
        return status.withContext(m_path);
    StoreResult<std::int64_t> synchronous = queryInt64("PRAGMA synchronous");
    if (!synchronous.ok() || *synchronous != 2)
        return StoreStatus::failed("cannot set synchronous=FULL on " + m_path);
    StoreResult<std::int64_t> foreignKeys = queryInt64("PRAGMA foreign_keys");
    if (!foreignKeys.ok() || *foreignKeys != 1)
        return StoreStatus::failed("cannot turn on foreign keys on " + m_path);
    return {};
}

Database::~Database()
{
    m_cache.clear(); // finalize cached statements before closing
    // The last connection's close checkpoints the WAL into the file, syncs it
    // and removes the WAL; only then is the file whole on its own.
    if (sqlite3_close_v2(m_db) == SQLITE_OK && m_sealOnClose)
        clean_close_seal::write(m_path);
    // m_lock is released afterwards, when members are destroyed.
}

StoreStatus Database::lastError(std::string_view context) const
{
    const int code = sqlite3_extended_errcode(m_db);
    return StoreStatus::fromSqlite(code == SQLITE_OK ? SQLITE_ERROR : code, context, sqlite3_errmsg(m_db));
}

StoreStatus Database::execute(std::string_view sql)
{
    const std::string text(sql);
    char *error = nullptr;
    const int code = sqlite3_exec(m_db, text.c_str(), nullptr, nullptr, &error);
    StoreStatus status;
    if (code != SQLITE_OK) {
        const int extended = sqlite3_extended_errcode(m_db);
        status = StoreStatus::fromSqlite(extended != SQLITE_OK ? extended : code, text,
                                         error ? error : sqlite3_errstr(code));
    }
    sqlite3_free(error);
    return status;
}

StoreResult<Statement> Database::prepare(std::string_view sql)
{
    sqlite3_stmt *statement = nullptr;
    const int code = sqlite3_prepare_v2(m_db, sql.data(), static_cast<int>(sql.size()), &statement, nullptr);
    if (code != SQLITE_OK) {
        sqlite3_finalize(statement);
        return StoreStatus::fromSqlite(code, "prepare (" + std::string(sql) + ")", sqlite3_errmsg(m_db));
    }
    if (!statement)
        return StoreStatus::misuse("no SQL statement in \"" + std::string(sql) + "\"");
    return Statement(statement);
}

StoreResult<CachedStatement> Database::prepareCached(std::string_view sql)
{
    auto found = m_cache.find(sql);
    if (found != m_cache.end() && !found->second.lent)
        return CachedStatement(*found->second.statement, found->second);
    StoreResult<Statement> prepared = prepare(sql);
    if (!prepared.ok())
        return prepared.status();
    auto statement = std::make_unique<Statement>(std::move(prepared).value());
    if (found != m_cache.end())
        return CachedStatement(std::move(statement)); // nested use of a lent text
    CacheEntry &entry = m_cache.try_emplace(std::string(sql)).first->second;
    entry.statement = std::move(statement);
    return CachedStatement(*entry.statement, entry);
}

StoreResult<std::int64_t> Database::queryInt64(std::string_view sql)
{
    StoreResult<Statement> statement = prepare(sql);
    if (!statement.ok())
        return statement.status();
    StoreResult<Step> step = statement->step();
    if (!step.ok())
        return step.status();
    if (*step != Step::Row)
        return StoreStatus::failed("no row from " + std::string(sql));
    return statement->columnInt64(0);
}

StoreResult<std::string> Database::queryText(std::string_view sql)
{
    StoreResult<Statement> statement = prepare(sql);
    if (!statement.ok())
        return statement.status();
    StoreResult<Step> step = statement->step();
    if (!step.ok())
        return step.status();
    if (*step != Step::Row)
        return StoreStatus::failed("no row from " + std::string(sql));
    return statement->columnText(0);
}

std::int64_t Database::lastInsertRowId() const { return sqlite3_last_insert_rowid(m_db); }

int Database::changes() const { return sqlite3_changes(m_db); }

std::int64_t Database::totalChanges() const { return sqlite3_total_changes64(m_db); }

bool Database::inTransaction() const { return sqlite3_get_autocommit(m_db) == 0; }

CachedStatement::CachedStatement(Statement &statement, Database::CacheEntry &entry)
    : m_statement(&statement), m_entry(&entry)
{
    entry.lent = true;
}

CachedStatement::CachedStatement(std::unique_ptr<Statement> owned)
    : m_statement(owned.get()), m_owned(std::move(owned))
{
}

CachedStatement::CachedStatement(CachedStatement &&other) noexcept
    : m_statement(std::exchange(other.m_statement, nullptr)), m_entry(std::exchange(other.m_entry, nullptr)),
      m_owned(std::move(other.m_owned))
{
}

CachedStatement::~CachedStatement()
{
    if (m_entry == nullptr)
        return; // moved from, or an owned statement (finalized with m_owned)
    m_statement->reset();
    m_statement->clearBindings();
    m_entry->lent = false;
}

} // namespace relaydesk
