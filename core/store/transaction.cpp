// SPDX-License-Identifier: MIT
#include "store/transaction.h"

#include "store/database.h"
#include "store/statement.h"

#include <utility>

namespace relaydesk {

namespace {

// The statements every group-commit batch and each of its units run (BEGIN,
// COMMIT, SAVEPOINT, RELEASE) are prepared once per connection and reused,
// instead of being parsed by sqlite3_exec each time.
StoreStatus executeCached(Database &database, const std::string &sql)
{
    StoreResult<CachedStatement> statement = database.prepareCached(sql);
    if (!statement.ok())
        return statement.status();
    return (*statement)->execute();
}

} // namespace

StoreResult<Transaction> Transaction::begin(Database &database)
{
    if (database.inTransaction())
        return StoreStatus::misuse("a transaction is already open on " + database.path() + "; use a Savepoint");
    if (StoreStatus status = executeCached(database, "BEGIN IMMEDIATE"); !status.ok())
        return status;
    return Transaction(database);
}

Transaction::Transaction(Transaction &&other) noexcept : m_database(std::exchange(other.m_database, nullptr)) {}

Transaction &Transaction::operator=(Transaction &&other) noexcept
{
    if (this != &other) {
        rollback();
        m_database = std::exchange(other.m_database, nullptr);
    }
    return *this;
}

Transaction::~Transaction() { rollback(); }

StoreStatus Transaction::commit()
{
    if (!m_database)
        return StoreStatus::misuse("commit of a transaction that is no longer open");
    Database *database = std::exchange(m_database, nullptr);
    StoreStatus status = executeCached(*database, "COMMIT");
    if (!status.ok() && database->inTransaction())
        database->execute("ROLLBACK");
    return status;
}

StoreStatus Transaction::rollback()
{
    if (!m_database)
        return {};
    Database *database = std::exchange(m_database, nullptr);
    if (!database->inTransaction())
        return {}; // SQLite has already rolled it back
    return database->execute("ROLLBACK");
}

StoreResult<Savepoint> Savepoint::begin(Database &database, std::string_view name)
{
    std::string savepointName(name);
    if (StoreStatus status = executeCached(database, "SAVEPOINT " + savepointName); !status.ok())
        return status;
    return Savepoint(database, std::move(savepointName));
}

Savepoint::Savepoint(Savepoint &&other) noexcept
    : m_database(std::exchange(other.m_database, nullptr)), m_name(std::move(other.m_name))
{
}

Savepoint &Savepoint::operator=(Savepoint &&other) noexcept
{
    if (this != &other) {
        rollback();
        m_database = std::exchange(other.m_database, nullptr);
        m_name = std::move(other.m_name);
    }
    return *this;
}

Savepoint::~Savepoint() { rollback(); }

StoreStatus Savepoint::release()
{
    if (!m_database)
        return StoreStatus::misuse("release of savepoint " + m_name + " that is no longer open");
    Database *database = std::exchange(m_database, nullptr);
    StoreStatus status = executeCached(*database, "RELEASE " + m_name);
    if (!status.ok() && database->inTransaction()) {
        database->execute("ROLLBACK TO " + m_name);
        database->execute("RELEASE " + m_name);
    }
    return status;
}

StoreStatus Savepoint::rollback()
{
    if (!m_database)
        return {};
    Database *database = std::exchange(m_database, nullptr);
    if (!database->inTransaction())
        return {}; // the whole transaction is gone already
    StoreStatus status = database->execute("ROLLBACK TO " + m_name);
    if (status.ok())
        status = database->execute("RELEASE " + m_name);
    return status;
}

} // namespace relaydesk
