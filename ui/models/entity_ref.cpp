// SPDX-License-Identifier: MIT
#include "models/entity_ref.h"

namespace relaydesk {

QString entityKindWord(EntityChange::Entity kind)
{
    switch (kind) {
    case EntityChange::Entity::Queue:
        return QStringLiteral("queue");
    case EntityChange::Entity::Topic:
        return QStringLiteral("topic");
    case EntityChange::Entity::Subscription:
        return QStringLiteral("subscription");
    }
    return {};
}

QString entityRefKey(const EntityRef &ref)
{
    return ref.isNull() ? QString() : entityKindWord(ref.kind) + QLatin1Char(':') + ref.name;
}

EntityRef entityRefFromKey(const QString &key)
{
    const qsizetype colon = key.indexOf(QLatin1Char(':'));
    if (colon <= 0)
        return {};
    const QString word = key.left(colon);
    for (auto kind : {EntityChange::Entity::Queue, EntityChange::Entity::Topic, EntityChange::Entity::Subscription}) {
        if (entityKindWord(kind) == word)
            return EntityRef{kind, key.mid(colon + 1)};
    }
    return {};
}

} // namespace relaydesk
