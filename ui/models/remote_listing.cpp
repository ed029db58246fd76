// SPDX-License-Identifier: MIT
#include "models/remote_listing.h"

#include "connections/broker_connection.h"

#include <QPointer>

#include <memory>

namespace relaydesk {

namespace {

bool isSubscription(EntityKind kind)
{
    return kind == EntityKind::Subscription || kind == EntityKind::ServiceBusSubscription;
}

struct Listing {
    BrokerConnection *connection = nullptr;
    QString connectionId;
    std::vector<EntityKind> kinds;
    std::size_t next = 0;
    std::vector<RemoteEntity> found;
    QPointer<ConnectionCall> whole;   // the caller's handle
    QPointer<ConnectionCall> part;    // the listing of one kind in flight
    RemoteListingDone done;
};

void finish(const std::shared_ptr<Listing> &listing, QString error)
{
    if (!listing->whole || !listing->whole->end())
        return;
    listing->done(error.isEmpty() ? std::move(listing->found) : std::vector<RemoteEntity>{}, std::move(error));
}

void listNext(const std::shared_ptr<Listing> &listing)
{
    while (listing->next < listing->kinds.size() && isSubscription(listing->kinds[listing->next]))
        ++listing->next;
    if (listing->next == listing->kinds.size())
        return finish(listing, {});
    const EntityKind kind = listing->kinds[listing->next++];
    listing->part = listing->connection->listEntities(
        kind, {}, [listing](ConnectionResult<std::vector<EntitySummary>> result) {
            if (!result.ok)
                return finish(listing, result.error.text());
            for (const EntitySummary &summary : result.value)
                listing->found.push_back({listing->connectionId, static_cast<int>(summary.ref.kind), summary.ref.name,
                                          summary.ref.address, summary.ref.parent, summary.available, summary.inFlight,
                                          summary.delayed});
            if (listing->whole)
                listing->whole->report(static_cast<qint64>(listing->found.size()), -1);
            listNext(listing);
        });
}

} // namespace

ConnectionCall *listRemoteEntities(BrokerConnection *connection, const QString &connectionId, RemoteListingDone done)
{
    auto listing = std::make_shared<Listing>();
    listing->connection = connection;
    listing->connectionId = connectionId;
    listing->kinds = connection->entityKinds();
    listing->done = std::move(done);
    auto *whole = new ConnectionCall(connection);
    listing->whole = whole;
    QObject::connect(whole, &ConnectionCall::cancelled, whole, [listing] {
        if (listing->part)
            listing->part->cancel();
        listing->done({}, ConnectionError::cancelled().text());
    });
    // Started from the event loop, so the caller holds the handle before any answer.
    QMetaObject::invokeMethod(whole, [listing] { listNext(listing); }, Qt::QueuedConnection);
    return whole;
}

} // namespace relaydesk
