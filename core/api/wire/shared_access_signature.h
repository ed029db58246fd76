// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>

namespace relaydesk {

// A Service Bus Shared Access Signature as the broker checks it
// (docs/behaviour.md §8.6 "Credentials"): a $cbs put-token on the AMQP port,
// and the Authorization header of an HTTP management request.
//
//   SharedAccessSignature sr=RESOURCE&sig=SIGNATURE&se=EXPIRY&skn=KEYNAME
//
// (fields in any order, each once): RESOURCE the URL-encoded resource URI,
// EXPIRY unix seconds, SIGNATURE the URL-encoded base64 HMAC-SHA256, under
// the key KEYNAME names (its text's bytes, as the SDKs use it), of RESOURCE
// exactly as sent, "\n" and EXPIRY. Valid when the key name is known, the
// signature is the key's (compared in constant time), EXPIRY is after
// `nowSeconds`, and RESOURCE covers the audience the token is put for.
//
// "Covers": both decoded, lower-cased and without their scheme (sb://,
// amqp://, https:// alike) and query (the management SDKs sign the whole
// request URL, api-version included), the resource is the audience or a path prefix of
// it ending at a '/'. So sb://host/ covers every entity of the namespace and
// sb://host/orders covers orders and orders/Subscriptions/s, not orders2.
//
// Pure; OpenSSL HMAC-SHA256; safe from any thread (the keys never change).
struct SasCheck {
    enum class Outcome {
        Valid,
        Malformed,    // not SharedAccessSignature sr=…&sig=…&se=…&skn=…
        UnknownKey,   // skn is not a key name the broker knows
        Mismatch,     // the signature is not the key's
        Expired,      // se is not after now
        OutOfScope,   // sr does not cover the audience
    };
    Outcome outcome = Outcome::Malformed;
    std::string message;          // in words, for the refusal; never holds a key or a signature
    std::string scope;            // Valid: the resource, decoded, lower case, no scheme ("host:port/path")
    std::int64_t expiresAt = 0;   // Valid: se
};

// Shared access key name -> key, as the credentials file gives them.
using SharedAccessKeys = std::map<std::string, std::string, std::less<>>;

class SharedAccessSignatureCheck final {
public:
    explicit SharedAccessSignatureCheck(SharedAccessKeys keys) : m_keys(std::move(keys)) {}

    // `token` checked for `audience` (a URI: sb://host/entity, https://host/entity…) at `nowSeconds` (wall time).
    SasCheck check(std::string_view token, std::string_view audience, std::int64_t nowSeconds) const;

    // Whether an accepted `scope` (SasCheck::scope) covers the entity at `address`: a path
    // ("orders", "/orders") or a URI whose host is then ignored (the broker is one namespace).
    static bool scopeCoversEntity(std::string_view scope, std::string_view address);

    // The base64 signature of `resource` (as it appears in the token) and `expiry` under `key`; for tests.
    static std::string sign(std::string_view key, std::string_view resource, std::string_view expiry);

private:
    SharedAccessKeys m_keys;
};

} // namespace relaydesk
