// SPDX-License-Identifier: MIT
#include "models/attempt_log_model.h"

#include "charts/attempt_chart.h"
#include "broker/clock.h"
#include "engine/broker_engine.h"
#include "engine/broker_service.h"
#include "models/message_text.h"

#include <QGuiApplication>
#include <QPalette>

#include <algorithm>

namespace relaydesk {

namespace {

QString text(const std::string &value) { return QString::fromStdString(value); }

// The status (or the transport failure), and the broker's words when it has
// some: "404 · mock endpoint ghost does not exist" (docs/behaviour.md §4.7).
QString statusText(const AttemptRecord &record)
{
    QString status = record.httpStatus ? QString::number(*record.httpStatus)
                     : record.errorKind ? text(*record.errorKind)
                                        : QStringLiteral("—");
    if (record.error)
        status += QStringLiteral(" · ") + text(*record.error);
    return status;
}

QString kindText(const AttemptRecord &record)
{
    QString kind = text(record.kind);
    if (record.redelivery > 0)
        kind += QObject::tr(" · redelivery %1").arg(record.redelivery);
    return kind;
}

std::optional<std::string> nonEmpty(const QString &value)
{
    if (value.isEmpty())
        return std::nullopt;
    return value.toStdString();
}

} // namespace

AttemptLogModel::AttemptLogModel(BrokerService &service, BrokerEngine &engine, Scope scope, QString arn, QObject *parent)
    : QAbstractTableModel(parent), m_service(&service), m_clock(&engine.clock()), m_scope(scope), m_arn(std::move(arn))
{
    qRegisterMetaType<std::vector<AttemptRecord>>();
    connect(&engine, &BrokerEngine::changesPublished, this, &AttemptLogModel::onChanges);
}

AttemptLogModel::~AttemptLogModel() = default;

int AttemptLogModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int AttemptLogModel::columnCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : ColumnCount; }

const AttemptRecord *AttemptLogModel::recordAt(int row) const
{
    return row >= 0 && row < static_cast<int>(m_rows.size()) ? &m_rows[static_cast<std::size_t>(row)] : nullptr;
}

QVariant AttemptLogModel::data(const QModelIndex &index, int role) const
{
    const AttemptRecord *record = index.isValid() ? recordAt(index.row()) : nullptr;
    if (!record)
        return {};
    switch (role) {
    case RowIdRole: return QVariant::fromValue<qint64>(record->id);
    case MessageIdRole: return text(record->messageId);
    case SubscriptionArnRole: return text(record->subscriptionArn);
    case Qt::DecorationRole:
        if (index.column() == PhaseColumn)
            return AttemptChart::phaseColourOf(text(record->phase), QGuiApplication::palette());
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == AttemptColumn || index.column() == DurationColumn || index.column() == StatusColumn)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case Qt::ToolTipRole:
        if (index.column() == MessageIdColumn)
            return tr("%1\nto %2").arg(text(record->messageId), text(record->subscriptionArn));
        if (index.column() == DueColumn || index.column() == StartedColumn) {
            const std::int64_t late = toEpochMilliseconds(record->startedAt) - toEpochMilliseconds(record->plannedAt);
            return tr("due %1 (the engine's time for this attempt: the retry delay with its jitter), "
                      "started %2 (%3 ms later)")
                .arg(text(formatIso8601(record->plannedAt)), text(formatIso8601(record->startedAt)))
                .arg(late);
        }
        return {};
    case Qt::DisplayRole:
        switch (index.column()) {
        case MessageIdColumn: return text(record->messageId);
        case AttemptColumn: return QVariant::fromValue<qint64>(record->attempt);
        case PhaseColumn: return text(record->phase);
        case DueColumn: return message_text::shortTimeText(record->plannedAt, m_clock->now());
        case StartedColumn: return message_text::shortTimeText(record->startedAt, m_clock->now());
        case DurationColumn: return tr("%1 ms").arg(record->durationMs);
        case StatusColumn: return statusText(*record);
        case OutcomeColumn: return text(record->outcome);
        case FinalColumn: return record->final ? text(*record->final) : QString();
        case KindColumn: return kindText(*record);
        default: return {};
        }
    default: return {};
    }
}

QVariant AttemptLogModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole && section == DueColumn)
        return tr("When the engine set this attempt to start: its retry delay, with jitter (UTC; the date only "
                  "when not today on the broker clock). The policy's plan before jitter is the chart's dashed "
                  "line and the timeline's Planned.");
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case MessageIdColumn: return tr("Message ID");
    case AttemptColumn: return tr("Attempt");
    case PhaseColumn: return tr("Phase");
    case DueColumn: return tr("Due (UTC)");
    case StartedColumn: return tr("Started (UTC)");
    case DurationColumn: return tr("Duration");
    case StatusColumn: return tr("Status");
    case OutcomeColumn: return tr("Outcome");
    case FinalColumn: return tr("Final");
    case KindColumn: return tr("Kind");
    default: return {};
    }
}

AttemptQuery AttemptLogModel::query() const
{
    AttemptQuery query;
    if (m_scope == Scope::Subscription)
        query.subscriptionArn = m_arn.toStdString();
    else
        query.topicArn = m_arn.toStdString();
    query.messageId = nonEmpty(m_filter.messageId.trimmed());
    query.outcome = nonEmpty(m_filter.outcome);
    query.phase = nonEmpty(m_filter.phase);
    query.statusClass = nonEmpty(m_filter.statusClass);
    query.since = m_filter.since;
    query.until = m_filter.until;
    return query;
}

bool AttemptLogModel::canFetchMore(const QModelIndex &parent) const
{
    return !parent.isValid() && !m_loading && (!m_started || m_more);
}

void AttemptLogModel::fetchMore(const QModelIndex &parent)
{
    if (!canFetchMore(parent))
        return;
    const bool first = !m_started;
    m_started = true;
    setLoading(true);
    AttemptQuery page = query();
    page.order = AttemptOrder::NewestFirst;
    page.limit = kPageSize;
    if (!m_rows.empty())
        page.beforeId = m_rows.back().id;
    const std::uint64_t generation = m_generation;
    m_service->queryAttempts(page, this, [this, generation](Result<AttemptPage> result) {
        if (generation != m_generation)
            return;
        if (!result)
            return finish(text(result.error().message));
        if (!result->rows.empty()) {
            const int at = static_cast<int>(m_rows.size());
            beginInsertRows({}, at, at + static_cast<int>(result->rows.size()) - 1);
            m_rows.insert(m_rows.end(), result->rows.begin(), result->rows.end());
            endInsertRows();
            emit attemptsArrived(result->rows);
        }
        m_more = result->more;
        finish({});
    });
    if (first)
        recount();
}

void AttemptLogModel::setFilter(const AttemptFilter &filter)
{
    ++m_generation;
    beginResetModel();
    m_filter = filter;
    m_rows.clear();
    m_started = false;
    m_more = true;
    m_newerWanted = false;
    m_lastError.clear();
    endResetModel();
    m_total = -1;
    setLoading(false);
    fetchMore({});
}

bool AttemptLogModel::inScope(const QString &subscriptionArn) const
{
    if (m_scope == Scope::Subscription)
        return subscriptionArn == m_arn;
    return subscriptionArn.startsWith(m_arn + QLatin1Char(':'));
}

void AttemptLogModel::onChanges(const QList<EntityChange> &changes)
{
    for (const EntityChange &change : changes) {
        if (change.kind == EntityChange::Kind::AttemptsLogged && change.entity == EntityChange::Entity::Subscription
            && inScope(change.name))
            return fetchNewer();
    }
}

void AttemptLogModel::fetchNewer()
{
    if (!m_started)
        return fetchMore({});
    if (m_loading) {
        m_newerWanted = true;
        return;
    }
    setLoading(true);
    AttemptQuery newer = query();
    newer.order = AttemptOrder::OldestFirst;
    newer.limit = kLivePageSize;
    newer.afterId = m_rows.empty() ? 0 : m_rows.front().id;
    const std::uint64_t generation = m_generation;
    m_service->queryAttempts(newer, this, [this, generation](Result<AttemptPage> result) {
        if (generation != m_generation)
            return;
        if (!result)
            return finish(text(result.error().message));
        if (!result->rows.empty()) {
            const int count = static_cast<int>(result->rows.size());
            beginInsertRows({}, 0, count - 1);
            for (const AttemptRecord &record : result->rows)
                m_rows.push_front(record); // oldest first in, so the newest ends on top
            endInsertRows();
            if (m_total >= 0) {
                m_total += count;
                emit totalChanged(m_total);
            }
            emit attemptsArrived(result->rows);
            trim();
        }
        m_newerWanted = m_newerWanted || result->more;
        finish({});
    });
}

void AttemptLogModel::trim()
{
    if (static_cast<int>(m_rows.size()) <= kMaxRows)
        return;
    const int first = kMaxRows;
    beginRemoveRows({}, first, static_cast<int>(m_rows.size()) - 1);
    m_rows.erase(m_rows.begin() + first, m_rows.end());
    endRemoveRows();
    m_more = true;
}

void AttemptLogModel::recount()
{
    const std::uint64_t generation = m_generation;
    m_service->countAttempts(query(), this, [this, generation](Result<std::int64_t> count) {
        if (generation != m_generation || !count)
            return;
        m_total = *count;
        emit totalChanged(m_total);
    });
}

void AttemptLogModel::setLoading(bool loading)
{
    if (loading == m_loading)
        return;
    m_loading = loading;
    emit loadingChanged(loading);
}

void AttemptLogModel::finish(const QString &error)
{
    m_lastError = error;
    if (!error.isEmpty())
        m_more = false;
    setLoading(false);
    if (!error.isEmpty())
        emit loadFailed(error);
    emit loaded();
    if (m_newerWanted && error.isEmpty()) {
        m_newerWanted = false;
        fetchNewer();
    }
}

QString AttemptLogModel::rowsAsText(const QList<int> &rows) const
{
    QStringList lines;
    QStringList header;
    for (int column = 0; column < ColumnCount; ++column)
        header << headerData(column, Qt::Horizontal).toString();
    lines << header.join(QLatin1Char('\t'));
    QList<int> sorted = rows;
    std::sort(sorted.begin(), sorted.end());
    for (int row : sorted) {
        QStringList cells;
        for (int column = 0; column < ColumnCount; ++column)
            cells << data(index(row, column)).toString();
        lines << cells.join(QLatin1Char('\t'));
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

} // namespace relaydesk
