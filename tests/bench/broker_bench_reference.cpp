// SPDX-License-Identifier: MIT
// broker_bench: the reference of each figure — raw SQLite through its C API
// (no Relaydesk code) doing the same row operations at the same number of
// messages per commit, on a new file with the same messages table and
// indexes, WAL and synchronous=FULL, from one thread. The ratio
// Relaydesk / reference is what docs/figures.md tracks: it holds on any
// machine, where absolute rates do not.
#include "broker_bench.h"

#include <sqlite3.h>

#include <chrono>
#include <cstdio>
#include <stdexcept>

namespace relaydesk::bench {

namespace {

// Runs `sql` or throws (a benchmark: a failure ends it).
void run(sqlite3 *db, const std::string &sql)
{
    char *error = nullptr;
    if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
        const std::string message = error ? error : "?";
        sqlite3_free(error);
        throw std::runtime_error(sql + ": " + message);
    }
}

sqlite3_stmt *prepare(sqlite3 *db, const char *sql)
{
    sqlite3_stmt *statement = nullptr;
    if (sqlite3_prepare_v2(db, sql, -1, &statement, nullptr) != SQLITE_OK)
        throw std::runtime_error(std::string(sql) + ": " + sqlite3_errmsg(db));
    return statement;
}

void stepDone(sqlite3 *db, sqlite3_stmt *statement)
{
    if (sqlite3_step(statement) != SQLITE_DONE)
        throw std::runtime_error(sqlite3_errmsg(db));
    sqlite3_reset(statement);
}

// The CREATE statements of the messages table and its indexes in a
// Relaydesk database (its triggers, which keep the queue depths, are
// Relaydesk's work and stay out of the reference).
std::vector<std::string> messagesSchema(const std::filesystem::path &relaydeskFile)
{
    sqlite3 *db = nullptr;
    sqlite3_open_v2(relaydeskFile.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
    sqlite3_stmt *select = prepare(db, "SELECT sql FROM sqlite_master WHERE tbl_name = 'messages' "
                                       "AND type IN ('table', 'index') AND sql IS NOT NULL ORDER BY type DESC");
    std::vector<std::string> schema;
    while (sqlite3_step(select) == SQLITE_ROW)
        schema.emplace_back(reinterpret_cast<const char *>(sqlite3_column_text(select, 0)));
    sqlite3_finalize(select);
    sqlite3_close(db);
    return schema;
}

// A new reference database next to the Relaydesk file, its WAL warm.
sqlite3 *openReference(const std::filesystem::path &relaydeskFile)
{
    const std::string path = relaydeskFile.string() + ".reference";
    for (const char *suffix : {"", "-wal", "-shm"})
        std::filesystem::remove(path + suffix);
    const std::vector<std::string> schema = messagesSchema(relaydeskFile);
    sqlite3 *db = nullptr;
    if (sqlite3_open(path.c_str(), &db) != SQLITE_OK)
        throw std::runtime_error("cannot open " + path);
    run(db, "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;");
    for (const std::string &create : schema)
        run(db, create);
    run(db, kWarmWalSql);
    return db;
}

void closeReference(sqlite3 *db, const std::filesystem::path &relaydeskFile)
{
    sqlite3_close(db);
    for (const char *suffix : {"", "-wal", "-shm"})
        std::filesystem::remove(relaydeskFile.string() + ".reference" + suffix);
}

// Inserts `rows` messages as a send stores one (256-byte body, a 36-character
// id, the times), `perCommit` to a transaction.
void insertMessages(sqlite3 *db, long rows, int perCommit)
{
    sqlite3_stmt *insert = prepare(
        db, "INSERT INTO messages (message_id, queue_id, body, attributes, sent_ms, enqueued_ms, visible_at_ms, "
            "expires_at_ms) VALUES (?1, 1, ?2, '{}', ?3, ?3, ?3, ?3 + 345600000)");
    const std::int64_t now = std::chrono::duration_cast<std::chrono::milliseconds>(
                                 std::chrono::system_clock::now().time_since_epoch())
                                 .count();
    for (long row = 0; row < rows;) {
        run(db, "BEGIN IMMEDIATE");
        for (int i = 0; i < perCommit && row < rows; ++i, ++row) {
            char id[37];
            std::snprintf(id, sizeof id, "%08lx-0000-4000-8000-%012lx", row, row * 7919);
            const std::string body = bodyOf(std::uint64_t(row));
            sqlite3_bind_text(insert, 1, id, -1, SQLITE_TRANSIENT);
            sqlite3_bind_text(insert, 2, body.data(), int(body.size()), SQLITE_TRANSIENT);
            sqlite3_bind_int64(insert, 3, now);
            stepDone(db, insert);
        }
        run(db, "COMMIT");
    }
    sqlite3_finalize(insert);
}

double secondsOf(const std::function<void()> &work)
{
    const auto started = std::chrono::steady_clock::now();
    work();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
}

} // namespace

double referenceInsertRate(const std::filesystem::path &relaydeskFile, long rows, double perCommit)
{
    sqlite3 *db = openReference(relaydeskFile);
    const double seconds = secondsOf([&] { insertMessages(db, rows, std::max(1, int(perCommit + 0.5))); });
    closeReference(db, relaydeskFile);
    return double(rows) / seconds;
}

double referenceReceiveDeleteRate(const std::filesystem::path &relaydeskFile, long rows, double perCommit)
{
    sqlite3 *db = openReference(relaydeskFile);
    insertMessages(db, rows, 1000);
    const int commitSize = std::max(1, int(perCommit + 0.5));
    sqlite3_stmt *lock = prepare(db, "UPDATE messages SET state = 'inflight', receipt_handle = ?2, "
                                     "receive_count = receive_count + 1, first_receive_ms = ?3, visible_at_ms = ?3 "
                                     "WHERE id = ?1");
    sqlite3_stmt *remove = prepare(db, "DELETE FROM messages WHERE id = ?1");
    const double seconds = secondsOf([&] {
        for (long row = 1; row <= rows;) {
            run(db, "BEGIN IMMEDIATE");
            for (int i = 0; i < commitSize && row <= rows; ++i, ++row) {
                const std::string handle = "handle-" + std::to_string(row);
                sqlite3_bind_int64(lock, 1, row);
                sqlite3_bind_text(lock, 2, handle.c_str(), -1, SQLITE_TRANSIENT);
                sqlite3_bind_int64(lock, 3, row);
                stepDone(db, lock);
                sqlite3_bind_int64(remove, 1, row);
                stepDone(db, remove);
            }
            run(db, "COMMIT");
        }
    });
    sqlite3_finalize(lock);
    sqlite3_finalize(remove);
    closeReference(db, relaydeskFile);
    return double(rows) / seconds;
}

void printReference(const std::string &figure, double rate, double reference, double perCommit, double target)
{
    std::printf("%-34s reference: raw SQLite, the same rows, %.0f msg/commit, one thread: %.0f msg/s | ratio %.2f "
                "(target %.2f, %s) | %s\n",
                figure.c_str(), perCommit, reference, rate / reference, target,
                rate / reference >= target ? "met" : "MISSED", loadNow().c_str());
    std::fflush(stdout);
}

} // namespace relaydesk::bench
