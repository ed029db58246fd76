// SPDX-License-Identifier: MIT
#pragma once

#include "broker/queues/message_browser.h"
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
// storage order (the order they arrived: by sent time), oldest or newest
// first, fetched a page at a time (canFetchMore/fetchMore), so a queue of a
// million messages opens with its first page.
//
// Sorting orders the whole queue, not the loaded rows: only the Sent column
// sorts (sort(): the broker reads the queue's index forwards or backwards,
// and the list starts again); the other columns would need every message
// read, so they do not sort and their header tooltip says so.
//
// Large queues: jumpToEnd() drops the loaded rows and reads the queue's last
// page (the index read the other way, reversed: no page before it is read);
// from there the list grows upwards, a page at a time, by fetchEarlier()
// (the view calls it at the top), and nothing comes after the end.
// positionOf(row) is the row's place in the whole queue, of queueTotal() —
// the queue's depth counter, read with every first page, not the loaded rows.
// Not while searching: a search's matches have no known count.
//
// A search (message id, body text, or key=value on an attribute; see
// browseQueue) narrows it. Each page of a search examines at most
// kSearchScanRows messages: when that many gave fewer matches than a page,
// fetching stops (searchPaused) and searchedCount() of queueTotal() says how
// far it got, until continueSearch() reads on.
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
    };
    static constexpr int kPageSize = 200;
    static constexpr int kReloadPageSize = 1000;
    static constexpr std::int64_t kSearchScanRows = 50000;

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
    // SentColumn: oldest first (ascending) or newest first; other columns are ignored.
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;
    static bool isSortable(int column) { return column == SentColumn; }
    Qt::SortOrder sortOrder() const { return m_newestFirst ? Qt::DescendingOrder : Qt::AscendingOrder; }

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
    // A search stopped at its scan limit; continueSearch() reads on.
    bool isSearchPaused() const { return m_searchPaused; }
    void continueSearch();
    // Messages a search examines per page (kSearchScanRows unless a test sets fewer).
    void setSearchScanLimit(qint64 rows) { m_scanLimit = rows; }
    // How many messages the search has examined, of the queue's count when it started.
    qint64 searchedCount() const { return m_searched; }
    // The queue's stored messages, as last read (every first page and re-read).
    qint64 queueTotal() const { return m_total; }
    // The end of the queue instead of its start (see the class comment); restart() goes back.
    void jumpToEnd();
    bool atTail() const { return m_tail; }
    bool canFetchEarlier() const { return m_tail && m_before && !m_loading; }
    void fetchEarlier();
    // 1-based place of `row` in the whole (unsearched) queue, in the list's order.
    qint64 positionOf(int row) const;
    // Back to the start of the queue (another list: reset).
    void restart();
    // The last failure (e.g. the queue was deleted); empty after a success.
    const QString &lastError() const { return m_lastError; }

signals:
    void loadingChanged(bool loading);
    // Rows were put above the first one (fetchEarlier): `count` of them.
    void rowsPrepended(int count);
    // After every fetch or re-read that came back (ok or not).
    void loaded();
    void loadFailed(const QString &message);

private:
    void onChanges(const QList<relaydesk::EntityChange> &changes);
    void setLoading(bool loading);
    void startReload();
    void clear(bool tail = false);   // an empty list (at the tail: `tail`), nothing asked for
    BrowseRequest request(std::optional<std::int64_t> after, int pageSize) const;
    void readForReload(std::uint64_t generation, std::optional<std::int64_t> after, int target,
                       std::shared_ptr<std::vector<BrowsedMessage>> collected, qint64 searched);
    void merge(std::vector<BrowsedMessage> fresh);
    void finish(std::uint64_t generation, const QString &error);

    BrokerService *m_service = nullptr;
    BrokerEngine *m_engine = nullptr;
    QString m_queueName;
    QString m_search;
    std::vector<BrowsedMessage> m_messages;
    std::optional<std::int64_t> m_after;   // token of the next page
    std::optional<std::int64_t> m_before;  // at the tail: token of the page before the first row
    bool m_tail = false;                   // the list holds the end of the queue, read the other way
    bool m_atEnd = false;
    bool m_newestFirst = false;
    bool m_searchPaused = false;
    qint64 m_searched = 0;
    qint64 m_total = 0;
    qint64 m_scanLimit = kSearchScanRows;
    bool m_started = false;                // the first page was asked for
    bool m_loading = false;
    bool m_reloadWanted = false;           // a change came while loading
    std::uint64_t m_generation = 0;        // replies of an older search are dropped
    QString m_lastError;
};

} // namespace relaydesk
