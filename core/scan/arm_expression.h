// SPDX-License-Identifier: MIT
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace relaydesk {

// The ARM template expressions a scan resolves (docs/policies.md, "policy
// scan"): "[parameters('p')]" (the parameter's defaultValue), "[variables('v')]",
// "[concat(…)]" of those and of 'literals' and numbers. Anything else —
// resourceGroup(), reference(), a parameter without a default — is not
// guessed: nothing is returned and the expression stays as written. Pure.
class ArmExpressions final {
public:
    explicit ArmExpressions(const nlohmann::json &armTemplate) : m_template(armTemplate) {}

    // `value` with every expression that can be resolved replaced by its value
    // (recursively through objects and arrays).
    nlohmann::json resolve(const nlohmann::json &value) const;
    // One "[…]" string's value; nothing when it cannot be resolved.
    std::optional<nlohmann::json> evaluate(const std::string &expression) const;

private:
    std::optional<nlohmann::json> call(const std::string &text, std::size_t &at, int depth) const;

    const nlohmann::json &m_template;
};

} // namespace relaydesk
