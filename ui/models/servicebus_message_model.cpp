// SPDX-License-Identifier: MIT
#include "models/servicebus_message_model.h"

#include "connections/embedded/embedded_messages.h"
#include "broker/queues/message_browser.h"
#include "broker/queues/servicebus_queue.h"
#include "engine/broker_service.h"
#include "models/message_text.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QTimeZone>

#include <algorithm>

namespace relaydesk {

namespace {

QDateTime utc(ClockTime time)
{
    return QDateTime::fromMSecsSinceEpoch(toEpochMilliseconds(time), QTimeZone::utc());
}

// Storage order: the entity's own messages, then its dead letters.
bool before(const ServiceBusMessageRow &a, const ServiceBusMessageRow &b, const QStringList &queues)
{
    const qsizetype qa = queues.indexOf(a.queue);
    const qsizetype qb = queues.indexOf(b.queue);
    return qa != qb ? qa < qb : a.sequenceNumber < b.sequenceNumber;
}

} // namespace

QString serviceBusStateWord(ServiceBusMessageState state)
{
    switch (state) {
    case ServiceBusMessageState::Active: return QObject::tr("active");
    case ServiceBusMessageState::Locked: return QObject::tr("locked");
    case ServiceBusMessageState::Deferred: return QObject::tr("deferred");
    case ServiceBusMessageState::Scheduled: return QObject::tr("scheduled");
    case ServiceBusMessageState::DeadLettered: return QObject::tr("dead-lettered");
    }
    return {};
}

ServiceBusMessageRow serviceBusMessageRow(const QString &queue, bool deadLetters, const BrowsedMessage &message)
{
    ServiceBusMessageRow row;
    row.queue = queue;
    row.storedId = QString::fromStdString(message.messageId);
    row.storedBody = message.body;
    row.sequenceNumber = message.storageId;
    row.enqueued = utc(message.enqueued);
    row.deliveryCount = message.receiveCount;
    if (deadLetters || message.state == MessageState::DeadLettered)
        row.state = ServiceBusMessageState::DeadLettered;
    else if (message.state == MessageState::InFlight)
        row.state = ServiceBusMessageState::Locked;
    else if (message.deferred)
        row.state = ServiceBusMessageState::Deferred;
    else if (message.state == MessageState::Scheduled)
        row.state = ServiceBusMessageState::Scheduled;
    if (row.state == ServiceBusMessageState::Locked || row.state == ServiceBusMessageState::Scheduled)
        row.until = utc(message.visibleAt);
    if (message.deadLetterReason)
        row.deadLetterReason = QString::fromStdString(embedded::serviceBusReason(*message.deadLetterReason));
    if (message.deadLetterDescription)
        row.deadLetterDescription = QString::fromStdString(*message.deadLetterDescription);
    Result<ServiceBusMessageText> text = embedded::readServiceBusMessage(message.body);
    if (text) {
        row.messageId = QString::fromStdString(text->messageId);
        row.sessionId = QString::fromStdString(text->sessionId);
        row.subject = QString::fromStdString(text->subject);
        row.contentType = QString::fromStdString(text->contentType);
        row.correlationId = QString::fromStdString(text->correlationId);
        row.body = QString::fromStdString(text->body);
        for (const auto &[name, value] : text->applicationProperties)
            row.applicationProperties.insert(QString::fromStdString(name), QString::fromStdString(value));
        for (const auto &[name, type] : text->applicationPropertyTypes)
            row.applicationPropertyTypes.insert(QString::fromStdString(name), QString::fromStdString(type));
    } else {
        row.body = QString::fromStdString(message.body);   // not sent over AMQP: shown as stored
    }
    if (row.messageId.isEmpty())
        row.messageId = QString::fromStdString(message.messageId);
    if (row.sessionId.isEmpty() && message.groupId)
        row.sessionId = QString::fromStdString(*message.groupId);
    return row;
}

QString serviceBusMessageJson(const ServiceBusMessageRow &row)
{
    return QString::fromUtf8(QJsonDocument(serviceBusMessageObject(row)).toJson(QJsonDocument::Compact));
}

QJsonObject serviceBusMessageObject(const ServiceBusMessageRow &row)
{
    QJsonObject object;
    const auto put = [&object](const char *name, const QString &value) {
        if (!value.isEmpty())
            object.insert(QLatin1String(name), value);
    };
    const auto time = [](const QDateTime &t) { return t.isValid() ? t.toString(Qt::ISODateWithMs) : QString(); };
    object.insert(QStringLiteral("sequenceNumber"), row.sequenceNumber);
    put("state", serviceBusStateWord(row.state));
    put("messageId", row.messageId);
    put("sessionId", row.sessionId);
    put("subject", row.subject);
    put("contentType", row.contentType);
    put("correlationId", row.correlationId);
    put("enqueuedTime", time(row.enqueued));
    object.insert(QStringLiteral("deliveryCount"), row.deliveryCount);
    put(row.state == ServiceBusMessageState::Scheduled ? "scheduledEnqueueTime" : "lockedUntil", time(row.until));
    put("deadLetterReason", row.deadLetterReason);
    put("deadLetterDescription", row.deadLetterDescription);
    QJsonObject properties;
    for (auto it = row.applicationProperties.cbegin(); it != row.applicationProperties.cend(); ++it)
        properties.insert(it.key(), QJsonObject{{QStringLiteral("type"), row.applicationPropertyTypes.value(it.key())},
                                                {QStringLiteral("value"), it.value()}});
    if (!properties.isEmpty())
        object.insert(QStringLiteral("applicationProperties"), properties);
    object.insert(QStringLiteral("body"), row.body);
    return object;
}

QString serviceBusMessageText(const ServiceBusMessageRow &row)
{
    QStringList lines{QObject::tr("System properties")};
    const auto line = [&lines](const QString &name, const QString &value) {
        if (!value.isEmpty())
            lines << QStringLiteral("  ") + name + QStringLiteral(": ") + value;
    };
    const auto time = [](const QDateTime &t) { return t.isValid() ? t.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss 'UTC'")) : QString(); };
    line(QObject::tr("State"), serviceBusStateWord(row.state));
    line(QObject::tr("Sequence number"), QString::number(row.sequenceNumber));
    line(QObject::tr("Message ID"), row.messageId);
    line(QObject::tr("Session ID"), row.sessionId);
    line(QObject::tr("Subject"), row.subject);
    line(QObject::tr("Content type"), row.contentType);
    line(QObject::tr("Correlation ID"), row.correlationId);
    line(QObject::tr("Enqueued time"), time(row.enqueued));
    line(row.state == ServiceBusMessageState::Scheduled ? QObject::tr("Scheduled enqueue time") : QObject::tr("Locked until"),
         time(row.until));
    line(QObject::tr("Delivery count"), QString::number(row.deliveryCount));
    line(QObject::tr("Dead-letter reason"), row.deadLetterReason);
    line(QObject::tr("Dead-letter description"), row.deadLetterDescription);
    lines << QString() << QObject::tr("Application properties");
    if (row.applicationProperties.isEmpty())
        lines << QObject::tr("  none");
    for (auto it = row.applicationProperties.cbegin(); it != row.applicationProperties.cend(); ++it)
        line(QStringLiteral("%1 (%2)").arg(it.key(), row.applicationPropertyTypes.value(it.key(), QObject::tr("text"))),
             it.value());
    lines << QString() << QObject::tr("Body") << message_text::viewerBody(row.body.toStdString());
    return lines.join(QLatin1Char('\n'));
}

ServiceBusMessageModel::ServiceBusMessageModel(BrokerService &service, const QString &queue, QObject *parent)
    : QAbstractTableModel(parent)
    , m_service(service)
{
    m_queues << queue;
    if (!isServiceBusDeadLetterQueue(queue.toStdString()))
        m_queues << queue + QString::fromLatin1(kServiceBusDeadLetterSuffix);
}

void ServiceBusMessageModel::refresh()
{
    if (m_reading) {
        m_again = true;
        return;
    }
    m_reading = true;
    ++m_readsStarted;
    readQueue(0, {});
}

void ServiceBusMessageModel::readQueue(int which, std::vector<ServiceBusMessageRow> rows)
{
    if (which >= m_queues.size()) {
        m_reading = false;
        apply(std::move(rows));
        emit refreshed();
        if (std::exchange(m_again, false))
            refresh();
        return;
    }
    const QString queue = m_queues[which];
    const bool deadLetters = isServiceBusDeadLetterQueue(queue.toStdString());
    BrowseRequest request;
    request.pageSize = kMaxRows;
    m_service.browseQueue(queue.toStdString(), request, this,
                          [this, which, queue, deadLetters, rows = std::move(rows)](Result<BrowsePage> page) mutable {
                              if (!page) {
                                  emit readFailed(QString::fromStdString(page.error().message));
                              } else {
                                  for (const BrowsedMessage &message : page->messages)
                                      rows.push_back(serviceBusMessageRow(queue, deadLetters, message));
                              }
                              readQueue(which + 1, std::move(rows));
                          });
}

void ServiceBusMessageModel::apply(std::vector<ServiceBusMessageRow> rows)
{
    std::sort(rows.begin(), rows.end(), [this](const auto &a, const auto &b) { return before(a, b, m_queues); });
    // One merge over both ordered lists: rows that went leave, new ones
    // arrive at their place, the others change in place.
    std::size_t at = 0;
    for (const ServiceBusMessageRow &row : rows) {
        while (at < m_rows.size() && before(m_rows[at], row, m_queues)) {
            beginRemoveRows({}, int(at), int(at));
            m_rows.erase(m_rows.begin() + std::ptrdiff_t(at));
            endRemoveRows();
        }
        const bool same = at < m_rows.size() && m_rows[at].queue == row.queue &&
                          m_rows[at].sequenceNumber == row.sequenceNumber;
        if (same) {
            if (!(m_rows[at] == row)) {
                m_rows[at] = row;
                emit dataChanged(index(int(at), 0), index(int(at), ColumnCount - 1));
            }
        } else {
            beginInsertRows({}, int(at), int(at));
            m_rows.insert(m_rows.begin() + std::ptrdiff_t(at), row);
            endInsertRows();
        }
        ++at;
    }
    if (at < m_rows.size()) {
        beginRemoveRows({}, int(at), int(m_rows.size()) - 1);
        m_rows.erase(m_rows.begin() + std::ptrdiff_t(at), m_rows.end());
        endRemoveRows();
    }
}

int ServiceBusMessageModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int ServiceBusMessageModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ServiceBusMessageModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= int(m_rows.size()))
        return {};
    const ServiceBusMessageRow &row = m_rows[std::size_t(index.row())];
    if (role == StateRole)
        return int(row.state);
    if (role == SessionRole)
        return row.sessionId;
    if (role == Qt::TextAlignmentRole && (index.column() == SequenceColumn || index.column() == DeliveriesColumn))
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    const auto time = [](const QDateTime &t) {
        return t.isValid() ? t.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")) : QString();
    };
    switch (index.column()) {
    case SequenceColumn: return QString::number(row.sequenceNumber);
    case StateColumn: return serviceBusStateWord(row.state);
    case SessionColumn: return row.sessionId;
    case MessageIdColumn: return row.messageId;
    case SubjectColumn: return row.subject;
    case ContentTypeColumn: return row.contentType;
    case EnqueuedColumn: return time(row.enqueued);
    case UntilColumn: return time(row.until);
    case DeliveriesColumn: return QString::number(row.deliveryCount);
    case ReasonColumn: return row.deadLetterReason;
    case DescriptionColumn: return row.deadLetterDescription;
    case BodyColumn: {
        QString body = row.body.left(200);
        return role == Qt::DisplayRole ? body.replace(QLatin1Char('\n'), QLatin1Char(' ')) : row.body.left(2000);
    }
    }
    return {};
}

QVariant ServiceBusMessageModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    static const char *const titles[ColumnCount] = {
        QT_TR_NOOP("Sequence"),   QT_TR_NOOP("State"),         QT_TR_NOOP("Session"),    QT_TR_NOOP("Message ID"),
        QT_TR_NOOP("Subject"),    QT_TR_NOOP("Content type"),  QT_TR_NOOP("Enqueued"),   QT_TR_NOOP("Until"),
        QT_TR_NOOP("Deliveries"), QT_TR_NOOP("Dead-letter reason"), QT_TR_NOOP("Description"), QT_TR_NOOP("Body")};
    return section >= 0 && section < ColumnCount ? tr(titles[section]) : QVariant();
}

void ServiceBusMessageFilter::setState(std::optional<ServiceBusMessageState> state)
{
    m_state = state;
    invalidateFilter();
}

void ServiceBusMessageFilter::setSession(const QString &session)
{
    m_session = session.trimmed();
    invalidateFilter();
}

bool ServiceBusMessageFilter::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    const QModelIndex index = sourceModel()->index(sourceRow, 0, sourceParent);
    if (m_state && index.data(ServiceBusMessageModel::StateRole).toInt() != int(*m_state))
        return false;
    return m_session.isEmpty() || index.data(ServiceBusMessageModel::SessionRole).toString() == m_session;
}

} // namespace relaydesk
