// SPDX-License-Identifier: MIT
#pragma once

#include <QAbstractTableModel>
#include <QDateTime>
#include <QJsonObject>
#include <QMap>
#include <QSortFilterProxyModel>
#include <QString>

#include <optional>

#include <vector>

namespace relaydesk {

class BrokerService;
struct BrowsedMessage;

// A Service Bus message's state as the service names them (docs/window.md
// "Service Bus"): active (receivable now), locked (received, lock held),
// deferred, scheduled (enqueue time ahead) and dead-lettered (in the
// entity's dead-letter sub-queue).
enum class ServiceBusMessageState { Active, Locked, Deferred, Scheduled, DeadLettered };
QString serviceBusStateWord(ServiceBusMessageState state);   // "active", "locked", …

// One row: a stored message with its AMQP fields read back
// (readServiceBusMessage). Plain value type.
struct ServiceBusMessageRow {
    QString queue;                 // the broker queue that holds it
    QString storedId;              // the broker's id of the stored message (deletes, resubmits)
    std::string storedBody;        // the stored AMQP sections (resubmits)
    qint64 sequenceNumber = 0;     // its storage id (the service's sequence number)
    ServiceBusMessageState state = ServiceBusMessageState::Active;
    QString messageId;
    QString sessionId;
    QString subject;
    QString contentType;
    QString correlationId;
    QString body;
    QMap<QString, QString> applicationProperties;
    QMap<QString, QString> applicationPropertyTypes;   // AMQP type names: "long", "string", …
    QDateTime enqueued;
    QDateTime until;               // locked until / scheduled for; invalid otherwise
    int deliveryCount = 0;
    QString deadLetterReason;
    QString deadLetterDescription;

    bool operator==(const ServiceBusMessageRow &) const = default;
};
// The row of a browsed message of `queue` (`deadLetters`: a dead-letter sub-queue).
ServiceBusMessageRow serviceBusMessageRow(const QString &queue, bool deadLetters, const BrowsedMessage &message);
// The row as one JSON object (Copy as JSON): sequenceNumber, state, messageId,
// sessionId, subject, contentType, correlationId, enqueuedTime, deliveryCount,
// lockedUntil/scheduledEnqueueTime, deadLetterReason, deadLetterDescription,
// applicationProperties {name: {type, value}}, body; empty fields left out.
QString serviceBusMessageJson(const ServiceBusMessageRow &row);
QJsonObject serviceBusMessageObject(const ServiceBusMessageRow &row);   // the same, as an object
// The details pane's text: "System properties", "Application properties"
// (each "name (AMQP type): value") and "Body" headings, the body
// pretty-printed when it is JSON (message_text::viewerBody).
QString serviceBusMessageText(const ServiceBusMessageRow &row);

// Every message of a Service Bus queue or subscription and of its
// dead-letter sub-queue, in every state (docs/window.md "Service Bus"): the
// entity's messages first, then its dead letters, each by sequence number.
// refresh() browses both queues (BrokerService::browseQueue, peeks: nothing
// changes) up to kMaxRows each and applies the result row by row — rows
// leave, arrive and change in place, the model is never reset. At most one
// read in flight; a refresh asked meanwhile runs after it.
// Ownership: borrows the service. Thread: GUI.
class ServiceBusMessageModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    static constexpr int kMaxRows = 1000;
    enum Column { SequenceColumn, StateColumn, SessionColumn, MessageIdColumn, SubjectColumn, ContentTypeColumn,
                  EnqueuedColumn, UntilColumn, DeliveriesColumn, ReasonColumn, DescriptionColumn, BodyColumn,
                  ColumnCount };
    enum Role { StateRole = Qt::UserRole + 1, SessionRole };

    // `queue`: the entity's broker queue; its dead letters are read from "QUEUE/$DeadLetterQueue"
    // unless the queue is itself a dead-letter sub-queue.
    ServiceBusMessageModel(BrokerService &service, const QString &queue, QObject *parent = nullptr);

    void refresh();
    // How many reads have begun; during `refreshed`, the number of the read
    // that just ended (reads run one at a time).
    quint64 readsStarted() const { return m_readsStarted; }
    const std::vector<ServiceBusMessageRow> &rows() const { return m_rows; }
    // The broker queues read: the entity's, then its dead-letter sub-queue's when shown.
    const QStringList &queues() const { return m_queues; }
    void apply(std::vector<ServiceBusMessageRow> rows);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

signals:
    void refreshed();
    void readFailed(const QString &message);

private:
    void readQueue(int which, std::vector<ServiceBusMessageRow> rows);

    BrokerService &m_service;
    QStringList m_queues;   // the entity's queue, then its dead-letter sub-queue
    std::vector<ServiceBusMessageRow> m_rows;
    bool m_reading = false;
    bool m_again = false;
    quint64 m_readsStarted = 0;
};

// The Messages page's filters: by state (none: every state) and by session id (empty: every session).
class ServiceBusMessageFilter final : public QSortFilterProxyModel {
    Q_OBJECT
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;
    void setState(std::optional<ServiceBusMessageState> state);
    void setSession(const QString &session);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    std::optional<ServiceBusMessageState> m_state;
    QString m_session;
};

} // namespace relaydesk
