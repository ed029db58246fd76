// SPDX-License-Identifier: MIT
#pragma once

#include "policy/delivery_policy.h"

#include <QString>

#include <string_view>

namespace relaydesk {

// The words the policy editor shows for each canonical field of docs/behaviour.md §2.1
// ("minDelayTarget", ...): a short label and a tooltip explaining the field in
// the specification's terms, followed by the field's JSON path in `form`.
// Pure functions; any thread.
QString policyFieldLabel(std::string_view canonical, PolicyForm form);
QString policyFieldTip(std::string_view canonical, PolicyForm form);

// One line under the form selector saying what the form is for.
QString policyFormHint(PolicyForm form);

// Tooltips of the editor's selectors.
QString policyFormSelectorTip();
QString endpointProtocolTip();

} // namespace relaydesk
