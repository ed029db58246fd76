// SPDX-License-Identifier: MIT
#include "config/broker_config_mocks.h"

#include "config/broker_config.h"

#include <set>

namespace relaydesk::config_mocks {

namespace {

using Json = nlohmann::json;

BrokerError invalid(const std::string &where, const std::string &message)
{
    return BrokerError(BrokerErrorCode::InvalidParameterValue, where + ": " + message);
}

std::string entry(std::size_t index, const std::string &name)
{
    return "mocks[" + std::to_string(index) + "]" + (name.empty() ? "" : " (" + name + ")");
}

Result<StoredMockEndpoint> readOne(const Json &given, std::size_t index)
{
    const std::string at = entry(index, "");
    if (!given.is_object())
        return invalid(at, "must be an object");
    for (const auto &item : given.items()) {
        if (item.key() != "name" && item.key() != "script")
            return invalid(at + "." + item.key(), "unknown key");
    }
    for (const char *key : {"name", "script"}) {
        if (!given.contains(key))
            return invalid(at, std::string("\"") + key + "\" is required");
        if (!given[key].is_string())
            return invalid(at + "." + key, "must be a string");
    }
    StoredMockEndpoint mock{given["name"].get<std::string>(), given["script"].get<std::string>(), 0};
    if (Status valid = mock_endpoint_records::check(mock.name, mock.script); !valid)
        return BrokerError(valid.error().code, entry(index, mock.name) + ": " + valid.error().message);
    return mock;
}

} // namespace

Result<std::vector<StoredMockEndpoint>> read(const Json &document)
{
    std::vector<StoredMockEndpoint> mocks;
    if (!document.contains("mocks"))
        return mocks;
    const Json &given = document["mocks"];
    if (!given.is_array())
        return invalid("mocks", "must be an array");
    std::set<std::string> names;
    for (std::size_t index = 0; index < given.size(); ++index) {
        Result<StoredMockEndpoint> mock = readOne(given[index], index);
        if (!mock)
            return mock.error();
        if (!names.insert(mock->name).second)
            return invalid(entry(index, mock->name) + ": name", "declared twice");
        mocks.push_back(std::move(mock).value());
    }
    return mocks;
}

void write(const std::vector<StoredMockEndpoint> &mocks, Json &document)
{
    if (mocks.empty())
        return;
    Json list = Json::array();
    for (const StoredMockEndpoint &mock : mocks)
        list.push_back({{"name", mock.name}, {"script", mock.script}});
    document["mocks"] = std::move(list);
}

Status apply(Database &db, const std::vector<StoredMockEndpoint> &mocks, ConfigApplied &applied)
{
    for (const StoredMockEndpoint &mock : mocks) {
        Result<mock_endpoint_records::Declared> declared = mock_endpoint_records::declare(db, mock.name, mock.script);
        if (!declared)
            return declared.error();
        if (*declared == mock_endpoint_records::Declared::Created)
            ++applied.created;
        else if (*declared == mock_endpoint_records::Declared::Changed)
            ++applied.changed;
    }
    return {};
}

} // namespace relaydesk::config_mocks
