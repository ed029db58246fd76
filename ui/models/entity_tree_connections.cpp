// SPDX-License-Identifier: MIT
// EntityTreeModel's connections after This computer (docs/window.md "Connections").
#include "models/connection_registry.h"
#include "models/entity_tree_model.h"
#include "models/entity_tree_node.h"
#include "models/remote_listing.h"

#include <QBrush>
#include <QColor>
#include <QFont>
#include <QLocale>

namespace relaydesk {

namespace {

// The colour of a production connection's rows (and the window title's mark).
const QColor kProductionColour(0xc6, 0x28, 0x28);

} // namespace

void EntityTreeModel::setConnections(ConnectionRegistry *registry)
{
    if (m_registry)
        disconnect(m_registry, nullptr, this, nullptr);
    m_registry = registry;
    if (m_registry)
        connect(m_registry, &ConnectionRegistry::changed, this, &EntityTreeModel::syncConnections);
    syncConnections();
}

// The registry's entries replace the rows after This computer (their
// connections are new objects: every listing starts again).
void EntityTreeModel::syncConnections()
{
    const int rows = static_cast<int>(m_root->children.size());
    if (rows > 1) {
        for (int row = 1; row < rows; ++row)
            if (Node *node = m_root->children[static_cast<std::size_t>(row)].get(); node->loading)
                node->loading->cancel();
        beginRemoveRows({}, 1, rows - 1);
        m_root->children.erase(m_root->children.begin() + 1, m_root->children.end());
        endRemoveRows();
    }
    if (!m_registry || m_registry->entries().empty())
        return;
    beginInsertRows({}, 1, static_cast<int>(m_registry->entries().size()));
    for (const ConnectionEntry &entry : m_registry->entries()) {
        auto node = std::make_unique<Node>();
        node->type = Node::Type::Connection;
        node->key = entry.name;
        node->connectionId = entry.id;
        node->detail = entry.detail;
        node->production = entry.production;
        node->parent = m_root.get();
        m_root->children.push_back(std::move(node));
    }
    endInsertRows();
}

QModelIndex EntityTreeModel::connectionIndex(const QString &id) const
{
    for (const auto &node : m_root->children)
        if (node->type == Node::Type::Connection && node->connectionId == id)
            return indexOfNode(node.get());
    return {};
}

QModelIndex EntityTreeModel::indexOfRemote(const RemoteEntity &entity) const
{
    const QModelIndex connection = connectionIndex(entity.connectionId);
    if (!connection.isValid())
        return {};
    for (const auto &node : nodeOf(connection)->children)
        if (node->type == Node::Type::Remote && node->remote == entity)
            return indexOfNode(node.get());
    return {};
}

bool EntityTreeModel::hasChildren(const QModelIndex &parent) const
{
    const Node *node = nodeOf(parent);
    if (parent.column() <= 0 && node->type == Node::Type::Connection && !node->connectionId.isEmpty() && !node->loaded)
        return true;
    return QAbstractItemModel::hasChildren(parent);
}

bool EntityTreeModel::canFetchMore(const QModelIndex &parent) const
{
    const Node *node = nodeOf(parent);
    return parent.isValid() && node->type == Node::Type::Connection && !node->connectionId.isEmpty() && !node->loaded &&
           !node->loading && !node->asked;
}

// Queued: a view asks in the middle of its own work (painting, expanding), and
// the listing changes rows at once (its "Loading…" row).
void EntityTreeModel::fetchMore(const QModelIndex &parent)
{
    if (!canFetchMore(parent))
        return;
    nodeOf(parent)->asked = true;
    QMetaObject::invokeMethod(
        this, [this, id = nodeOf(parent)->connectionId] { reloadConnection(connectionIndex(id)); }, Qt::QueuedConnection);
}

void EntityTreeModel::reloadConnection(const QModelIndex &index)
{
    Node *node = nodeOf(index);
    const ConnectionEntry *entry = m_registry ? m_registry->find(node->connectionId) : nullptr;
    if (!index.isValid() || node->type != Node::Type::Connection || !entry || node->loading)
        return;
    node->loaded = false;
    node->asked = false;
    setStatus(node, tr("Loading…"), false);
    node->loading = listRemoteEntities(entry->connection, entry->id,
                                       [this, id = entry->id](std::vector<RemoteEntity> entities, QString error) {
                                           if (const QModelIndex at = connectionIndex(id); at.isValid())
                                               listed(nodeOf(at), std::move(entities), error);
                                       });
    connect(node->loading, &ConnectionCall::progress, this, [this, id = entry->id](qint64 done, qint64) {
        if (const QModelIndex at = connectionIndex(id); at.isValid())
            setStatus(nodeOf(at), tr("Loading… %n found", nullptr, static_cast<int>(done)), false);
    });
}

void EntityTreeModel::cancelLoading(const QModelIndex &index)
{
    Node *node = nodeOf(index);
    if (index.isValid() && node->loading)
        node->loading->cancel();   // answers listed() with "Cancelled"
}

// The connection's one child: its "Loading…" row, or the error.
void EntityTreeModel::setStatus(Node *connection, const QString &text, bool failed)
{
    const QModelIndex parent = indexOfNode(connection);
    if (connection->children.size() == 1 && connection->children[0]->type == Node::Type::Status) {
        Node *status = connection->children[0].get();
        status->key = text;
        status->failed = failed;
        emit dataChanged(indexOfNode(status), indexOfNode(status, ColumnCount - 1));
        return;
    }
    if (!connection->children.empty()) {
        beginRemoveRows(parent, 0, static_cast<int>(connection->children.size()) - 1);
        connection->children.clear();
        endRemoveRows();
    }
    auto status = std::make_unique<Node>();
    status->type = Node::Type::Status;
    status->key = text;
    status->failed = failed;
    status->connectionId = connection->connectionId;
    status->production = connection->production;
    status->parent = connection;
    beginInsertRows(parent, 0, 0);
    connection->children.push_back(std::move(status));
    endInsertRows();
}

void EntityTreeModel::listed(Node *connection, std::vector<RemoteEntity> entities, const QString &error)
{
    connection->loaded = true;
    connection->loading = nullptr;
    if (!error.isEmpty()) {
        setStatus(connection, error, true);
    } else {
        const QModelIndex parent = indexOfNode(connection);
        if (!connection->children.empty()) {
            beginRemoveRows(parent, 0, static_cast<int>(connection->children.size()) - 1);
            connection->children.clear();
            endRemoveRows();
        }
        if (!entities.empty()) {
            beginInsertRows(parent, 0, static_cast<int>(entities.size()) - 1);
            for (RemoteEntity &entity : entities) {
                auto node = std::make_unique<Node>();
                node->type = Node::Type::Remote;
                node->key = entity.name;
                node->connectionId = connection->connectionId;
                node->production = connection->production;
                node->remote = std::move(entity);
                node->parent = connection;
                connection->children.push_back(std::move(node));
            }
            endInsertRows();
        }
    }
    emit dataChanged(indexOfNode(connection), indexOfNode(connection, ColumnCount - 1));
    emit connectionLoaded(connection->connectionId);
}

QVariant EntityTreeModel::connectionData(const Node &node, int column, int role) const
{
    using Type = Node::Type;
    switch (role) {
    case ConnectionIdRole:
        return node.connectionId;
    case RemoteEntityRole:
        return node.type == Type::Remote ? QVariant::fromValue(node.remote) : QVariant::fromValue(RemoteEntity{});
    case EntityRefRole:
        return QVariant::fromValue(LocalEntity{});
    case ProductionRole:
        return node.production;
    case StatusRole:
        return node.type == Type::Status;
    default:
        break;
    }
    if (column > NameColumn) {
        if (node.type != Type::Remote || node.remote.isTopic())
            return {};
        const std::optional<qint64> count = column == AvailableColumn  ? node.remote.available
                                            : column == InFlightColumn ? node.remote.inFlight
                                            : column == DelayedColumn  ? node.remote.delayed
                                                                       : std::nullopt;
        if (role == Qt::DisplayRole && count)
            return QLocale().toString(*count);
        if (role == CountRole && count)
            return *count;
        if (role == Qt::TextAlignmentRole)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    }
    const QString production = node.production ? tr(" — production") : QString();
    switch (role) {
    case Qt::DisplayRole:
        if (node.type == Type::Connection && !node.connectionId.isEmpty())
            return node.detail.isEmpty() ? node.key + production
                                         : QStringLiteral("%1 (%2)%3").arg(node.key, node.detail, production);
        return node.key;
    case Qt::AccessibleTextRole:
        if (node.type == Type::Remote)
            return tr("%1 %2 of %3%4").arg(remoteKindWord(node.remote.kind), node.key, node.parent->key, production);
        if (node.type == Type::Connection && !node.connectionId.isEmpty())
            return tr("Connection %1%2%3").arg(node.key, node.detail.isEmpty() ? QString() : tr(", %1").arg(node.detail),
                                              production);
        return {};
    case Qt::ToolTipRole:
        if (node.type == Type::Connection)
            return node.connectionId.isEmpty()
                       ? tr("The broker this window runs")
                       : tr("%1 (%2)%3").arg(node.key, m_registry && m_registry->find(node.connectionId)
                                                           ? m_registry->find(node.connectionId)->kindWord
                                                           : QString(), production);
        if (node.type == Type::Remote)
            return tr("%1 %2\n%3").arg(remoteKindWord(node.remote.kind), node.key, node.remote.address);
        if (node.type == Type::Status && !node.failed)
            return tr("Listing its queues and topics: Cancel from the menu (right click)");
        return node.key;
    case Qt::DecorationRole:
        if (node.type == Type::Remote)
            return entityIcon(node.remote.isTopic() ? "topic" : "queue");
        if (node.type == Type::Status)
            return node.failed ? entityIcon("group") : QVariant();
        return entityIcon("group");
    case Qt::ForegroundRole:
        if (node.production)
            return QBrush(kProductionColour);
        return {};
    case Qt::FontRole:
        if (node.type == Type::Connection || node.type == Type::Status) {
            QFont font;
            font.setBold(node.type == Type::Connection);
            font.setItalic(node.type == Type::Status);
            return font;
        }
        return {};
    default:
        return {};
    }
}

} // namespace relaydesk
