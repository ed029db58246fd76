// SPDX-License-Identifier: MIT
#pragma once

#include "broker/deliveries/attempt_log.h"
#include "engine/entity_change.h"

#include <QAbstractTableModel>
#include <QList>
#include <QString>

#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

namespace relaydesk {

class BrokerEngine;
class BrokerService;
class Clock;

// What the Deliveries page's filter bar narrows the attempt log to (empty =
// any): one message, one outcome, one phase, one status class ("2xx", "4xx",
// "5xx", "none" = no response), attempts started in [since, until).
struct AttemptFilter {
    QString messageId;
    QString outcome;
    QString phase;
    QString statusClass;
    std::optional<ClockTime> since;
    std::optional<ClockTime> until;

    bool operator==(const AttemptFilter &) const = default;
};

// The attempt log of one subscription, or of every subscription of one topic,
// as a table (docs/behaviour.md §4.4 columns and the kind), newest attempt first, read
// through BrokerService::queryAttempts a page at a time (canFetchMore /
// fetchMore with keyset paging: beforeId = the oldest row loaded), so a
// 100 000-row log opens with its first page and never blocks the GUI.
//
// Live: EntityChange::AttemptsLogged for a subscription in scope reads the
// rows after the newest one loaded (afterId, the same filters) and inserts
// them at the top — rowsInserted, never a reset, so selection stays. At most
// kMaxRows rows are held: beyond that the oldest are removed from the bottom
// (and can be fetched again). A new filter resets the model and refetches.
// `total` is the count of rows matching the filter (countAttempts), kept
// current by the live rows.
//
// Ownership: borrows the service and the engine (they outlive it). Thread:
// GUI; replies come back queued to it.
class AttemptLogModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    // What matters first: which attempt, how it answered, how it ended; then when.
    // Due is the engine's due time of the attempt (its retry delay with jitter);
    // "planned" is kept for the policy's plan (the chart's dashed line, the timeline).
    enum Column { MessageIdColumn, AttemptColumn, StatusColumn, OutcomeColumn, PhaseColumn, DueColumn,
                  StartedColumn, DurationColumn, FinalColumn, KindColumn, ColumnCount };
    enum Role {
        RowIdRole = Qt::UserRole + 1, // qint64: the log's row id
        MessageIdRole,                // QString
        SubscriptionArnRole,          // QString
    };
    enum class Scope { Subscription, Topic };
    static constexpr int kPageSize = 200;
    static constexpr int kLivePageSize = 1000;
    static constexpr int kMaxRows = 20000;

    // `arn`: the subscription's ARN, or the topic's ARN (its subscriptions).
    AttemptLogModel(BrokerService &service, BrokerEngine &engine, Scope scope, QString arn, QObject *parent = nullptr);
    ~AttemptLogModel() override;
    AttemptLogModel(const AttemptLogModel &) = delete;
    AttemptLogModel &operator=(const AttemptLogModel &) = delete;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    bool canFetchMore(const QModelIndex &parent) const override;
    void fetchMore(const QModelIndex &parent) override;

    Scope scope() const { return m_scope; }
    const QString &arn() const { return m_arn; }
    const AttemptFilter &filter() const { return m_filter; }
    // Another filter: reset, then the first page and the count.
    void setFilter(const AttemptFilter &filter);
    // The log query of the scope and filter (no paging): what Export writes.
    AttemptQuery query() const;
    // Null when `row` is out of range. Valid until the model next changes.
    const AttemptRecord *recordAt(int row) const;
    // Rows matching the filter in the log (-1 until counted).
    std::int64_t total() const { return m_total; }
    bool isLoading() const { return m_loading; }
    const QString &lastError() const { return m_lastError; }
    // The rows `rows` (any order) as tab-separated text with a header line.
    QString rowsAsText(const QList<int> &rows) const;

signals:
    void loadingChanged(bool loading);
    // After every page or live read that came back (ok or not).
    void loaded();
    void loadFailed(const QString &message);
    void totalChanged(qint64 total);
    // Rows that came in (a page or live), in the order read; for the chart.
    void attemptsArrived(const std::vector<relaydesk::AttemptRecord> &rows);

private:
    bool inScope(const QString &subscriptionArn) const;
    void onChanges(const QList<relaydesk::EntityChange> &changes);
    void fetchNewer();
    void recount();
    void setLoading(bool loading);
    void finish(const QString &error);
    void trim();

    BrokerService *m_service = nullptr;
    const Clock *m_clock = nullptr;
    Scope m_scope = Scope::Subscription;
    QString m_arn;
    AttemptFilter m_filter;
    std::deque<AttemptRecord> m_rows;      // newest first
    bool m_started = false;                // the first page was asked for
    bool m_more = true;                    // older rows than the last one may match
    bool m_loading = false;
    bool m_newerWanted = false;            // attempts were logged while loading
    std::uint64_t m_generation = 0;        // replies of an older filter are dropped
    std::int64_t m_total = -1;
    QString m_lastError;
};

} // namespace relaydesk

Q_DECLARE_METATYPE(std::vector<relaydesk::AttemptRecord>)
