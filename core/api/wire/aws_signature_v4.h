// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace relaydesk {

class HttpRequest;

// AWS Signature Version 4 as a server checks it (docs/configuration.md
// "Credentials"): the Authorization header form that boto3, the aws CLI and
// the AWS SDKs send, and the presigned query-string form (X-Amz-Signature).
//
//  - canonical request: method, the raw path with dot segments and empty
//    segments removed, each byte outside A–Z a–z 0–9 - . _ ~ / percent-encoded
//    (the path as sent is encoded once more, as the SDKs do for every service
//    but S3); the query's pairs decoded and re-encoded, sorted by name then
//    value (X-Amz-Signature left out); the SignedHeaders' values in their
//    order, repeated fields joined with ',', runs of spaces made one; the
//    SignedHeaders list (which must hold host); the hex SHA-256 of the body,
//    as x-amz-content-sha256 when sent — a value that is not the body's is
//    refused (PayloadMismatch), UNSIGNED-PAYLOAD included; only a presigned
//    request without a body may have signed UNSIGNED-PAYLOAD;
//  - string to sign: AWS4-HMAC-SHA256, X-Amz-Date, the credential scope
//    DATE/REGION/SERVICE/aws4_request (any region and service), the hex
//    SHA-256 of the canonical request;
//  - key: HMAC-SHA256 chain "AWS4"+secret → date → region → service →
//    "aws4_request"; the signature is compared in constant time.
// X-Amz-Date must be within kAllowedSkewSeconds of `nowSeconds`; a presigned
// request also within its X-Amz-Expires (at most 7 days).
// Pure: OpenSSL HMAC-SHA256/SHA-256, no state.
struct SignatureCheck {
    enum class Outcome {
        Valid,
        Missing,          // neither an AWS4-HMAC-SHA256 Authorization nor X-Amz-Signature
        UnknownKey,       // the access key id is not one the broker knows
        Malformed,        // the Authorization or the X-Amz-* parameters cannot be read
        Expired,          // X-Amz-Date outside the allowed skew, or a presigned URL past X-Amz-Expires
        Mismatch,         // the signature is not the one the secret gives
        PayloadMismatch,  // x-amz-content-sha256 is not the SHA-256 of the body
    };
    Outcome outcome = Outcome::Missing;
    std::string message;       // for the error reply; never holds a secret
    std::string accessKeyId;   // as the request names it (empty when none)
};

// The secret of an access key id; nothing when the id is unknown.
using SecretLookup = std::function<std::optional<std::string>(std::string_view accessKeyId)>;

constexpr std::int64_t kAllowedSkewSeconds = 15 * 60;

SignatureCheck checkAwsSignatureV4(const HttpRequest &request, const SecretLookup &secrets, std::int64_t nowSeconds);

// The pieces, for tests against AWS's published test suite.
// The canonical request of `request` with these SignedHeaders ("host;x-amz-date")
// and payload hash.
std::string awsCanonicalRequest(const HttpRequest &request, std::string_view signedHeaders, std::string_view payloadHash);
// The hex signature of `stringToSign` under `secret` for SCOPE = date/region/service.
std::string awsSignature(std::string_view secret, std::string_view date, std::string_view region, std::string_view service,
                         std::string_view stringToSign);

} // namespace relaydesk
