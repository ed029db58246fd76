// SPDX-License-Identifier: MIT
#include "api/servicebus/cbs_claims.h"

#include <algorithm>

namespace relaydesk {

std::optional<std::string> CbsClaims::put(std::string_view token, std::string_view audience, std::int64_t nowSeconds)
{
    if (!m_check)
        return std::nullopt;
    if (audience.empty())
        return "The put-token request needs the audience it is for (its name property).";
    SasCheck check = m_check->check(token, audience, nowSeconds);
    if (check.outcome != SasCheck::Outcome::Valid)
        return std::move(check.message);
    m_claims.erase(std::remove_if(m_claims.begin(), m_claims.end(),
                                  [&](const Claim &claim) { return claim.scope == check.scope || claim.expiresAt <= nowSeconds; }),
                   m_claims.end());
    if (m_claims.size() >= kMaxClaims)
        m_claims.erase(std::min_element(m_claims.begin(), m_claims.end(),
                                        [](const Claim &a, const Claim &b) { return a.expiresAt < b.expiresAt; }));
    m_claims.push_back(Claim{std::move(check.scope), check.expiresAt});
    m_everAccepted = true;
    return std::nullopt;
}

bool CbsClaims::covers(std::string_view address, std::int64_t nowSeconds) const
{
    if (!m_check)
        return true;
    return std::any_of(m_claims.begin(), m_claims.end(), [&](const Claim &claim) {
        return claim.expiresAt > nowSeconds && SharedAccessSignatureCheck::scopeCoversEntity(claim.scope, address);
    });
}

} // namespace relaydesk
