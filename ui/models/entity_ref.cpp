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

QString entityRefKey(const LocalEntity &ref)
{
    if (ref.isNull())
        return {};
    return (ref.serviceBus ? QStringLiteral("servicebus-") : QString()) + entityKindWord(ref.kind) + QLatin1Char(':') +
           ref.name;
}

LocalEntity entityRefFromKey(const QString &key)
{
    const qsizetype colon = key.indexOf(QLatin1Char(':'));
    if (colon <= 0)
        return {};
    QString word = key.left(colon);
    const bool serviceBus = word.startsWith(QLatin1String("servicebus-"));
    if (serviceBus)
        word = word.mid(11);
    for (auto kind : {EntityChange::Entity::Queue, EntityChange::Entity::Topic, EntityChange::Entity::Subscription}) {
        if (entityKindWord(kind) == word)
            return LocalEntity{kind, key.mid(colon + 1), serviceBus};
    }
    return {};
}

} // namespace relaydesk
