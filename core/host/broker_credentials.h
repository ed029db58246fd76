// SPDX-License-Identifier: MIT
#pragma once

#include "api/wire/shared_access_signature.h"
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
//    "sharedAccessKeys": {"RootManageSharedAccessKey": "key", …}}  Service Bus SAS ($cbs put-token)
// Each member optional, none may be empty where given; unknown members are refused (a typo would
// otherwise leave a door open), and so is the former "sharedAccessKeyNames" (names without keys let
// any key value in). Plain value type; the secrets never leave it except to sign.
struct BrokerCredentials {
    std::map<std::string, std::string, std::less<>> accessKeys;   // access key id -> secret access key
    std::vector<std::string> bearerTokens;
    SharedAccessKeys sharedAccessKeys;                              // key name -> key
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
    // A Service Bus management request over HTTP: `Authorization: SharedAccessSignature …`
    // (or `ServiceBusAuthorization:`)
    // (api/wire/shared_access_signature.h) by a known key, unexpired at `nowSeconds` (wall
    // time), whose resource covers the request's URL (host and path). 401 Unauthorized otherwise.
    std::optional<WireError> checkSharedAccessSignature(const HttpRequest &request, std::int64_t nowSeconds) const;

    // The Service Bus SAS check of these credentials (the AMQP port's $cbs uses it too);
    // null without --credentials.
    std::shared_ptr<const SharedAccessSignatureCheck> sharedAccess() const { return m_sharedAccess; }

private:
    std::shared_ptr<const BrokerCredentials> m_credentials;
    std::shared_ptr<const SharedAccessSignatureCheck> m_sharedAccess;
};

} // namespace relaydesk
