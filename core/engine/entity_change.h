// SPDX-License-Identifier: MIT
#pragma once

#include <QList>
#include <QMetaType>
#include <QString>

#include <cstddef>
#include <unordered_map>
#include <vector>

namespace relaydesk {

// One fact the window's models apply (ARCHITECTURE "Flow of data"): an entity
// was created, changed (attributes), deleted, or only its message counts
// moved. Plain value type.
struct EntityChange {
    enum class Kind { Created, Changed, Deleted, CountsChanged };
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
