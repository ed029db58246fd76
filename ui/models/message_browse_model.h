// SPDX-License-Identifier: MIT
#pragma once

#include "broker/message_browser.h"
#include "engine/entity_change.h"

#include <QAbstractTableModel>
#include <QList>
#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

namespace relaydesk {

class BrokerEngine;
class BrokerService;

// The messages of one queue as a table, browsed without receiving
// (BrokerService::browseQueue, the read-only connection): every state —
// available, in flight, delayed, scheduled, expired, dead-lettered — in
// storage order, fetched a page at a time (canFetchMore/fetchMore), so a
// queue of a million messages opens with its first page. A search (message
// id, body text, or key=value on an attribute; see browseQueue) narrows it.
//
// Live: the engine's change events for the queue re-read the loaded rows and
// apply the difference in place (rowsRemoved / dataChanged / rowsInserted,
// never a reset), so selection and scroll stay. Countdowns are computed at
// data() time from the broker clock; tick() (called by one timer of the view
// for the visible rows) repaints them and re-reads when a shown message's
// due time has passed (its state has moved on).
//
// Ownership: borrows the service and the engine (they outlive it). Thread:
// GUI thread; replies come back queued to it.
class MessageBrowseModel final : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { StateColumn, CountdownColumn, IdColumn, BodyColumn, SentColumn, ReceivesColumn, GroupColumn,
                  ColumnCount };
    enum Role {
        MessageIdRole = Qt::UserRole + 1,   // QString
        StateRole,                          // int (MessageState)
        SortRole,                           // a value that sorts the column sensibly
    };
    static constexpr int kPageSize = 200;
    static constexpr int kReloadPageSize = 1000;

    MessageBrowseModel(BrokerService &service, BrokerEngine &engine, QString queueName, QObject *parent = nullptr);
    ~MessageBrowseModel() override;
    MessageBrowseModel(const MessageBrowseModel &) = delete;
    MessageBrowseModel &operator=(const MessageBrowseModel &) = delete;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    bool canFetchMore(const QModelIndex &parent) const override;
    void fetchMore(const QModelIndex &parent) override;

    const QString &queueName() const { return m_queueName; }
    // Null when `row` is out of range. Valid until the model next changes.
    const BrowsedMessage *messageAt(int row) const;
    // The row of a message id, or -1.
    int rowOf(const QString &messageId) const;
    const QString &search() const { return m_search; }
    // A new search: the list is reset (it is another list) and its first page fetched.
    void setSearch(const QString &search);
    // Re-reads the loaded rows and applies the difference in place.
    void reload();
    // Repaints the countdowns of rows first..last; re-reads when one of them is due.
    void tick(int first, int last);
    // A page or re-read is under way.
    bool isLoading() const { return m_loading; }
    // Every message (of the search) is loaded.
    bool atEnd() const { return m_atEnd; }
    // The last failure (e.g. the queue was deleted); empty after a success.
    const QString &lastError() const { return m_lastError; }

signals:
    void loadingChanged(bool loading);
    // After every fetch or re-read that came back (ok or not).
    void loaded();
    void loadFailed(const QString &message);

private:
    void onChanges(const QList<relaydesk::EntityChange> &changes);
    void setLoading(bool loading);
    void startReload();
    void readForReload(std::uint64_t generation, std::optional<std::int64_t> after, int target,
                       std::shared_ptr<std::vector<BrowsedMessage>> collected);
    void merge(std::vector<BrowsedMessage> fresh);
    void finish(std::uint64_t generation, const QString &error);

    BrokerService *m_service = nullptr;
    BrokerEngine *m_engine = nullptr;
    QString m_queueName;
    QString m_search;
    std::vector<BrowsedMessage> m_messages;
    std::optional<std::int64_t> m_after;   // token of the next page
    bool m_atEnd = false;
    bool m_started = false;                // the first page was asked for
    bool m_loading = false;
    bool m_reloadWanted = false;           // a change came while loading
    std::uint64_t m_generation = 0;        // replies of an older search are dropped
    QString m_lastError;
};

} // namespace relaydesk
