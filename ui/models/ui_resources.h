// SPDX-License-Identifier: MIT
#pragma once

namespace relaydesk {

// Registers the window's icons (resources/relaydesk.qrc, linked into this
// static library) once; call before the first ":/icons/..." use. GUI thread.
void ensureUiResources();

} // namespace relaydesk
