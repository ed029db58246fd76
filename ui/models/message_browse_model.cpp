// SPDX-License-Identifier: MIT
#include "models/message_browse_model.h"

#include "broker/queues/dead_letter_queue.h"
#include "engine/broker_engine.h"
#include "engine/broker_service.h"
#include "models/message_text.h"

#include <QGuiApplication>
#include <QPalette>

#include <algorithm>
#include <unordered_set>

namespace relaydesk {

namespace {

// What a re-read may change on a message that stays.
bool sameMessage(const BrowsedMessage &a, const BrowsedMessage &b)
{
    return a.state == b.state && a.visibleAt == b.visibleAt && a.receiveCount == b.receiveCount
        && a.firstReceive == b.firstReceive && a.expiresAt == b.expiresAt && a.deadLetterReason == b.deadLetterReason
        && a.enqueued == b.enqueued && a.sequenceNumber == b.sequenceNumber && a.body == b.body;
}

// The state, with a dead letter's reason in short words (the full reason is
// in the tooltip and the viewer).
QString stateText(const BrowsedMessage &message)
{
    QString text = message_text::stateLabel(message.state);
    if (message.state == MessageState::DeadLettered && message.deadLetterReason) {
        const std::string &reason = *message.deadLetterReason;
        const QString words = reason == kMaxReceiveCountExceeded  ? QStringLiteral("max receives")
                            : reason == kTtlExpiredException      ? QStringLiteral("TTL expired")
                            : reason == kDeliveryRetriesExhausted ? QStringLiteral("retries exhausted")
                            : reason == kDeliveryRefused          ? QStringLiteral("delivery refused")
                                                                  : QString::fromStdString(reason);
        text += QStringLiteral(" (%1)").arg(words);
    }
    return text;
}

} // namespace

MessageBrowseModel::MessageBrowseModel(BrokerService &service, BrokerEngine &engine, QString queueName, QObject *parent)
    : QAbstractTableModel(parent), m_service(&service), m_engine(&engine), m_queueName(std::move(queueName))
{
    connect(&engine, &BrokerEngine::changesPublished, this, &MessageBrowseModel::onChanges);
}

MessageBrowseModel::~MessageBrowseModel() = default;

int MessageBrowseModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_messages.size());
}

int MessageBrowseModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

const BrowsedMessage *MessageBrowseModel::messageAt(int row) const
{
    return row >= 0 && row < static_cast<int>(m_messages.size()) ? &m_messages[static_cast<std::size_t>(row)] : nullptr;
}

int MessageBrowseModel::rowOf(const QString &messageId) const
{
    const std::string id = messageId.toStdString();
    const auto found = std::find_if(m_messages.begin(), m_messages.end(),
                                    [&](const BrowsedMessage &message) { return message.messageId == id; });
    return found == m_messages.end() ? -1 : static_cast<int>(found - m_messages.begin());
}

QVariant MessageBrowseModel::data(const QModelIndex &index, int role) const
{
    const BrowsedMessage *message = index.isValid() ? messageAt(index.row()) : nullptr;
    if (!message)
        return {};
    switch (role) {
    case MessageIdRole: return QString::fromStdString(message->messageId);
    case StateRole: return static_cast<int>(message->state);
    case Qt::ForegroundRole:
        if (message->state == MessageState::Expired)
            return QGuiApplication::palette().brush(QPalette::Disabled, QPalette::Text);
        return {};
    case Qt::ToolTipRole:
        if (index.column() == BodyColumn)
            return message_text::bodyPreview(message->body);
        if (index.column() == StateColumn && message->deadLetterReason)
            return QStringLiteral("%1 from %2").arg(QString::fromStdString(*message->deadLetterReason),
                                                    QString::fromStdString(message->sourceQueue.value_or("a deleted queue")));
        if (index.column() == IdColumn)
            return QString::fromStdString(message->messageId);
        if (index.column() == SentColumn)
            return QStringLiteral("Sent %1, enqueued %2")
                .arg(message_text::timeText(message->sent), message_text::timeText(message->enqueued));
        return {};
    case Qt::DisplayRole:
        switch (index.column()) {
        case StateColumn: return stateText(*message);
        case CountdownColumn: return message_text::countdownText(*message, m_engine->clock().now());
        case IdColumn: return QString::fromStdString(message->messageId);
        case BodyColumn: return message_text::bodyPreview(message->body);
        case SentColumn: return message_text::shortTimeText(message->sent, m_engine->clock().now());
        case ReceivesColumn: return message->receiveCount;
        case GroupColumn: return message->groupId ? QString::fromStdString(*message->groupId) : QString();
        default: return {};
        }
    default: return {};
    }
}

QVariant MessageBrowseModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole)
        return isSortable(section)
                   ? tr("Click to sort the whole queue by the time sent, oldest or newest first.")
                   : tr("Not sortable: ordering a whole queue by this column would read every message. "
                        "Sort by Sent, or search.");
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case StateColumn: return tr("State");
    case CountdownColumn: return tr("Countdown");
    case IdColumn: return tr("Message ID");
    case BodyColumn: return tr("Body");
    case SentColumn: return tr("Sent (UTC)");
    case ReceivesColumn: return tr("Receives");
    case GroupColumn: return tr("Group");
    default: return {};
    }
}

bool MessageBrowseModel::canFetchMore(const QModelIndex &parent) const
{
    return !parent.isValid() && !m_loading && !m_searchPaused && (!m_started || !m_atEnd) && !m_tail;
}

void MessageBrowseModel::jumpToEnd()
{
    if (!m_search.isEmpty())
        return;
    clear(true);
    fetchEarlier();
}

// At the tail: the page before the first row (the last page, first), read the other way and reversed.
void MessageBrowseModel::fetchEarlier()
{
    if (!m_tail || m_loading || (!m_messages.empty() && !m_before))
        return;
    setLoading(true);
    const std::uint64_t generation = m_generation;
    m_service->browseQueue(m_queueName.toStdString(), request(m_before, kPageSize), this,
                           [this, generation](Result<BrowsePage> page) {
                               if (generation != m_generation)
                                   return;
                               if (!page)
                                   return finish(generation, QString::fromStdString(page.error().message));
                               const int count = static_cast<int>(page->messages.size());
                               if (count > 0) {
                                   beginInsertRows({}, 0, count - 1);
                                   m_messages.insert(m_messages.begin(), std::make_move_iterator(page->messages.rbegin()),
                                                     std::make_move_iterator(page->messages.rend()));
                                   endInsertRows();
                               }
                               m_before = page->nextPageToken;
                               if (page->total)
                                   m_total = *page->total;
                               finish(generation, {});
                               if (count > 0)
                                   emit rowsPrepended(count);
                           });
}

qint64 MessageBrowseModel::positionOf(int row) const
{
    const qint64 loaded = static_cast<qint64>(m_messages.size());
    const qint64 first = m_tail ? std::max<qint64>(0, m_total - loaded) : 0;
    return first + row + 1;
}

BrowseRequest MessageBrowseModel::request(std::optional<std::int64_t> after, int pageSize) const
{
    BrowseRequest request;
    request.after = after;
    request.pageSize = pageSize;
    request.search = m_search.toStdString();
    request.newestFirst = m_newestFirst != m_tail;   // the tail reads the other way
    request.scanLimit = m_scanLimit;
    return request;
}

void MessageBrowseModel::sort(int column, Qt::SortOrder order)
{
    const bool newestFirst = order == Qt::DescendingOrder;
    if (!isSortable(column) || newestFirst == m_newestFirst)
        return;
    m_newestFirst = newestFirst;
    restart();
}

void MessageBrowseModel::continueSearch()
{
    if (!m_searchPaused)
        return;
    m_searchPaused = false;
    fetchMore({});
}

void MessageBrowseModel::fetchMore(const QModelIndex &parent)
{
    if (!canFetchMore(parent))
        return;
    m_started = true;
    setLoading(true);
    const std::uint64_t generation = m_generation;
    m_service->browseQueue(m_queueName.toStdString(), request(m_after, kPageSize), this,
                           [this, generation](Result<BrowsePage> page) {
                               if (generation != m_generation)
                                   return;
                               if (!page)
                                   return finish(generation, QString::fromStdString(page.error().message));
                               if (!page->messages.empty()) {
                                   const int first = static_cast<int>(m_messages.size());
                                   beginInsertRows({}, first, first + static_cast<int>(page->messages.size()) - 1);
                                   std::move(page->messages.begin(), page->messages.end(),
                                             std::back_inserter(m_messages));
                                   endInsertRows();
                               }
                               m_after = page->nextPageToken;
                               m_atEnd = !m_after;
                               m_searched += page->scanned;
                               if (page->total)
                                   m_total = *page->total;
                               m_searchPaused = page->scanLimitReached;
                               finish(generation, {});
                           });
}

void MessageBrowseModel::setSearch(const QString &search)
{
    m_search = search.trimmed();
    restart();
}

void MessageBrowseModel::clear(bool tail)
{
    ++m_generation;   // whatever is under way belongs to the old list
    beginResetModel();
    m_messages.clear();
    m_searchPaused = false;
    m_searched = 0;
    m_total = 0;
    m_after.reset();
    m_before.reset();
    m_tail = tail;
    m_atEnd = tail;     // at the tail nothing comes after the end
    m_started = tail;
    m_reloadWanted = false;
    m_lastError.clear();
    m_loading = false;   // before the reset is announced: a view may fetch from within it
    endResetModel();
    emit loadingChanged(m_loading);
}

void MessageBrowseModel::restart()
{
    clear();
    fetchMore({});   // nothing when a view already did
}

void MessageBrowseModel::reload()
{
    if (m_loading) {
        m_reloadWanted = true;
        return;
    }
    if (!m_started)
        return fetchMore({});
    startReload();
}

void MessageBrowseModel::tick(int first, int last)
{
    first = std::max(first, 0);
    last = std::min(last, rowCount() - 1);
    if (first > last)
        return;
    emit dataChanged(index(first, CountdownColumn), index(last, CountdownColumn), {Qt::DisplayRole});
    const ClockTime now = m_engine->clock().now();
    for (int row = first; row <= last; ++row)
        if (message_text::stateDue(m_messages[static_cast<std::size_t>(row)], now))
            return reload();
}

void MessageBrowseModel::onChanges(const QList<EntityChange> &changes)
{
    for (const EntityChange &change : changes) {
        if (change.entity != EntityChange::Entity::Queue || change.name != m_queueName)
            continue;
        if (change.kind == EntityChange::Kind::Deleted) {
            ++m_generation;
            if (!m_messages.empty()) {
                beginRemoveRows({}, 0, static_cast<int>(m_messages.size()) - 1);
                m_messages.clear();
                endRemoveRows();
            }
            m_atEnd = true;
            m_started = true;
            m_lastError = tr("The queue %1 was deleted.").arg(m_queueName);
            setLoading(false);
            emit loadFailed(m_lastError);
            return;
        }
        return reload();
    }
}

void MessageBrowseModel::setLoading(bool loading)
{
    if (loading == m_loading)
        return;
    m_loading = loading;
    emit loadingChanged(loading);
}

void MessageBrowseModel::startReload()
{
    setLoading(true);
    // As many rows as are loaded (at least a page), so the view keeps what it shows.
    const int target = std::max(static_cast<int>(m_messages.size()), kPageSize);
    readForReload(m_generation, std::nullopt, target, std::make_shared<std::vector<BrowsedMessage>>(), 0);
}

// A search's re-read examines as far as the search had got, not further.
void MessageBrowseModel::readForReload(std::uint64_t generation, std::optional<std::int64_t> after, int target,
                                       std::shared_ptr<std::vector<BrowsedMessage>> collected, qint64 searched)
{
    const int pageSize = std::min(kReloadPageSize, target - static_cast<int>(collected->size()));
    m_service->browseQueue(
        m_queueName.toStdString(), request(after, pageSize), this,
        [this, generation, target, collected, searched](Result<BrowsePage> page) {
            if (generation != m_generation)
                return;
            if (!page)
                return finish(generation, QString::fromStdString(page.error().message));
            std::move(page->messages.begin(), page->messages.end(), std::back_inserter(*collected));
            if (page->total)
                m_total = *page->total;
            const qint64 nowSearched = searched + page->scanned;
            const bool searchGoesOn = !page->scanLimitReached || nowSearched < m_searched;
            if (page->nextPageToken && static_cast<int>(collected->size()) < target && searchGoesOn)
                return readForReload(generation, page->nextPageToken, target, collected, nowSearched);
            if (m_tail) {
                m_before = page->nextPageToken;   // read the other way: back into list order
                std::reverse(collected->begin(), collected->end());
            } else {
                m_after = page->nextPageToken;
                m_atEnd = !m_after;
            }
            if (!m_search.isEmpty()) {
                m_searched = nowSearched;
                m_searchPaused = page->scanLimitReached;
            }
            merge(std::move(*collected));
            finish(generation, {});
        });
}

// `fresh` is the new list in the list's order; rows that stay keep their place.
void MessageBrowseModel::merge(std::vector<BrowsedMessage> fresh)
{
    std::unordered_set<std::string> freshIds;
    for (const BrowsedMessage &message : fresh)
        freshIds.insert(message.messageId);
    // Gone: removed in runs, from the end.
    for (int row = static_cast<int>(m_messages.size()) - 1; row >= 0;) {
        if (freshIds.count(m_messages[static_cast<std::size_t>(row)].messageId)) {
            --row;
            continue;
        }
        const int last = row;
        while (row >= 0 && !freshIds.count(m_messages[static_cast<std::size_t>(row)].messageId))
            --row;
        beginRemoveRows({}, row + 1, last);
        m_messages.erase(m_messages.begin() + row + 1, m_messages.begin() + last + 1);
        endRemoveRows();
    }
    std::unordered_set<std::string> kept;
    for (const BrowsedMessage &message : m_messages)
        kept.insert(message.messageId);
    // Now every kept row is in `fresh`: walk both, updating in place and inserting runs of new ones.
    std::size_t i = 0;
    while (i < fresh.size()) {
        const int row = static_cast<int>(i);
        if (i < m_messages.size() && m_messages[i].messageId == fresh[i].messageId) {
            if (!sameMessage(m_messages[i], fresh[i])) {
                m_messages[i] = std::move(fresh[i]);
                emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
            }
            ++i;
            continue;
        }
        if (kept.count(fresh[i].messageId)) {
            // Out of order (rare): the old row goes, the message is inserted here.
            const int old = rowOf(QString::fromStdString(fresh[i].messageId));
            beginRemoveRows({}, old, old);
            m_messages.erase(m_messages.begin() + old);
            endRemoveRows();
            kept.erase(fresh[i].messageId);
            continue;
        }
        std::size_t end = i;
        while (end < fresh.size() && !kept.count(fresh[end].messageId))
            ++end;
        beginInsertRows({}, row, row + static_cast<int>(end - i) - 1);
        m_messages.insert(m_messages.begin() + static_cast<std::ptrdiff_t>(i), std::make_move_iterator(fresh.begin() + static_cast<std::ptrdiff_t>(i)),
                          std::make_move_iterator(fresh.begin() + static_cast<std::ptrdiff_t>(end)));
        endInsertRows();
        i = end;
    }
}

void MessageBrowseModel::finish(std::uint64_t generation, const QString &error)
{
    if (generation != m_generation)
        return;
    m_lastError = error;
    if (!error.isEmpty())
        m_atEnd = true;   // nothing more to fetch from a queue that failed
    setLoading(false);
    if (!error.isEmpty())
        emit loadFailed(error);
    emit loaded();
    if (m_reloadWanted && error.isEmpty()) {
        m_reloadWanted = false;
        startReload();
    }
}

} // namespace relaydesk
