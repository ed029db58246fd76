// SPDX-License-Identifier: MIT
#pragma once

#include "delivery_policy.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace relaydesk {

// The five named policies of docs/behaviour.md §3.4.
struct PolicyPreset {
    std::string name;          // "sns-default", ...
    std::string description;   // one line for menus and --help
    DeliveryPolicy policy;
};

// All presets in the order of docs/behaviour.md §3.4.
const std::vector<PolicyPreset> &policyPresets();
std::optional<PolicyPreset> findPolicyPreset(std::string_view name);
std::string policyPresetNameList();  // "sns-default, sns-example, ..."

} // namespace relaydesk
