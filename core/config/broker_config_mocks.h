// SPDX-License-Identifier: MIT
#pragma once

#include "broker/deliveries/mock_endpoint_records.h"
#include "broker/result.h"

#include <nlohmann/json.hpp>

#include <vector>

namespace relaydesk {

class Database;
struct ConfigApplied;

// The "mocks" of a configuration document (broker_config.h): the mock
// endpoints of the user's set-up, [{"name": NAME, "script": SCRIPT}], by
// name. Internal to core/config.
namespace config_mocks {

// Reads and checks document["mocks"] (absent: none): each an object of
// exactly "name" and "script", the name and script as the mock API takes
// them, no name twice; errors name the entry (`mocks[0] (orders-hook):
// mock script: … at character 7`). Pure.
Result<std::vector<StoredMockEndpoint>> read(const nlohmann::json &document);
// Adds "mocks" to `document` when there are any.
void write(const std::vector<StoredMockEndpoint> &mocks, nlohmann::json &document);
// Inside the config's unit: stores each declared mock (an unchanged one is
// not written) and counts it in `applied`.
Status apply(Database &db, const std::vector<StoredMockEndpoint> &mocks, ConfigApplied &applied);

} // namespace config_mocks

} // namespace relaydesk
