// SPDX-License-Identifier: MIT
#pragma once

#include "models/remote_entity.h"

#include <QString>

#include <functional>
#include <vector>

namespace relaydesk {

class BrokerConnection;
class ConnectionCall;

// Lists a connection's queues and topics (every kind it has but
// subscriptions, in its order) through the BrokerConnection boundary, one
// kind after the other. The returned call reports progress(done, -1) with
// the entities found so far and cancels the listing in flight; `done` is
// called once: the entities, or the service's error text
// (ConnectionError::text(), "Cancelled" after cancel()). GUI thread.
using RemoteListingDone = std::function<void(std::vector<RemoteEntity> entities, QString error)>;
ConnectionCall *listRemoteEntities(BrokerConnection *connection, const QString &connectionId, RemoteListingDone done);

} // namespace relaydesk
