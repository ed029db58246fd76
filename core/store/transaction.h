// SPDX-License-Identifier: MIT
#pragma once

#include "store/store_status.h"

#include <string>
#include <string_view>

namespace relaydesk {

class Database;

// A write transaction (RAII): BEGIN IMMEDIATE on begin(), so the write lock
// is taken up front and a conflict shows as Busy at the start, never halfway.
// Rolled back on destruction unless commit() succeeded. If commit() fails
// (disk full, I/O error) the transaction is rolled back and nothing of it is
// visible. Move-only; must not outlive its Database; same thread as the
// Database. Not nestable: use Savepoint inside.
class Transaction final {
public:
    static StoreResult<Transaction> begin(Database &database);

    Transaction(Transaction &&other) noexcept;
    Transaction &operator=(Transaction &&other) noexcept; // rolls back this one first
    Transaction(const Transaction &) = delete;
    Transaction &operator=(const Transaction &) = delete;
    ~Transaction();

    StoreStatus commit();
    StoreStatus rollback();
    bool isActive() const { return m_database != nullptr; }

private:
    explicit Transaction(Database &database) : m_database(&database) {}

    Database *m_database = nullptr; // null once committed or rolled back
};

// A named savepoint (RAII) — one unit of work inside a larger transaction,
// e.g. one command of a group-commit batch: release() keeps its changes in
// the enclosing transaction, rollback() (or destruction without release())
// undoes only them. Outside a transaction, a savepoint starts a deferred one
// that release() commits. Move-only; same thread and lifetime rules as
// Transaction. `name` must be a plain SQL identifier.
class Savepoint final {
public:
    static StoreResult<Savepoint> begin(Database &database, std::string_view name = "unit");

    Savepoint(Savepoint &&other) noexcept;
    Savepoint &operator=(Savepoint &&other) noexcept; // rolls back this one first
    Savepoint(const Savepoint &) = delete;
    Savepoint &operator=(const Savepoint &) = delete;
    ~Savepoint();

    StoreStatus release();
    // Undoes the changes since begin() and ends the savepoint. If SQLite has
    // already rolled back the whole transaction (after SQLITE_FULL or an I/O
    // error) there is nothing left to undo and this returns Ok.
    StoreStatus rollback();
    bool isActive() const { return m_database != nullptr; }

private:
    Savepoint(Database &database, std::string name) : m_database(&database), m_name(std::move(name)) {}

    Database *m_database = nullptr; // null once released or rolled back
    std::string m_name;
};

} // namespace relaydesk
