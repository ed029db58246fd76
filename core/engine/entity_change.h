// SPDX-License-Identifier: MIT
#pragma once

#include <QList>
#include <QMetaType>
#include <QString>

#include <cstddef>
#include <unordered_map>
#include <vector>

namespace relaydesk {

// One fact the window's models apply (docs/architecture.md §3): an entity
// was created, changed (attributes), deleted, or only its message counts
// moved; or (Subscription only) attempts of it were logged (AttemptsLogged:
// the Deliveries page and live chart read the rows after their newest id).
// Plain value type.
struct EntityChange {
    enum class Kind { Created, Changed, Deleted, CountsChanged, AttemptsLogged };
    enum class Entity { Queue, Topic, Subscription };

    Kind kind = Kind::Changed;
    Entity entity = Entity::Queue;
    QString name; // queue/topic name, or subscription ARN

    bool operator==(const EntityChange &) const = default;
};

// Merges changes of the same entity so a burst reaches the window as one
// fact per entity, in the order entities first appeared:
//   created + deleted           -> nothing (the window never saw it)
//   created + changed/counts    -> created
//   deleted + created           -> changed (it exists again, with new attributes)
//   anything + deleted          -> deleted
//   changed + counts, counts + changed -> changed
// AttemptsLogged is a fact of its own: it merges only with AttemptsLogged of
// the same subscription (one per burst, however many rows), and neither
// cancels nor is cancelled by the others (the log outlives its subscription);
// it keeps the place where it first appeared.
// Not thread-safe: one owner (the broker thread).
class EntityChangeCoalescer final {
public:
    void add(const EntityChange &change);
    bool empty() const { return m_live == 0; }
    std::size_t size() const { return m_live; } // entities with a pending change
    // The merged changes, oldest entity first; leaves the coalescer empty.
    QList<EntityChange> take();

private:
    struct Key {
        EntityChange::Entity entity;
        QString name;
        bool attempts = false; // an AttemptsLogged slot
        bool operator==(const Key &) const = default;
    };
    struct KeyHash {
        std::size_t operator()(const Key &key) const;
    };

    std::vector<EntityChange> m_pending;                         // slots; a cancelled one has an empty name
    std::unordered_map<Key, std::size_t, KeyHash> m_slotOf;      // entity -> index in m_pending
    std::size_t m_live = 0;
};

} // namespace relaydesk

Q_DECLARE_METATYPE(relaydesk::EntityChange)
