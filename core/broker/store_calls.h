// SPDX-License-Identifier: MIT
#pragma once

#include "broker/clock_time.h"
#include "broker/broker_error.h"
#include "broker/result.h"
#include "broker/store_failure.h"
#include "store/database.h"
#include "store/store_status.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace relaydesk {

// The store calls the queue operations repeat: prepare a cached statement,
// bind the arguments, step, and report any StoreStatus failure as the
// InternalError of storeFailure (prepare, bind and step
// failures alike; binding stops at the first failure).
//
// Arguments bind in order to parameters 1..N (`?`, `?NNN` or named ones, in
// the order SQLite numbers them), or by name when wrapped in named(); each
// value may be any type Statement::bind accepts, including std::optional<T>
// and std::nullopt (NULL). Use one style per statement. Passing more
// arguments than the SQL has parameters, or a name it lacks, is a bind
// failure.
//
// Free functions over a Database& the caller holds (inside its transaction);
// same thread as the Database. Statements borrowed from its cache go back to
// it when the returned CachedStatement is destroyed.

// An argument bound to the named parameter `name` (with its prefix, e.g.
// ":queue") rather than to the next position. Refers to `value`: make it
// inside the call it is passed to.
template <class T>
struct NamedArgument final {
    std::string_view name;
    const T &value;
};

template <class T>
NamedArgument<T> named(std::string_view name, const T &value)
{
    return {name, value};
}


namespace detail {
template <class T>
struct IsNamedArgument : std::false_type {};
template <class T>
struct IsNamedArgument<NamedArgument<T>> : std::true_type {};
} // namespace detail

// `sql` from db's statement cache with `args` bound; ready to step.
template <class... Args>
Result<CachedStatement> prepareBound(Database &db, std::string_view sql, const Args &...args)
{
    StoreResult<CachedStatement> statement = db.prepareCached(sql);
    if (!statement.ok())
        return storeFailure(statement.status());
    StoreStatus status;
    int index = 0;
    [[maybe_unused]] const auto bindNext = [&](const auto &argument) {
        if (!status.ok())
            return;
        if constexpr (detail::IsNamedArgument<std::decay_t<decltype(argument)>>::value)
            status = (*statement)->bind(argument.name, argument.value);
        else
            status = (*statement)->bind(++index, argument);
    };
    (bindNext(args), ...);
    if (!status.ok())
        return storeFailure(status);
    return std::move(*statement);
}

// Steps `statement` once: true when a row is readable through its column
// getters, false when it is done.
inline Result<bool> nextRow(Statement &statement)
{
    const StoreResult<Step> step = statement.step();
    if (!step.ok())
        return storeFailure(step.status());
    return *step == Step::Row;
}

// `sql` with `args` bound, stepped once: the statement standing on its first
// row (read it through its column getters, or step it on), or nothing when
// there is no row.
template <class... Args>
Result<std::optional<CachedStatement>> selectRow(Database &db, std::string_view sql, const Args &...args)
{
    Result<CachedStatement> statement = prepareBound(db, sql, args...);
    if (!statement)
        return statement.error();
    const Result<bool> row = nextRow(**statement);
    if (!row)
        return row.error();
    if (!*row)
        return std::optional<CachedStatement>();
    return std::optional<CachedStatement>(std::move(*statement));
}

// Steps `statement` until done, handing each row to `visit(Statement &)`. A
// visit that returns bool stops the walk early by returning false (the
// remaining rows are left unread).
template <class Visit>
Status forEachRow(Statement &statement, Visit &&visit)
{
    for (;;) {
        Result<bool> row = nextRow(statement);
        if (!row)
            return row.error();
        if (!*row)
            return {};
        if constexpr (std::is_same_v<std::invoke_result_t<Visit &, Statement &>, bool>) {
            if (!visit(statement))
                return {};
        } else {
            visit(statement);
        }
    }
}

// Runs `sql` (INSERT/UPDATE/DELETE) with `args` to its end; db.changes()
// then tells how many rows it touched.
template <class... Args>
Status executeStatement(Database &db, std::string_view sql, const Args &...args)
{
    Result<CachedStatement> statement = prepareBound(db, sql, args...);
    if (!statement)
        return statement.error();
    if (const StoreStatus done = (*statement)->execute(); !done.ok())
        return storeFailure(done);
    return {};
}

// The first column of every row of `sql`, read as Value: std::int64_t or
// std::string.
template <class Value, class... Args>
Result<std::vector<Value>> selectColumn(Database &db, std::string_view sql, const Args &...args)
{
    static_assert(std::is_same_v<Value, std::int64_t> || std::is_same_v<Value, std::string>,
                  "selectColumn reads integers or text");
    Result<CachedStatement> statement = prepareBound(db, sql, args...);
    if (!statement)
        return statement.error();
    std::vector<Value> values;
    const Status read = forEachRow(**statement, [&](Statement &row) {
        if constexpr (std::is_same_v<Value, std::int64_t>)
            values.push_back(row.columnInt64(0));
        else
            values.push_back(row.columnText(0));
    });
    if (!read)
        return read.error();
    return values;
}

// The first column of the first row of `sql` as an integer; nothing when it
// is NULL or there is no row (e.g. min() over no rows).
template <class... Args>
Result<std::optional<std::int64_t>> selectOptionalInt64(Database &db, std::string_view sql, const Args &...args)
{
    Result<CachedStatement> statement = prepareBound(db, sql, args...);
    if (!statement)
        return statement.error();
    Result<bool> row = nextRow(**statement);
    if (!row)
        return row.error();
    if (!*row)
        return std::optional<std::int64_t>();
    return (*statement)->columnOptionalInt64(0);
}

// The first column of the first row of `sql` as a time (epoch milliseconds);
// nothing when it is NULL or there is no row.
template <class... Args>
Result<std::optional<ClockTime>> selectOptionalTime(Database &db, std::string_view sql, const Args &...args)
{
    Result<std::optional<std::int64_t>> value = selectOptionalInt64(db, sql, args...);
    if (!value)
        return value.error();
    return *value ? std::optional<ClockTime>(fromEpochMilliseconds(**value)) : std::nullopt;
}

} // namespace relaydesk
