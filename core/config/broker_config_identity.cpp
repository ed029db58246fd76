// SPDX-License-Identifier: MIT
// The configuration file's "region" and "account" (format in broker_config.h).
#include "config/broker_config.h"

#include <fstream>
#include <optional>
#include <sstream>

namespace relaydesk {

namespace {

using Json = nlohmann::json;

// The two keys and the identity field each names.
struct IdentityKey {
    const char *key;
    std::string BrokerIdentity::*field;
    const char *option;
};
constexpr IdentityKey kIdentityKeys[] = {{"region", &BrokerIdentity::region, "--region"},
                                         {"account", &BrokerIdentity::accountId, "--account"}};

BrokerError invalid(const std::string &message) { return BrokerError(BrokerErrorCode::InvalidParameterValue, message); }

// The text of `key` in the document, nothing when absent; an error when not a string.
Result<std::optional<std::string>> textOf(const Json &document, const IdentityKey &key)
{
    if (!document.contains(key.key))
        return std::optional<std::string>();
    const Json &value = document[key.key];
    if (!value.is_string())
        return invalid(std::string(key.key) + ": must be a string");
    return std::optional<std::string>(value.get<std::string>());
}

} // namespace

Result<BrokerIdentity> readConfigIdentity(const nlohmann::json &document, BrokerIdentity identity)
{
    if (!document.is_object())
        return identity;
    for (const IdentityKey &key : kIdentityKeys) {
        auto text = textOf(document, key);
        if (!text)
            return text.error();
        if (!*text)
            continue;
        identity.*key.field = **text;
        if (Status valid = identity.validate(); !valid)
            return invalid(std::string(key.key) + ": " + valid.error().message);
    }
    return identity;
}

Result<BrokerIdentity> readConfigFileIdentity(const std::string &path, BrokerIdentity identity)
{
    std::ifstream file(path, std::ios::binary);
    if (!file)
        return invalid(path + ": cannot be read");
    std::ostringstream text;
    text << file.rdbuf();
    const Json document = Json::parse(text.str(), nullptr, false);
    if (document.is_discarded())
        return invalid(path + ": config: not valid JSON");
    auto read = readConfigIdentity(document, std::move(identity));
    if (!read)
        return BrokerError(read.error().code, path + ": " + read.error().message);
    return read;
}

Status checkConfigIdentity(const nlohmann::json &document, const BrokerIdentity &identity)
{
    for (const IdentityKey &key : kIdentityKeys) {
        auto text = textOf(document, key);
        if (!text)
            return text.error();
        const std::string &running = identity.*key.field;
        if (*text && **text != running)
            return invalid(std::string(key.key) + ": the file is for " + key.key + " " + **text +
                           " but this broker runs with " + running + " (set at start: relaydesk serve " + key.option +
                           ", or the file given to --config)");
    }
    return {};
}

} // namespace relaydesk
