// SPDX-License-Identifier: MIT
#pragma once

namespace relaydesk {

// A tool button showing an action of an exclusive QActionGroup (the clock's
// Real / Warp / Virtual), or one in an exclusive QButtonGroup (the
// dashboard's rate windows), is one choice among several: assistive technology
// gets it as a radio button (checked: the current choice; its press action
// chooses it), not as a check box or toggle button that could be switched
// off. Other tool buttons are Qt's. Installs a QAccessible factory once per
// process; idempotent. GUI thread.
void installAccessibleChoiceButtons();

} // namespace relaydesk
