// SPDX-License-Identifier: MIT
#include "broker/queues/pending_deletes.h"

#include "broker/queues/pending_sends.h"
#include "store/database.h"
#include "store/transaction.h"

#include <algorithm>
#include <map>

namespace relaydesk {

namespace {

std::string deleteSql(std::size_t rows)
{
    std::string ids;
    std::string handles;
    for (std::size_t i = 0; i < rows; ++i) {
        ids += i == 0 ? "?" : ",?";
        handles += i == 0 ? "?" : ",?";
    }
    return "DELETE FROM messages WHERE queue_id = ? AND id IN (" + ids + ") AND receipt_handle IN (" + handles + ")";
}

} // namespace

void PendingDeletes::add(std::int64_t queueId, std::int64_t rowId, std::string receiptHandle)
{
    m_deletes.push_back(Delete{m_unit, queueId, rowId, std::move(receiptHandle)});
}

void PendingDeletes::forget(std::size_t unit)
{
    std::erase_if(m_deletes, [unit](const Delete &d) { return d.unit == unit; });
}

// `rows`, all of one queue, in one statement.
StoreStatus PendingDeletes::deleteRows(Database &database, const std::vector<const Delete *> &rows) const
{
    StoreResult<CachedStatement> statement = database.prepareCached(deleteSql(rows.size()));
    if (!statement.ok())
        return statement.status();
    const int count = static_cast<int>(rows.size());
    StoreStatus status = (*statement)->bind(1, rows.front()->queueId);
    for (int i = 0; status.ok() && i < count; ++i) {
        status = (*statement)->bind(2 + i, rows[static_cast<std::size_t>(i)]->rowId);
        if (status.ok())
            status = (*statement)->bind(2 + count + i, rows[static_cast<std::size_t>(i)]->receiptHandle);
    }
    return status.ok() ? (*statement)->execute() : status;
}

std::vector<std::pair<std::size_t, StoreStatus>> PendingDeletes::flush(Database &database)
{
    std::map<std::int64_t, std::vector<const Delete *>> perQueue;
    for (const Delete &d : m_deletes)
        perQueue[d.queueId].push_back(&d);
    StoreResult<Savepoint> all = Savepoint::begin(database, "deletes");
    StoreStatus status = all.ok() ? StoreStatus() : all.status();
    for (const auto &[queueId, rows] : perQueue) {
        for (std::size_t first = 0; status.ok() && first < rows.size();) {
            const std::size_t count = setBasedStatementRows(rows.size() - first);
            status = deleteRows(database, std::vector<const Delete *>(rows.begin() + static_cast<std::ptrdiff_t>(first),
                                                                       rows.begin() + static_cast<std::ptrdiff_t>(first + count)));
            first += count;
        }
    }
    if (status.ok())
        status = all->release();
    else if (all.ok())
        all->rollback();
    if (!status.ok() && database.inTransaction())
        return flushUnitByUnit(database);
    std::vector<std::pair<std::size_t, StoreStatus>> failures;
    if (!status.ok())   // the transaction is gone: every unit of the flush with it
        for (const Delete &d : m_deletes)
            failures.emplace_back(d.unit, status);
    m_deletes.clear();
    return failures;
}

// After a set-based statement failed: each unit's deletes in a savepoint of
// their own, so only the failing unit fails.
std::vector<std::pair<std::size_t, StoreStatus>> PendingDeletes::flushUnitByUnit(Database &database)
{
    std::vector<std::pair<std::size_t, StoreStatus>> failures;
    for (std::size_t first = 0; first < m_deletes.size() && database.inTransaction();) {
        std::size_t end = first;
        while (end < m_deletes.size() && m_deletes[end].unit == m_deletes[first].unit)
            ++end;
        StoreResult<Savepoint> own = Savepoint::begin(database, "unit_deletes");
        StoreStatus status = own.ok() ? StoreStatus() : own.status();
        for (std::size_t i = first; status.ok() && i < end; ++i)
            status = deleteRows(database, {&m_deletes[i]});
        if (status.ok())
            status = own->release();
        else if (own.ok())
            own->rollback();
        if (!status.ok())
            failures.emplace_back(m_deletes[first].unit, status);
        first = end;
    }
    m_deletes.clear();
    return failures;
}

} // namespace relaydesk
