// SPDX-License-Identifier: MIT
#pragma once

#include "models/entity_ref.h"

class QTabWidget;

namespace relaydesk {

class EmbeddedBroker;
class EntityActions;
class EntityTreeModel;

// The one place that chooses the tabs of an entity's page (docs/window.md):
//   queue:        Overview, Attributes, Messages (+ Sources for a dead-letter queue)
//   topic:        Overview, Attributes, Policy, Subscriptions, Deliveries
//   subscription: Overview, Attributes, Policy, Deliveries
//   Service Bus queue or subscription: Properties, Messages; its dead-letter
//   sub-queue: Messages; Service Bus topic: Properties
// Tabs are children of `tabs`; each keeps itself current. GUI thread.
void addEntityTabs(QTabWidget &tabs, EmbeddedBroker &host, EntityTreeModel &model, EntityActions &actions,
                   const LocalEntity &ref);

} // namespace relaydesk
