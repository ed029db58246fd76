// SPDX-License-Identifier: MIT
#pragma once

#include "api/wire/shared_access_signature.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace relaydesk {

// The claims one AMQP connection holds (docs/behaviour.md §8.6 "Credentials"):
// each Shared Access Signature accepted by a $cbs put-token, as its resource
// scope and expiry. An entity link attaches only under an unexpired claim
// whose scope covers the entity. At most kMaxClaims scopes are kept; a put of
// a new scope beyond them forgets the one that expires first. A put for a
// scope already held replaces it (the SDKs renew before expiry).
//
// Ownership: shares the check (null: no --credentials, every put-token
// accepted and no claim needed). Thread: its connection's (the AMQP thread).
class CbsClaims final {
public:
    static constexpr std::size_t kMaxClaims = 256;

    explicit CbsClaims(std::shared_ptr<const SharedAccessSignatureCheck> check = nullptr) : m_check(std::move(check)) {}

    bool required() const { return m_check != nullptr; }
    // A put-token of `token` for `audience` at `nowSeconds` (wall time): nothing when
    // accepted (and kept), else why not, in words (put-token's 401 status-description).
    std::optional<std::string> put(std::string_view token, std::string_view audience, std::int64_t nowSeconds);
    // Whether an entity link to `address` may attach at `nowSeconds`.
    bool covers(std::string_view address, std::int64_t nowSeconds) const;
    // Whether a put-token was ever accepted on this connection (until then
    // it may open only a few sessions and links: amqp_limits.h).
    bool everAccepted() const { return m_everAccepted; }

private:
    struct Claim {
        std::string scope;
        std::int64_t expiresAt = 0;
    };
    std::shared_ptr<const SharedAccessSignatureCheck> m_check;
    std::vector<Claim> m_claims;
    bool m_everAccepted = false;
};

} // namespace relaydesk
