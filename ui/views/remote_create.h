// SPDX-License-Identifier: MIT
#pragma once

#include "connections/connection_entities.h"

#include <functional>

class QWidget;

namespace relaydesk {

class BrokerConnection;

// Connection ▸ New Queue… / New Topic… (docs/window.md "Connections"): asks
// for the name (QInputDialog "newRemoteEntityDialog", window-modal), then
// creates the entity through the connection with the service's defaults.
// `created` runs once it exists (the window lists the connection again); the
// service's refusal (a bad or taken name, in its own words) shows in a
// message box ("remoteCreateError") and nothing is created. GUI thread.
void askAndCreateRemoteEntity(QWidget *parent, BrokerConnection *connection, EntityKind kind, std::function<void()> created);

} // namespace relaydesk
