// SPDX-License-Identifier: MIT
#pragma once

#include <QMetaType>
#include <QString>

#include <optional>

namespace relaydesk {

// An entity of a connection other than This computer, as the tree and the
// remote entity page name it (docs/window.md "Connections"). The window's
// own LocalEntity (models/entity_ref.h) names This computer's entities; this
// one carries what core/connections' EntityRef carries, with the connection's
// id, in types the rest of ui/ can include beside LocalEntity.
//  - kind: core/connections' EntityKind as an int (Queue 0, Topic 1, …).
struct RemoteEntity {
    QString connectionId;
    int kind = 0;
    QString name;
    QString address;
    QString parent;
    std::optional<qint64> available;
    std::optional<qint64> inFlight;
    std::optional<qint64> delayed;

    bool isNull() const { return connectionId.isEmpty() || name.isEmpty(); }
    bool isTopic() const { return kind == 1 || kind == 4; }   // Topic, ServiceBusTopic
    bool operator==(const RemoteEntity &other) const
    {
        return connectionId == other.connectionId && kind == other.kind && address == other.address;
    }
};

// "queue", "topic", "subscription", "Service Bus queue", … of `kind`.
QString remoteKindWord(int kind);

} // namespace relaydesk

Q_DECLARE_METATYPE(relaydesk::RemoteEntity)
