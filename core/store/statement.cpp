// SPDX-License-Identifier: MIT
#include "store/statement.h"

#include <sqlite3.h>

#include <utility>

namespace relaydesk {

namespace {

// A non-null pointer for empty text/blobs: SQLite binds NULL for a null pointer.
constexpr char kEmpty[1] = {0};

} // namespace

Statement::Statement(Statement &&other) noexcept
    : m_statement(std::exchange(other.m_statement, nullptr)), m_parameterNames(std::move(other.m_parameterNames)),
      m_nextParameter(std::exchange(other.m_nextParameter, 0))
{
    other.m_parameterNames.clear();
}

Statement &Statement::operator=(Statement &&other) noexcept
{
    if (this != &other) {
        sqlite3_finalize(m_statement);
        m_statement = std::exchange(other.m_statement, nullptr);
        m_parameterNames = std::move(other.m_parameterNames);
        other.m_parameterNames.clear();
        m_nextParameter = std::exchange(other.m_nextParameter, 0);
    }
    return *this;
}

Statement::~Statement() { sqlite3_finalize(m_statement); }

std::string Statement::sql() const
{
    const char *text = m_statement ? sqlite3_sql(m_statement) : nullptr;
    return text ? std::string(text) : std::string();
}

StoreStatus Statement::statusOf(int code, std::string_view what) const
{
    if (code == SQLITE_OK)
        return {};
    sqlite3 *db = m_statement ? sqlite3_db_handle(m_statement) : nullptr;
    const char *detail = db ? sqlite3_errmsg(db) : sqlite3_errstr(code);
    return StoreStatus::fromSqlite(code, std::string(what) + " (" + sql() + ")", detail ? detail : "");
}

StoreStatus Statement::bindInt64(int index, std::int64_t value)
{
    if (!m_statement)
        return StoreStatus::misuse("bind on an empty Statement");
    return statusOf(sqlite3_bind_int64(m_statement, index, value), "bind");
}

StoreStatus Statement::bindDouble(int index, double value)
{
    if (!m_statement)
        return StoreStatus::misuse("bind on an empty Statement");
    return statusOf(sqlite3_bind_double(m_statement, index, value), "bind");
}

StoreStatus Statement::bindText(int index, std::string_view value)
{
    if (!m_statement)
        return StoreStatus::misuse("bind on an empty Statement");
    const char *data = value.empty() ? kEmpty : value.data();
    return statusOf(sqlite3_bind_text64(m_statement, index, data, value.size(), SQLITE_TRANSIENT, SQLITE_UTF8),
                    "bind");
}

StoreStatus Statement::bindBlob(int index, BlobView value)
{
    if (!m_statement)
        return StoreStatus::misuse("bind on an empty Statement");
    if (value.empty())
        return statusOf(sqlite3_bind_zeroblob(m_statement, index, 0), "bind");
    return statusOf(sqlite3_bind_blob64(m_statement, index, value.data(), value.size(), SQLITE_TRANSIENT), "bind");
}

StoreStatus Statement::bindNull(int index)
{
    if (!m_statement)
        return StoreStatus::misuse("bind on an empty Statement");
    return statusOf(sqlite3_bind_null(m_statement, index), "bind");
}

// The names are read from SQLite once per statement; a cached statement is
// bound again and again, and SQLite's own lookup (a C string per name, compared
// with every parameter's) was a tenth of a send's store time.
StoreResult<int> Statement::parameterIndex(std::string_view name) const
{
    if (!m_statement)
        return StoreStatus::misuse("bind on an empty Statement");
    if (m_parameterNames.empty()) {
        const int count = sqlite3_bind_parameter_count(m_statement);
        m_parameterNames.reserve(static_cast<std::size_t>(count));
        for (int index = 1; index <= count; ++index) {
            const char *parameter = sqlite3_bind_parameter_name(m_statement, index);
            m_parameterNames.emplace_back(parameter ? parameter : "");
        }
    }
    // Names are mostly bound in the SQL's order: the one after the last found is tried first.
    const std::size_t count = m_parameterNames.size();
    for (std::size_t step = 0; step < count; ++step) {
        const std::size_t at = (m_nextParameter + step) % count;
        if (m_parameterNames[at] == name) {
            m_nextParameter = at + 1;
            return static_cast<int>(at) + 1;
        }
    }
    return StoreStatus::misuse("no parameter named " + std::string(name) + " in " + sql());
}

StoreResult<Step> Statement::step()
{
    if (!m_statement)
        return StoreStatus::misuse("step on an empty Statement");
    const int code = sqlite3_step(m_statement);
    if (code == SQLITE_ROW)
        return Step::Row;
    if (code == SQLITE_DONE)
        return Step::Done;
    return statusOf(code, "step");
}

StoreStatus Statement::execute()
{
    for (;;) {
        const StoreResult<Step> result = step();
        if (!result.ok()) {
            reset();
            return result.status();
        }
        if (*result == Step::Done)
            break;
    }
    reset();
    return {};
}

void Statement::reset()
{
    if (m_statement)
        sqlite3_reset(m_statement);
}

void Statement::clearBindings()
{
    if (m_statement)
        sqlite3_clear_bindings(m_statement);
}

int Statement::columnCount() const { return m_statement ? sqlite3_column_count(m_statement) : 0; }

std::string Statement::columnName(int column) const
{
    const char *name = m_statement ? sqlite3_column_name(m_statement, column) : nullptr;
    return name ? std::string(name) : std::string();
}

ColumnType Statement::columnType(int column) const
{
    switch (sqlite3_column_type(m_statement, column)) {
    case SQLITE_INTEGER: return ColumnType::Integer;
    case SQLITE_FLOAT: return ColumnType::Real;
    case SQLITE_TEXT: return ColumnType::Text;
    case SQLITE_BLOB: return ColumnType::Blob;
    default: return ColumnType::Null;
    }
}

std::int64_t Statement::columnInt64(int column) const { return sqlite3_column_int64(m_statement, column); }

double Statement::columnDouble(int column) const { return sqlite3_column_double(m_statement, column); }

std::string Statement::columnText(int column) const { return std::string(columnTextView(column)); }

std::string_view Statement::columnTextView(int column) const
{
    const auto *text = reinterpret_cast<const char *>(sqlite3_column_text(m_statement, column));
    const int size = sqlite3_column_bytes(m_statement, column); // after _text(), per the SQLite docs
    return text ? std::string_view(text, static_cast<std::size_t>(size)) : std::string_view();
}

std::vector<std::byte> Statement::columnBlob(int column) const
{
    const auto *data = static_cast<const std::byte *>(sqlite3_column_blob(m_statement, column));
    const int size = sqlite3_column_bytes(m_statement, column);
    return data ? std::vector<std::byte>(data, data + size) : std::vector<std::byte>();
}

std::optional<std::int64_t> Statement::columnOptionalInt64(int column) const
{
    if (columnIsNull(column))
        return std::nullopt;
    return columnInt64(column);
}

std::optional<double> Statement::columnOptionalDouble(int column) const
{
    if (columnIsNull(column))
        return std::nullopt;
    return columnDouble(column);
}

std::optional<std::string> Statement::columnOptionalText(int column) const
{
    if (columnIsNull(column))
        return std::nullopt;
    return columnText(column);
}

} // namespace relaydesk
