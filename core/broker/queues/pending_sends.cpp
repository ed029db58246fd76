// SPDX-License-Identifier: MIT
#include "broker/queues/pending_sends.h"

#include "broker/clock_time.h"
#include "store/database.h"
#include "store/transaction.h"

#include <algorithm>
#include <map>

namespace relaydesk {

namespace {

constexpr int kColumns = 12;
constexpr std::size_t kLargestStatement = 64;   // rows; 768 parameters, far below SQLite's limit

// The INSERT of `rows` messages; its text is the statement cache's key, so
// each size is prepared once.
std::string insertSql(std::size_t rows)
{
    std::string sql = "INSERT INTO messages (message_id, queue_id, body, attributes, group_id, sent_ms, scheduled_ms, "
                      "enqueued_ms, visible_at_ms, expires_at_ms, state, dead_letter_reason) VALUES ";
    for (std::size_t i = 0; i < rows; ++i)
        sql += i == 0 ? "(?,?,?,?,?,?,?,?,?,?,?,?)" : ",(?,?,?,?,?,?,?,?,?,?,?,?)";
    return sql;
}

StoreStatus bindRow(Statement &statement, int first, const PendingSends::Row &row)
{
    StoreStatus status;
    int index = first;
    const auto bind = [&](const auto &value) {
        if (status.ok())
            status = statement.bind(++index, value);
    };
    bind(row.messageId);
    bind(row.queueId);
    bind(row.body);
    bind(row.attributes);
    bind(row.groupId);
    bind(row.sentMs);
    bind(row.scheduledMs);
    bind(row.enqueuedMs);
    bind(row.visibleAtMs);
    bind(row.expiresAtMs);
    bind(std::string_view(row.state));
    bind(row.deadLetterReason);
    return status;
}

void addTo(queue_depths::SentTally &sum, const queue_depths::SentTally &tally)
{
    sum.stored += tally.stored;
    sum.delayed += tally.delayed;
    sum.scheduled += tally.scheduled;
    sum.deadLettered += tally.deadLettered;
}

} // namespace

std::size_t setBasedStatementRows(std::size_t left)
{
    std::size_t rows = kLargestStatement;
    while (rows > left)
        rows /= 2;
    return rows;
}

void PendingSends::add(Row row)
{
    m_rows.push_back(std::move(row));
    m_rowUnits.push_back(m_unit);
}

void PendingSends::addTally(std::int64_t queueId, const queue_depths::SentTally &tally, std::int64_t nowMs)
{
    m_tallies.push_back(Tally{m_unit, queueId, tally, nowMs});
}

void PendingSends::forget(std::size_t unit)
{
    std::size_t kept = 0;
    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        if (m_rowUnits[i] == unit)
            continue;
        if (kept != i) {
            m_rows[kept] = std::move(m_rows[i]);
            m_rowUnits[kept] = m_rowUnits[i];
        }
        ++kept;
    }
    m_rows.resize(kept);
    m_rowUnits.resize(kept);
    m_tallies.erase(std::remove_if(m_tallies.begin(), m_tallies.end(), [unit](const Tally &t) { return t.unit == unit; }),
                    m_tallies.end());
}

StoreStatus PendingSends::insertRows(Database &database, std::size_t first, std::size_t count) const
{
    StoreResult<CachedStatement> statement = database.prepareCached(insertSql(count));
    if (!statement.ok())
        return statement.status();
    for (std::size_t i = 0; i < count; ++i) {
        if (StoreStatus bound = bindRow(**statement, static_cast<int>(i) * kColumns, m_rows[first + i]); !bound.ok())
            return bound;
    }
    return (*statement)->execute();
}

// One counter UPDATE per queue: the tallies of every unit but `failedUnits`.
StoreStatus PendingSends::addTallies(Database &database, const std::vector<std::size_t> &failedUnits) const
{
    std::map<std::int64_t, Tally> perQueue;
    for (const Tally &tally : m_tallies) {
        if (std::find(failedUnits.begin(), failedUnits.end(), tally.unit) != failedUnits.end())
            continue;
        Tally &sum = perQueue[tally.queueId];
        addTo(sum.tally, tally.tally);
        sum.nowMs = std::max(sum.nowMs, tally.nowMs);
    }
    for (const auto &[queueId, sum] : perQueue) {
        const Status added = queue_depths::addSent(database, queueId, sum.tally, fromEpochMilliseconds(sum.nowMs));
        if (!added)
            return StoreStatus::failed(added.error().message);
    }
    return {};
}

std::vector<std::pair<std::size_t, StoreStatus>> PendingSends::flush(Database &database)
{
    StoreResult<Savepoint> all = Savepoint::begin(database, "sends");
    StoreStatus status = all.ok() ? StoreStatus() : all.status();
    for (std::size_t first = 0; status.ok() && first < m_rows.size();) {
        const std::size_t rows = setBasedStatementRows(m_rows.size() - first);
        status = insertRows(database, first, rows);
        first += rows;
    }
    if (status.ok())
        status = addTallies(database, {});
    if (status.ok())
        status = all->release();
    std::vector<std::pair<std::size_t, StoreStatus>> failures;
    if (!status.ok() && all.ok())
        all->rollback();
    if (!status.ok() && database.inTransaction())
        return flushUnitByUnit(database);
    if (!status.ok()) {   // the transaction is gone: every unit of the flush with it
        for (const Tally &tally : m_tallies)
            failures.emplace_back(tally.unit, status);
        for (std::size_t unit : m_rowUnits)
            failures.emplace_back(unit, status);
    }
    m_rows.clear();
    m_rowUnits.clear();
    m_tallies.clear();
    return failures;
}

// After a set-based statement failed: each unit's rows in a savepoint of
// their own, so only the failing unit fails; then the counters of the others.
std::vector<std::pair<std::size_t, StoreStatus>> PendingSends::flushUnitByUnit(Database &database)
{
    std::vector<std::pair<std::size_t, StoreStatus>> failures;
    std::vector<std::size_t> failedUnits;
    StoreResult<Savepoint> all = Savepoint::begin(database, "sends");
    for (std::size_t first = 0; first < m_rows.size();) {
        const std::size_t unit = m_rowUnits[first];
        std::size_t end = first;
        while (end < m_rows.size() && m_rowUnits[end] == unit)
            ++end;
        StoreResult<Savepoint> own = Savepoint::begin(database, "unit_sends");
        StoreStatus status = own.ok() ? StoreStatus() : own.status();
        for (std::size_t i = first; status.ok() && i < end; ++i)
            status = insertRows(database, i, 1);
        if (status.ok())
            status = own->release();
        else if (own.ok())
            own->rollback();
        if (!status.ok()) {
            failures.emplace_back(unit, status);
            failedUnits.push_back(unit);
        }
        if (!database.inTransaction())
            break;   // the caller fails every unit of the transaction
        first = end;
    }
    if (database.inTransaction()) {
        StoreStatus counted = all.ok() ? addTallies(database, failedUnits) : all.status();
        if (counted.ok())
            counted = all->release();
        if (!counted.ok()) {   // rows without their counts: none of them is kept
            if (all.ok())
                all->rollback();
            for (std::size_t unit : m_rowUnits)
                failures.emplace_back(unit, counted);
        }
    }
    m_rows.clear();
    m_rowUnits.clear();
    m_tallies.clear();
    return failures;
}

} // namespace relaydesk
