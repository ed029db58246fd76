// SPDX-License-Identifier: MIT
#pragma once

#include "store/store_status.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

struct sqlite3_stmt;

namespace relaydesk {

// A blob to bind: a view of bytes (copied by SQLite when bound). An empty
// span binds a zero-length blob, not NULL.
using BlobView = std::span<const std::byte>;

// What one step() produced.
enum class Step { Row, Done };

// The column types SQLite reports for a value of the current row.
enum class ColumnType { Integer, Real, Text, Blob, Null };

// One prepared SQL statement (RAII over sqlite3_stmt; finalized on
// destruction). Made by Database::prepare() or Database::prepareCached().
//
// Binding: parameters are numbered from 1 (`?`, `?NNN`) or named (`:name`,
// `@name`, `$name` — pass the name with its prefix). Bound text and blobs are
// copied, so the caller's buffers need not outlive the call. bind() picks the
// SQLite type from the C++ type: integers and bool -> INTEGER, floating ->
// REAL, anything convertible to std::string_view -> TEXT, BlobView -> BLOB,
// std::nullopt -> NULL, std::optional<T> -> T or NULL.
//
// Ownership: the statement belongs to the Database that prepared it and must
// be destroyed before it. Thread safety: none — use it on the thread that
// uses its Database. Move-only.
class Statement final {
public:
    Statement() = default;
    explicit Statement(sqlite3_stmt *statement) : m_statement(statement) {} // takes ownership
    Statement(Statement &&other) noexcept;
    Statement &operator=(Statement &&other) noexcept;
    Statement(const Statement &) = delete;
    Statement &operator=(const Statement &) = delete;
    ~Statement();

    bool isValid() const { return m_statement != nullptr; }
    std::string sql() const;

    StoreStatus bindInt64(int index, std::int64_t value);
    StoreStatus bindDouble(int index, double value);
    StoreStatus bindText(int index, std::string_view value);
    StoreStatus bindBlob(int index, BlobView value);
    StoreStatus bindNull(int index);

    template <class T>
    StoreStatus bind(int index, const T &value);
    template <class T>
    StoreStatus bind(std::string_view name, const T &value);

    // 1-based index of a named parameter; Misuse when the SQL has no such name.
    StoreResult<int> parameterIndex(std::string_view name) const;

    // Runs one step: Step::Row when a row is available through the column
    // getters, Step::Done when finished; an error otherwise (the statement
    // must then be reset before reuse).
    StoreResult<Step> step();
    // Steps to the end, ignoring rows (for INSERT/UPDATE/DELETE), then resets.
    StoreStatus execute();

    // Rewinds to run again; bindings are kept. clearBindings() sets all to NULL.
    void reset();
    void clearBindings();

    // Column getters for the current row (index from 0). Values convert the
    // SQLite way (e.g. NULL reads as 0 or ""); use columnIsNull() or the
    // optional getters to tell NULL apart.
    int columnCount() const;
    std::string columnName(int column) const;
    ColumnType columnType(int column) const;
    bool columnIsNull(int column) const { return columnType(column) == ColumnType::Null; }
    std::int64_t columnInt64(int column) const;
    double columnDouble(int column) const;
    std::string columnText(int column) const;
    // The text without a copy: valid until the next step(), reset() or
    // another getter on the same column.
    std::string_view columnTextView(int column) const;
    std::vector<std::byte> columnBlob(int column) const;
    std::optional<std::int64_t> columnOptionalInt64(int column) const;
    std::optional<double> columnOptionalDouble(int column) const;
    std::optional<std::string> columnOptionalText(int column) const;

private:
    StoreStatus statusOf(int code, std::string_view what) const;

    sqlite3_stmt *m_statement = nullptr;
    // parameterIndex(): every parameter's name by index - 1 ("" for `?`), read
    // on first use; where the next lookup starts.
    mutable std::vector<std::string> m_parameterNames;
    mutable std::size_t m_nextParameter = 0;
};

namespace detail {
template <class T>
struct IsOptional : std::false_type {};
template <class T>
struct IsOptional<std::optional<T>> : std::true_type {};
} // namespace detail

template <class T>
StoreStatus Statement::bind(int index, const T &value)
{
    if constexpr (std::is_same_v<T, std::nullopt_t>) {
        return bindNull(index);
    } else if constexpr (detail::IsOptional<T>::value) {
        return value ? bind(index, *value) : bindNull(index);
    } else if constexpr (std::is_same_v<T, BlobView> || std::is_same_v<T, std::vector<std::byte>>) {
        return bindBlob(index, BlobView(value));
    } else if constexpr (std::is_integral_v<T> || std::is_enum_v<T>) {
        return bindInt64(index, static_cast<std::int64_t>(value));
    } else if constexpr (std::is_floating_point_v<T>) {
        return bindDouble(index, static_cast<double>(value));
    } else {
        static_assert(std::is_convertible_v<const T &, std::string_view>, "Statement::bind: unsupported type");
        return bindText(index, std::string_view(value));
    }
}

template <class T>
StoreStatus Statement::bind(std::string_view name, const T &value)
{
    const StoreResult<int> index = parameterIndex(name);
    if (!index.ok())
        return index.status();
    return bind(*index, value);
}

} // namespace relaydesk
