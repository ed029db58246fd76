// SPDX-License-Identifier: MIT
#include "broker/deliveries/mock_endpoint_records.h"

#include "broker/deliveries/mock_script.h"
#include "broker/store_calls.h"

#include <algorithm>
#include <optional>

namespace relaydesk::mock_endpoint_records {

namespace {

constexpr std::size_t kMaxNameLength = 80;

bool isNameCharacter(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_'
        || c == '-';
}

} // namespace

Status checkName(std::string_view name)
{
    if (name.empty() || name.size() > kMaxNameLength || !std::all_of(name.begin(), name.end(), isNameCharacter))
        return BrokerError(BrokerErrorCode::InvalidParameterValue,
                           "mock endpoint name: 1 to 80 characters of letters, digits, '.', '_' and '-'");
    return {};
}

Status check(std::string_view name, std::string_view script)
{
    if (Status valid = checkName(name); !valid)
        return valid;
    if (Result<MockScript> parsed = parseMockScript(script); !parsed)
        return parsed.error();
    return {};
}

Result<std::vector<StoredMockEndpoint>> list(Database &db)
{
    Result<CachedStatement> statement =
        prepareBound(db, "SELECT name, script, request_count FROM mock_endpoints ORDER BY name");
    if (!statement)
        return statement.error();
    std::vector<StoredMockEndpoint> endpoints;
    const Status read = forEachRow(**statement, [&endpoints](Statement &row) {
        endpoints.push_back({row.columnText(0), row.columnText(1),
                             static_cast<std::uint64_t>(std::max<std::int64_t>(row.columnInt64(2), 0))});
    });
    if (!read)
        return read.error();
    return endpoints;
}

Status put(Database &db, std::string_view name, std::string_view script)
{
    return executeStatement(db,
                            "INSERT INTO mock_endpoints (name, script, request_count) VALUES (?, ?, 0) "
                            "ON CONFLICT (name) DO UPDATE SET script = excluded.script, request_count = 0",
                            name, script);
}

Result<Declared> declare(Database &db, std::string_view name, std::string_view script)
{
    Result<std::optional<CachedStatement>> current = selectRow(db, "SELECT script FROM mock_endpoints WHERE name = ?", name);
    if (!current)
        return current.error();
    const bool exists = current->has_value();
    const bool same = exists && (**current)->columnTextView(0) == script;
    current->reset(); // the statement goes back to the cache before the next one
    if (same)
        return Declared::Unchanged;
    const Declared declared = exists ? Declared::Changed : Declared::Created;
    if (Status written = put(db, name, script); !written)
        return written.error();
    return declared;
}

Result<bool> remove(Database &db, std::string_view name)
{
    if (Status removed = executeStatement(db, "DELETE FROM mock_endpoints WHERE name = ?", name); !removed)
        return removed.error();
    return db.changes() > 0;
}

Status setRequestCount(Database &db, std::string_view name, std::string_view script, std::uint64_t count)
{
    return executeStatement(db, "UPDATE mock_endpoints SET request_count = ? WHERE name = ? AND script = ?",
                            static_cast<std::int64_t>(count), name, script);
}

} // namespace relaydesk::mock_endpoint_records
