// SPDX-License-Identifier: MIT
#pragma once

#include "broker/broker_identity.h"
#include "broker/metrics/entity_overview.h"
#include "models/entity_ref.h"
#include "models/remote_entity.h"

#include <QAbstractItemModel>
#include <QIcon>
#include <QList>

class QTimer;

#include <memory>
#include <vector>

namespace relaydesk {

class BrokerEngine;
class ConnectionRegistry;

// The entity tree (docs/behaviour.md §8.4, docs/window.md "Connections"):
// connections at the top level — This computer first (always there,
// expanded), then the ConnectionRegistry's (AWS profiles, the window's own).
// Under This computer three groups, "Topics" with their subscriptions
// as children, "Queues", and "Service Bus" (docs/window.md): its queues and
// topics, a topic's subscriptions as its children, and a queue's or
// subscription's dead-letter sub-queue as their child. Queues, subscriptions
// of Service Bus and sub-queues are broker queues (LocalEntity kind Queue, by
// queue name), each with live counts in columns (available, in flight,
// delayed, scheduled, dead-lettered); a Service Bus topic is a Topic ref with serviceBus set. Fed by the engine: every
// changesPublished (coalesced, a few per second) asks readEntityOverview for
// a fresh overview — at most one read in flight, one more afterwards when
// changes came meanwhile — and apply() changes rows in place: removed
// entities leave with rowsRemoved (and entityRemoved), new ones arrive with
// rowsInserted, changed ones emit dataChanged; the model is never reset, so
// views keep selection and scroll.
//
// Another connection's row has children before they are listed
// (canFetchMore): expanding it (fetchMore) lists its queues and topics
// through the BrokerConnection boundary (models/remote_listing.h) with a
// "Loading…" row that counts what was found; cancelLoading() stops it; an
// error replaces the row by the service's words. Its entities are Remote
// rows (RemoteEntityRole); listed once, again by reloadConnection().
//
// Ownership: borrows the engine (null: an empty model that apply() alone
// feeds, for tests). Thread: the GUI thread.
class EntityTreeModel final : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { NameColumn, AvailableColumn, InFlightColumn, DelayedColumn, ScheduledColumn, DeadLetteredColumn,
                  ColumnCount };
    enum Role {
        EntityRefRole = Qt::UserRole + 1, // LocalEntity (null on group rows)
        CountRole,                        // qint64 of a count column
        UrlOrArnRole,                     // queue URL, topic or subscription ARN
        DeadLetterQueueRole,              // bool: another queue's dead-letter queue
        PendingRole,                      // bool: a subscription waiting for confirmation
        ConnectionIdRole,                 // QString: the connection of a row ("" for This computer's)
        RemoteEntityRole,                 // RemoteEntity (null but on another connection's entity rows)
        ProductionRole,                   // bool: a row of a connection marked "production"
        StatusRole,                       // bool: a "Loading…" or error row
    };

    EntityTreeModel(BrokerEngine *engine, BrokerIdentity identity, QObject *parent = nullptr);
    ~EntityTreeModel() override;

    // Asks for a fresh overview now (the first one is asked by the constructor).
    // Besides change events, the model reads again by itself when the
    // overview's next visibility time comes (a delay, schedule or lock ends:
    // counts that change by time alone), on the broker clock's rate; a virtual
    // clock's owner calls refresh() after each advance.
    void refresh();
    // Replaces what the tree shows by `overview`, row by row (see above).
    void apply(const EntityOverview &overview);
    const EntityOverview &overview() const { return m_overview; }
    // The node of `ref`, or an invalid index.
    QModelIndex indexOf(const LocalEntity &ref) const;
    QModelIndex localConnection() const { return index(0, 0); }
    QModelIndex topicsGroup() const { return index(0, 0, localConnection()); }
    QModelIndex queuesGroup() const { return index(1, 0, localConnection()); }
    QModelIndex serviceBusGroup() const { return index(2, 0, localConnection()); }
    // The connections after This computer follow `registry` (borrowed; null: none).
    void setConnections(ConnectionRegistry *registry);
    QModelIndex connectionIndex(const QString &id) const;
    QModelIndex indexOfRemote(const RemoteEntity &entity) const;
    // Stops the listing of the connection at `index` (its row says "Cancelled").
    void cancelLoading(const QModelIndex &index);
    // Lists the connection at `index` again (after an error, a change elsewhere).
    void reloadConnection(const QModelIndex &index);
    // The overview entries of one entity (nullptr when not in the tree).
    const QueueOverview *queue(const QString &name) const;
    const SubscriptionOverview *subscription(const QString &arn) const;
    const BrokerIdentity &identity() const { return m_identity; }

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    bool hasChildren(const QModelIndex &parent = {}) const override;
    bool canFetchMore(const QModelIndex &parent) const override;
    void fetchMore(const QModelIndex &parent) override;

signals:
    // After each apply(): the tree is current.
    void refreshed();
    // An entity left the tree (deleted through the window, the API or as idle).
    void entityRemoved(const relaydesk::LocalEntity &ref);
    // A read of the overview failed (the message, for the status bar).
    void readFailed(const QString &message);
    // A connection's listing ended (listed, failed or cancelled).
    void connectionLoaded(const QString &id);

private:
    struct Node;
    void onChanges();
    void read();
    Node *nodeOf(const QModelIndex &index) const;
    QModelIndex indexOfNode(const Node *node, int column = 0) const;
    template <class Item, class KeyOf, class Fill>
    void sync(Node *parent, const std::vector<const Item *> &items, KeyOf keyOf, Fill fill);
    QVariant nodeData(const Node &node, int column, int role) const;
    LocalEntity refOf(const Node &node) const;
    // The node whose ref is `ref` (depth first), or nullptr.
    const Node *find(const Node &from, const LocalEntity &ref) const;
    void syncServiceBus(const EntityOverview &overview);
    // entity_tree_connections.cpp
    QVariant connectionData(const Node &node, int column, int role) const;
    void syncConnections();
    void setStatus(Node *connection, const QString &text, bool failed);
    void listed(Node *connection, std::vector<RemoteEntity> entities, const QString &error);

    BrokerEngine *m_engine = nullptr;
    BrokerIdentity m_identity;
    std::unique_ptr<Node> m_root;
    Node *m_local = nullptr;                  // This computer, m_root's first child
    ConnectionRegistry *m_registry = nullptr;
    EntityOverview m_overview;
    void armDueRead();

    QTimer *m_dueTimer = nullptr; // child: the read at the next visibility time
    bool m_reading = false;
    bool m_dirty = false;
};

// The tree's icon `name` ("topic", "queue", "queue-fifo", "queue-dlq", …):
// its own colours, and in the palette's selected-text colour on a selected
// row (QIcon::Selected), so it stays visible on the selection colour. Made
// once per name and colour. GUI thread.
QIcon entityIcon(const char *name);

} // namespace relaydesk
