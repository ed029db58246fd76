// SPDX-License-Identifier: MIT
#include "engine/entity_change.h"

#include <QHash>

#include <optional>

namespace relaydesk {

namespace {

using Kind = EntityChange::Kind;

// The merged kind of `earlier` followed by `later`; nothing when they cancel.
std::optional<Kind> merge(Kind earlier, Kind later)
{
    if (later == Kind::Deleted)
        return earlier == Kind::Created ? std::nullopt : std::optional<Kind>(Kind::Deleted);
    if (earlier == Kind::Created)
        return Kind::Created;
    if (earlier == Kind::Deleted)
        return Kind::Changed; // re-created (or changed after a delete): it exists with new attributes
    if (earlier == Kind::Changed || later == Kind::Changed || later == Kind::Created)
        return Kind::Changed;
    return Kind::CountsChanged;
}

} // namespace

std::size_t EntityChangeCoalescer::KeyHash::operator()(const Key &key) const
{
    return qHash(key.name) ^ ((static_cast<std::size_t>(key.entity) * 2 + (key.attempts ? 1 : 0)) * 0x9e3779b97f4a7c15ull);
}

void EntityChangeCoalescer::add(const EntityChange &change)
{
    const Key key{change.entity, change.name, change.kind == Kind::AttemptsLogged};
    auto found = m_slotOf.find(key);
    if (found == m_slotOf.end()) {
        m_slotOf.emplace(key, m_pending.size());
        m_pending.push_back(change);
        ++m_live;
        return;
    }
    EntityChange &slot = m_pending[found->second];
    if (key.attempts)
        return; // AttemptsLogged + AttemptsLogged -> AttemptsLogged
    const std::optional<Kind> merged = merge(slot.kind, change.kind);
    if (merged) {
        slot.kind = *merged;
        return;
    }
    slot.name.clear(); // cancelled: skipped by take()
    m_slotOf.erase(found);
    --m_live;
}

QList<EntityChange> EntityChangeCoalescer::take()
{
    QList<EntityChange> out;
    out.reserve(static_cast<qsizetype>(m_live));
    for (EntityChange &change : m_pending) {
        if (!change.name.isEmpty())
            out.push_back(std::move(change));
    }
    m_pending.clear();
    m_slotOf.clear();
    m_live = 0;
    return out;
}

} // namespace relaydesk
