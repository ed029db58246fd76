// SPDX-License-Identifier: MIT
#pragma once

#include <proton/transport.h>

namespace relaydesk {

// The SASL of the Service Bus endpoint (docs/behaviour.md §8.6): the server side of
// ANONYMOUS and PLAIN, any user and password taken, as the emulator does.
// Proton's own SASL (without Cyrus) offers PLAIN to clients only, so the
// transport gets this implementation instead. Call on a server transport
// before it is bound to its connection. Thread: the transport's.
void acceptAnonymousAndPlain(pn_transport_t *transport);

} // namespace relaydesk
