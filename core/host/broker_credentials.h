// SPDX-License-Identifier: MIT
#pragma once

#include "api/wire/wire_error.h"

#include <QString>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace relaydesk {

class HttpRequest;

// What `relaydesk serve --credentials FILE` requires of clients
// (docs/configuration.md "Credentials"). The file is JSON:
//   {"accessKeys": {"AKID": "secret", …},          AWS Signature Version 4 (SQS, SNS)
//    "bearerTokens": ["token", …],                 Authorization: Bearer (native API, Zaqar, /metrics)
//    "sharedAccessKeyNames": ["RootManageSharedAccessKey", …]}   Service Bus SAS key names ($cbs put-token)
// Each member optional, none may be empty where given; unknown members are refused (a typo would
// otherwise leave a door open). Plain value type; the secrets never leave it except to sign.
struct BrokerCredentials {
    std::map<std::string, std::string, std::less<>> accessKeys;   // access key id -> secret access key
    std::vector<std::string> bearerTokens;
    std::vector<std::string> sharedAccessKeyNames;
};

// The credentials in `path`, or why it cannot serve (the message names the file, never a secret).
std::variant<BrokerCredentials, QString> readCredentialsFile(const QString &path);

// The checks the HTTP port makes (host/broker_http_server.h). Default: none
// (no --credentials; every request passes as before). Pure; shares the
// credentials read at start.
class RequestCredentials final {
public:
    RequestCredentials() = default;
    explicit RequestCredentials(std::shared_ptr<const BrokerCredentials> credentials);

    bool required() const { return m_credentials != nullptr; }
    // SQS and SNS (query and JSON protocols): a valid AWS Signature Version 4
    // (api/wire/aws_signature_v4.h) from a known access key, X-Amz-Date within
    // 15 minutes of `nowSeconds` (wall time). Nothing when it passes.
    std::optional<WireError> checkSignature(const HttpRequest &request, std::int64_t nowSeconds) const;
    // The native API, Zaqar and /metrics: `Authorization: Bearer TOKEN` (Zaqar
    // clients may send `X-Auth-Token: TOKEN`) naming one of the bearer tokens.
    std::optional<WireError> checkBearer(const HttpRequest &request) const;

private:
    std::shared_ptr<const BrokerCredentials> m_credentials;
};

} // namespace relaydesk
