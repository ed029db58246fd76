// SPDX-License-Identifier: MIT
#pragma once

#include "engine/entity_change.h"

#include <QMetaType>
#include <QString>

namespace relaydesk {

// Which entity a tree node, page or action is about: a queue or topic by
// name, a subscription by ARN. A null ref (empty name) is "nothing". A
// Service Bus topic is kind Topic with `serviceBus` set (its queues and
// subscriptions are broker queues: kind Queue by queue name); a null ref
// with `serviceBus` set is the tree's "Service Bus" group. Plain value type.
// (core/connections' EntityRef names an entity of any connection; RemoteEntity
// one of a connection other than This computer.)
struct LocalEntity {
    EntityChange::Entity kind = EntityChange::Entity::Queue;
    QString name;
    bool serviceBus = false;

    bool isNull() const { return name.isEmpty(); }
    bool operator==(const LocalEntity &) const = default;
};

// "queue", "topic", "subscription".
QString entityKindWord(EntityChange::Entity kind);
// The settings form "queue:orders" and back (null for an unknown text).
QString entityRefKey(const LocalEntity &ref);
LocalEntity entityRefFromKey(const QString &key);

} // namespace relaydesk

Q_DECLARE_METATYPE(relaydesk::LocalEntity)
