// SPDX-License-Identifier: MIT
#include "models/entity_tree_model.h"
#include "models/entity_tree_node.h"

#include "engine/broker_engine.h"
#include "engine/entity_overview_reader.h"
#include "models/ui_resources.h"

#include "broker/queues/servicebus_queue.h"

#include <QFont>
#include <QFile>
#include <QGuiApplication>
#include <QHash>
#include <QIcon>
#include <QPainter>
#include <QPalette>
#include <QPixmap>
#include <QRegularExpression>
#include <QSvgRenderer>

#include <utility>
#include <QLocale>
#include <QTimer>

#include <algorithm>
#include <chrono>
#include <map>

namespace relaydesk {

namespace {

QString groupTitle(const QString &word, std::size_t count)
{
    return QStringLiteral("%1 (%2)").arg(word).arg(count);
}

// The queue name an sqs endpoint ARN ends in, a URL's path for http(s).
QString endpointShort(const SubscriptionOverview &subscription)
{
    const QString endpoint = QString::fromStdString(subscription.endpoint);
    if (subscription.protocol == "sqs")
        return endpoint.section(QLatin1Char(':'), -1);
    const qsizetype scheme = endpoint.indexOf(QStringLiteral("://"));
    const qsizetype slash = scheme < 0 ? -1 : endpoint.indexOf(QLatin1Char('/'), scheme + 3);
    return slash < 0 ? endpoint : endpoint.mid(slash);
}

// A queue the "Service Bus" group shows instead of "Queues".
bool isServiceBus(const QueueOverview &queue) { return queue.serviceBus || !queue.serviceBusDeadLetterOf.empty(); }

// A child of the "Service Bus" group: one of its queues, or a topic (no queue).
struct ServiceBusItem {
    QString name;
    const QueueOverview *queue = nullptr;
};

bool fillQueue(const QueueOverview &queue, QueueOverview &kept)
{
    const bool changed = !(kept == queue);
    kept = queue;
    return changed;
}

std::int64_t countOf(const QueueCounts &counts, int column)
{
    switch (column) {
    case EntityTreeModel::AvailableColumn:
        return counts.available;
    case EntityTreeModel::InFlightColumn:
        return counts.inFlight;
    case EntityTreeModel::DelayedColumn:
        return counts.delayed;
    case EntityTreeModel::ScheduledColumn:
        return counts.scheduled;
    case EntityTreeModel::DeadLetteredColumn:
        return counts.deadLettered;
    default:
        return 0;
    }
}

} // namespace

// A grey or orange icon all but vanishes on the selection colour: the
// selected form is the same drawing in the selected text's colour.

QIcon entityIcon(const char *name)
{
    const QString path = QStringLiteral(":/icons/%1.svg").arg(QLatin1String(name));
    const QString selected = QGuiApplication::palette().color(QPalette::HighlightedText).name();
    static QHash<QString, QIcon> made;
    if (const auto found = made.constFind(path + selected); found != made.cend())
        return *found;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return QIcon(path);
    const QString svg = QString::fromUtf8(file.readAll());
    static const QRegularExpression colour(QStringLiteral("#[0-9a-fA-F]{6}"));
    QIcon icon;
    for (const auto &[mode, drawing] : {std::pair{QIcon::Normal, svg}, std::pair{QIcon::Selected, QString(svg).replace(colour, selected)}}) {
        QSvgRenderer renderer(drawing.toUtf8());
        for (int size : {16, 24, 32, 48}) {
            QPixmap pixmap(size, size);
            pixmap.fill(Qt::transparent);
            QPainter painter(&pixmap);
            renderer.render(&painter);
            painter.end();
            icon.addPixmap(pixmap, mode);
        }
    }
    made.insert(path + selected, icon);
    return icon;
}

namespace {

QIcon icon(const char *name) { return entityIcon(name); }

} // namespace

EntityTreeModel::EntityTreeModel(BrokerEngine *engine, BrokerIdentity identity, QObject *parent)
    : QAbstractItemModel(parent)
    , m_engine(engine)
    , m_identity(std::move(identity))
    , m_root(std::make_unique<Node>())
{
    ensureUiResources();
    auto local = std::make_unique<Node>();
    local->type = Node::Type::Connection;
    local->key = tr("This computer");
    local->parent = m_root.get();
    m_local = local.get();
    m_root->children.push_back(std::move(local));
    for (auto type : {Node::Type::TopicsGroup, Node::Type::QueuesGroup, Node::Type::ServiceBusGroup}) {
        auto group = std::make_unique<Node>();
        group->type = type;
        group->parent = m_local;
        m_local->children.push_back(std::move(group));
    }
    m_dueTimer = new QTimer(this);
    m_dueTimer->setSingleShot(true);
    connect(m_dueTimer, &QTimer::timeout, this, &EntityTreeModel::refresh);
    if (m_engine) {
        connect(m_engine, &BrokerEngine::changesPublished, this, &EntityTreeModel::onChanges);
        read();
    }
}

EntityTreeModel::~EntityTreeModel() = default;

void EntityTreeModel::onChanges() { refresh(); }

void EntityTreeModel::refresh()
{
    if (!m_engine)
        return;
    if (m_reading) {
        m_dirty = true; // read once more when the current read is back
        return;
    }
    read();
}

void EntityTreeModel::read()
{
    m_reading = true;
    m_dirty = false;
    readEntityOverview(*m_engine, m_identity, this, [this](Result<EntityOverview> overview) {
        m_reading = false;
        if (overview) {
            apply(*overview);
            armDueRead();
        } else
            emit readFailed(QString::fromStdString(overview.error().message));
        if (m_dirty)
            read();
    });
}

template <class Item, class KeyOf, class Fill>
void EntityTreeModel::sync(Node *parent, const std::vector<const Item *> &items, KeyOf keyOf, Fill fill)
{
    const QModelIndex parentIndex = indexOfNode(parent);
    std::map<QString, const Item *> wanted;
    for (const Item *item : items)
        wanted.emplace(keyOf(*item), item);
    // Removed rows first, from the end, so earlier rows keep their numbers.
    for (int row = static_cast<int>(parent->children.size()) - 1; row >= 0; --row) {
        Node *child = parent->children[static_cast<std::size_t>(row)].get();
        if (wanted.count(child->key))
            continue;
        std::vector<LocalEntity> gone;
        const auto collect = [&](const auto &self, const Node &node) -> void {
            if (const LocalEntity ref = refOf(node); !ref.isNull())
                gone.push_back(ref);
            for (const auto &grandChild : node.children)
                self(self, *grandChild);
        };
        collect(collect, *child);
        beginRemoveRows(parentIndex, row, row);
        parent->children.erase(parent->children.begin() + row);
        endRemoveRows();
        for (const LocalEntity &ref : gone)
            emit entityRemoved(ref);
    }
    // Then new rows at their place (both lists are ordered by key), and changes in place.
    int row = 0;
    for (const auto &[key, item] : wanted) {
        const bool exists = row < static_cast<int>(parent->children.size()) &&
                            parent->children[static_cast<std::size_t>(row)]->key == key;
        if (!exists) {
            auto node = std::make_unique<Node>();
            node->key = key;
            node->parent = parent;
            fill(*node, *item);
            beginInsertRows(parentIndex, row, row);
            parent->children.insert(parent->children.begin() + row, std::move(node));
            endInsertRows();
        } else {
            Node *node = parent->children[static_cast<std::size_t>(row)].get();
            if (fill(*node, *item))
                emit dataChanged(indexOfNode(node, 0), indexOfNode(node, ColumnCount - 1));
        }
        ++row;
    }
}

void EntityTreeModel::apply(const EntityOverview &overview)
{
    Node *topics = m_local->children[0].get();
    Node *queues = m_local->children[1].get();
    const std::size_t topicCount = topics->children.size();
    const std::size_t queueCount = queues->children.size();

    std::vector<const TopicOverview *> topicItems;
    for (const TopicOverview &topic : overview.topics)
        topicItems.push_back(&topic);
    sync(topics, topicItems, [](const TopicOverview &t) { return QString::fromStdString(t.name); },
         [](Node &node, const TopicOverview &t) {
             const bool changed = !(node.topic == t);
             node.type = Node::Type::Topic;
             node.topic = t;
             return changed;
         });
    for (const auto &topicNode : topics->children) {
        std::vector<const SubscriptionOverview *> subscriptionItems;
        for (const SubscriptionOverview &subscription : overview.subscriptions)
            if (QString::fromStdString(subscription.topicName) == topicNode->key)
                subscriptionItems.push_back(&subscription);
        sync(topicNode.get(), subscriptionItems,
             [](const SubscriptionOverview &s) { return QString::fromStdString(s.arn); },
             [](Node &node, const SubscriptionOverview &s) {
                 const bool changed = !(node.subscription == s);
                 node.type = Node::Type::Subscription;
                 node.subscription = s;
                 return changed;
             });
    }
    std::vector<const QueueOverview *> queueItems;
    for (const QueueOverview &queue : overview.queues)
        if (!isServiceBus(queue))
            queueItems.push_back(&queue);
    sync(queues, queueItems, [](const QueueOverview &q) { return QString::fromStdString(q.name); },
         [](Node &node, const QueueOverview &q) {
             const bool changed = node.type != Node::Type::Queue;
             node.type = Node::Type::Queue;
             return fillQueue(q, node.queue) || changed;
         });
    const std::size_t serviceBusCount = m_local->children[2]->children.size();
    syncServiceBus(overview);
    m_overview = overview;
    if (topicCount != topics->children.size())
        emit dataChanged(topicsGroup(), topicsGroup());
    if (queueCount != queues->children.size())
        emit dataChanged(queuesGroup(), queuesGroup());
    if (serviceBusCount != m_local->children[2]->children.size())
        emit dataChanged(serviceBusGroup(), serviceBusGroup());
    emit refreshed();
}

void EntityTreeModel::syncServiceBus(const EntityOverview &overview)
{
    const auto keyOfQueue = [](const QueueOverview &q) { return QString::fromStdString(q.name); };
    const auto fill = [](Node &node, const QueueOverview &q) {
        const bool changed = node.type != Node::Type::Queue;
        node.type = Node::Type::Queue;
        return fillQueue(q, node.queue) || changed;
    };
    // A queue's or subscription's dead-letter sub-queue, as its one child.
    const auto syncDeadLetters = [&](Node *owner) {
        std::vector<const QueueOverview *> deadLetters;
        if (owner->type == Node::Type::Queue)
            for (const QueueOverview &queue : overview.queues)
                if (QString::fromStdString(queue.serviceBusDeadLetterOf) == owner->key)
                    deadLetters.push_back(&queue);
        sync(owner, deadLetters, keyOfQueue, fill);
    };

    std::vector<ServiceBusItem> items;
    for (const QueueOverview &queue : overview.queues)
        if (queue.serviceBus && queue.serviceBusTopic.empty())
            items.push_back(ServiceBusItem{QString::fromStdString(queue.name), &queue});
    for (const std::string &topic : overview.serviceBusTopics)
        items.push_back(ServiceBusItem{QString::fromStdString(topic), nullptr});
    std::vector<const ServiceBusItem *> itemPointers;
    for (const ServiceBusItem &item : items)
        itemPointers.push_back(&item);
    Node *group = m_local->children[2].get();
    sync(group, itemPointers, [](const ServiceBusItem &item) { return item.name; },
         [&](Node &node, const ServiceBusItem &item) {
             if (item.queue)
                 return fill(node, *item.queue);
             const bool changed = node.type != Node::Type::ServiceBusTopic;
             node.type = Node::Type::ServiceBusTopic;
             node.queue = {};
             return changed;
         });
    for (const auto &node : group->children) {
        if (node->type != Node::Type::ServiceBusTopic) {
            syncDeadLetters(node.get());
            continue;
        }
        std::vector<const QueueOverview *> subscriptions;
        for (const QueueOverview &queue : overview.queues)
            if (queue.serviceBus && QString::fromStdString(queue.serviceBusTopic) == node->key)
                subscriptions.push_back(&queue);
        sync(node.get(), subscriptions, keyOfQueue, fill);
        for (const auto &subscription : node->children)
            syncDeadLetters(subscription.get());
    }
}

void EntityTreeModel::armDueRead()
{
    m_dueTimer->stop();
    if (!m_overview.nextVisible)
        return;
    // Nothing in virtual mode: time moves only by an advance, whose owner refreshes.
    const std::optional<std::chrono::milliseconds> delay = m_engine->clock().wallDelayUntil(*m_overview.nextVisible);
    if (!delay)
        return;
    // A far time is re-armed by a later read (QTimer takes an int of
    // milliseconds); many messages due one after another are read together.
    constexpr std::chrono::milliseconds kLongest = std::chrono::hours(1);
    constexpr std::chrono::milliseconds kShortest{100};
    m_dueTimer->start(std::clamp(*delay, kShortest, kLongest));
}

QModelIndex EntityTreeModel::indexOf(const LocalEntity &ref) const
{
    return ref.isNull() ? QModelIndex() : indexOfNode(find(*m_root, ref));
}

const EntityTreeModel::Node *EntityTreeModel::find(const Node &from, const LocalEntity &ref) const
{
    for (const auto &node : from.children) {
        if (refOf(*node) == ref)
            return node.get();
        if (const Node *found = find(*node, ref))
            return found;
    }
    return nullptr;
}

const QueueOverview *EntityTreeModel::queue(const QString &name) const
{
    const Node *node = find(*m_root, LocalEntity{EntityChange::Entity::Queue, name});
    return node ? &node->queue : nullptr;
}

const SubscriptionOverview *EntityTreeModel::subscription(const QString &arn) const
{
    const QModelIndex found = indexOf(LocalEntity{EntityChange::Entity::Subscription, arn});
    return found.isValid() ? &nodeOf(found)->subscription : nullptr;
}

EntityTreeModel::Node *EntityTreeModel::nodeOf(const QModelIndex &index) const
{
    return index.isValid() ? static_cast<Node *>(index.internalPointer()) : m_root.get();
}

QModelIndex EntityTreeModel::indexOfNode(const Node *node, int column) const
{
    if (!node || node == m_root.get())
        return {};
    return createIndex(node->row(), column, const_cast<Node *>(node));
}

QModelIndex EntityTreeModel::index(int row, int column, const QModelIndex &parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    const Node *node = nodeOf(parent);
    return createIndex(row, column, node->children[static_cast<std::size_t>(row)].get());
}

QModelIndex EntityTreeModel::parent(const QModelIndex &child) const
{
    if (!child.isValid())
        return {};
    return indexOfNode(nodeOf(child)->parent);
}

int EntityTreeModel::rowCount(const QModelIndex &parent) const
{
    if (parent.column() > 0)
        return 0;
    return static_cast<int>(nodeOf(parent)->children.size());
}

int EntityTreeModel::columnCount(const QModelIndex &) const { return ColumnCount; }

QVariant EntityTreeModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    return nodeData(*nodeOf(index), index.column(), role);
}

LocalEntity EntityTreeModel::refOf(const Node &node) const
{
    switch (node.type) {
    case Node::Type::Topic:
        return LocalEntity{EntityChange::Entity::Topic, node.key};
    case Node::Type::Queue:
        return LocalEntity{EntityChange::Entity::Queue, node.key};
    case Node::Type::Subscription:
        return LocalEntity{EntityChange::Entity::Subscription, node.key};
    case Node::Type::ServiceBusTopic:
        return LocalEntity{EntityChange::Entity::Topic, node.key, true};
    default:
        return LocalEntity{};
    }
}

QVariant EntityTreeModel::nodeData(const Node &node, int column, int role) const
{
    using Type = Node::Type;
    if (node.type == Type::Connection || node.type == Type::Remote || node.type == Type::Status)
        return connectionData(node, column, role);
    if (role == EntityRefRole)
        return QVariant::fromValue(refOf(node));
    if (role == UrlOrArnRole) {
        switch (node.type) {
        case Type::Topic:
            return QString::fromStdString(m_identity.topicArn(node.key.toStdString()));
        case Type::Queue:
            return QString::fromStdString(m_identity.queueUrl(node.key.toStdString()));
        case Type::Subscription:
            return node.key;
        default:
            return {};
        }
    }
    if (role == DeadLetterQueueRole)
        return node.type == Type::Queue && node.queue.isDeadLetterQueue;
    if (role == PendingRole)
        return node.type == Type::Subscription && node.subscription.pending;
    if (column > NameColumn) {
        if (node.type != Type::Queue)
            return {};
        const qint64 count = countOf(node.queue.counts, column);
        if (role == CountRole)
            return count;
        if (role == Qt::DisplayRole)
            return count == 0 && column != AvailableColumn ? QString() : QLocale().toString(count);
        if (role == Qt::TextAlignmentRole)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        if (role == Qt::ToolTipRole)
            return headerData(column, Qt::Horizontal, Qt::ToolTipRole);
        return {};
    }
    switch (role) {
    case Qt::DisplayRole:
        switch (node.type) {
        case Type::TopicsGroup:
            return groupTitle(tr("Topics"), node.children.size());
        case Type::QueuesGroup:
            return groupTitle(tr("Queues"), node.children.size());
        case Type::ServiceBusGroup:
            return groupTitle(tr("Service Bus"), node.children.size());
        case Type::Subscription:
            return QStringLiteral("%1 → %2%3")
                .arg(QString::fromStdString(node.subscription.protocol), endpointShort(node.subscription),
                     node.subscription.pending ? tr(" (pending)") : QString());
        case Type::Queue:
            if (!node.queue.serviceBusDeadLetterOf.empty())
                return QString::fromLatin1(kServiceBusDeadLetterSuffix.substr(1)); // "$DeadLetterQueue"
            if (!node.queue.serviceBusTopic.empty())
                return node.key.section(QLatin1Char('/'), -1); // the subscription's name
            return node.queue.zaqar ? tr("%1 (Zaqar)").arg(node.key) : node.key;
        case Type::Topic:
            return node.topic.zaqarQueue.empty() ? node.key : tr("%1 (Zaqar)").arg(node.key);
        default:
            return node.key;
        }
    case Qt::DecorationRole:
        switch (node.type) {
        case Type::Topic:
        case Type::ServiceBusTopic:
            return icon("topic");
        case Type::Subscription:
            return icon(node.subscription.pending ? "subscription-pending" : "subscription");
        case Type::Queue:
            if (node.queue.isDeadLetterQueue || !node.queue.serviceBusDeadLetterOf.empty())
                return icon("queue-dlq");
            if (!node.queue.serviceBusTopic.empty())
                return icon("subscription");
            if (node.queue.zaqar)
                return icon("queue-zaqar");
            return icon(node.queue.fifo ? "queue-fifo" : "queue");
        default:
            return icon("group");
        }
    case Qt::ToolTipRole:
        switch (node.type) {
        case Type::Topic:
            if (!node.topic.zaqarQueue.empty())
                return tr("Zaqar notifications of queue %1: its subscriptions").arg(QString::fromStdString(node.topic.zaqarQueue));
            return tr("Topic %1%2").arg(node.key, node.topic.fifo ? tr(" (FIFO)") : QString());
        case Type::Subscription:
            return tr("%1 subscription to %2%3")
                .arg(QString::fromStdString(node.subscription.protocol), QString::fromStdString(node.subscription.endpoint),
                     node.subscription.pending ? tr(" — waiting for confirmation") : QString());
        case Type::ServiceBusTopic:
            return tr("Service Bus topic %1: %n subscription(s)", nullptr, static_cast<int>(node.children.size()))
                .arg(node.key);
        case Type::Queue: {
            QString text = node.queue.zaqar ? tr("Zaqar queue %1").arg(node.key)
                                            : tr("%1 queue %2").arg(node.queue.fifo ? tr("FIFO") : tr("Standard"), node.key);
            if (!node.queue.serviceBusDeadLetterOf.empty())
                text = tr("Dead-letter sub-queue %1 of %2")
                           .arg(node.key, QString::fromStdString(node.queue.serviceBusDeadLetterOf));
            else if (!node.queue.serviceBusTopic.empty())
                text = tr("Service Bus subscription %1 of topic %2 (queue %3)")
                           .arg(node.key.section(QLatin1Char('/'), -1), QString::fromStdString(node.queue.serviceBusTopic),
                                node.key);
            else if (node.queue.serviceBus)
                text = tr("Service Bus queue %1").arg(node.key);
            if (node.queue.isDeadLetterQueue) {
                QStringList sources;
                for (const QueueOverview &other : m_overview.queues)
                    if (other.deadLetterQueue && *other.deadLetterQueue == node.queue.name)
                        sources << QString::fromStdString(other.name);
                text += tr("\nDead-letter queue of: %1").arg(sources.join(QStringLiteral(", ")));
            }
            if (node.queue.deadLetterQueue)
                text += tr("\nDead letters go to: %1").arg(QString::fromStdString(*node.queue.deadLetterQueue));
            return text;
        }
        default:
            return {};
        }
    case Qt::FontRole:
        if (node.type == Type::TopicsGroup || node.type == Type::QueuesGroup || node.type == Type::ServiceBusGroup) {
            QFont bold;
            bold.setBold(true);
            return bold;
        }
        if (node.type == Type::Subscription && node.subscription.pending) {
            QFont italic;
            italic.setItalic(true);
            return italic;
        }
        return {};
    default:
        return {};
    }
}

QVariant EntityTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    static const char *const kTitles[] = {QT_TR_NOOP("Name"), QT_TR_NOOP("Avail"), QT_TR_NOOP("Flight"),
                                          QT_TR_NOOP("Delay"), QT_TR_NOOP("Sched"), QT_TR_NOOP("DLQ")};
    static const char *const kTips[] = {
        QT_TR_NOOP("Topics with their subscriptions, queues, and Service Bus entities"),
        QT_TR_NOOP("Available: messages a receive can take now"),
        QT_TR_NOOP("In flight: messages received and locked (visibility timeout running)"),
        QT_TR_NOOP("Delayed: messages whose delay has not ended"),
        QT_TR_NOOP("Scheduled: messages waiting for their scheduled enqueue time"),
        QT_TR_NOOP("Dead-lettered: messages that were moved here as dead letters")};
    if (section < 0 || section >= ColumnCount)
        return {};
    if (role == Qt::DisplayRole)
        return tr(kTitles[section]);
    if (role == Qt::ToolTipRole)
        return tr(kTips[section]);
    if (role == Qt::TextAlignmentRole && section > NameColumn)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

} // namespace relaydesk
