// SPDX-License-Identifier: MIT
#pragma once

#include "broker/result.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace relaydesk {

class Database;

// A mock endpoint as the store keeps it (docs/behaviour.md §4.7): part of
// the user's set-up, like a queue. `requestCount` is how many requests it
// answered since its script was set, i.e. where it is in the script.
struct StoredMockEndpoint {
    std::string name;
    std::string script;             // as written; parses (parseMockScript)
    std::uint64_t requestCount = 0;

    bool operator==(const StoredMockEndpoint &) const = default;
};

// The rules and the rows of stored mock endpoints (table mock_endpoints,
// migration 17). Serving them is core/mock's (MockEndpoints), which writes
// through these functions in units of the broker thread. Free functions over
// a Database& the caller holds inside its transaction; same thread. Store
// failures come back as InternalError.
namespace mock_endpoint_records {

// 1–80 characters of A–Z a–z 0–9 . _ - ; InvalidParameterValue otherwise.
Status checkName(std::string_view name);
// checkName, then the script parses; the parser's error otherwise
// (InvalidParameterValue naming the character position).
Status check(std::string_view name, std::string_view script);

// Every stored mock endpoint, by name.
Result<std::vector<StoredMockEndpoint>> list(Database &db);
// Creates `name` or replaces its script; either way its request count
// restarts at 0. The caller checked it.
Status put(Database &db, std::string_view name, std::string_view script);
// As put(), but an endpoint that already has `script` is left alone (its
// count too): a config file applied twice changes nothing.
enum class Declared { Unchanged, Created, Changed };
Result<Declared> declare(Database &db, std::string_view name, std::string_view script);
// Deletes `name`; false when there was none.
Result<bool> remove(Database &db, std::string_view name);
// Sets the request count of `name` while its script is still `script` (a
// count of a script replaced meanwhile is not carried over to the new one).
Status setRequestCount(Database &db, std::string_view name, std::string_view script, std::uint64_t count);

} // namespace mock_endpoint_records

} // namespace relaydesk
