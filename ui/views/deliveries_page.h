// SPDX-License-Identifier: MIT
#pragma once

#include "broker/deliveries/attempt_export.h"
#include "models/entity_ref.h"

#include <QWidget>

#include <functional>

class QLabel;
class QPushButton;
class QTableView;

namespace relaydesk {

class AttemptChart;
class AttemptFilterBar;
class AttemptLogModel;
class EmbeddedBroker;
class EntityActions;
class MessageTimelinePanel;

// The Deliveries tab of a subscription, or of a topic across its
// subscriptions: the filter bar; the live attempt chart beside the
// planned schedule of each subscription's effective delivery policy; the
// attempt log as a lazily fetched table (newest on top, live; Ctrl+C copies
// the selected rows); the picked row's message timeline (jitter, throttle
// waits, how it ended, its dead-letter queue one click away, Redeliver); and
// Export… of what the filters show to CSV or JSON through the engine
// (BrokerService::exportAttemptsToFile on its pool thread).
//
// Navigation (the dead-letter queue) goes through EntityActions::requestOpen.
// Ownership: borrows the host and the actions (they outlive it); owns the
// model, chart and widgets. Thread: GUI; every broker call is asynchronous.
class DeliveriesPage final : public QWidget {
    Q_OBJECT
public:
    DeliveriesPage(EmbeddedBroker &host, EntityActions &actions, const LocalEntity &ref, QWidget *parent = nullptr);
    ~DeliveriesPage() override;
    DeliveriesPage(const DeliveriesPage &) = delete;
    DeliveriesPage &operator=(const DeliveriesPage &) = delete;

    // Writes what the filters show to `path` as `format`; the status line says how it went.
    void exportTo(const QString &path, AttemptExportFormat format);
    // Asks for a file (CSV or JSON) and exports to it.
    void exportWithDialog();
    // Copies the selected rows (tab-separated, with a header line).
    void copySelectedRows();
    // Reads the schedules of the subscriptions in scope again (policy changes).
    void reloadSchedules();

    AttemptLogModel *model() const { return m_model; }
    AttemptChart *chart() const { return m_chart; }
    AttemptFilterBar *filterBar() const { return m_filters; }
    QTableView *tableView() const { return m_table; }
    MessageTimelinePanel *timelinePanel() const { return m_timeline; }
    QPushButton *exportButton() const { return m_export; }
    // The count line ("12 431 attempts") and the last status ("Exported …").
    QString countText() const;
    QString statusText() const;

signals:
    // After every reply the page acted on (timeline, redeliver, export, schedules).
    void settled();

private:
    void onCurrentRowChanged();
    void loadTimeline(const QString &subscriptionArn, const QString &messageId);
    void redeliver(const QString &subscriptionArn, const QString &messageId);
    void onAttemptsArrived(const std::vector<AttemptRecord> &rows);
    void loadSchedule(const std::string &subscriptionArn);
    void showCount();
    void setStatus(const QString &text, bool isError = false);

    EmbeddedBroker &m_host;
    EntityActions &m_actions;
    LocalEntity m_ref;
    QString m_topicName;
    AttemptLogModel *m_model = nullptr;
    AttemptChart *m_chart = nullptr;
    AttemptFilterBar *m_filters = nullptr;
    QTableView *m_table = nullptr;
    MessageTimelinePanel *m_timeline = nullptr;
    QLabel *m_count = nullptr;
    QLabel *m_status = nullptr;
    QPushButton *m_export = nullptr;
    QPushButton *m_copy = nullptr;
    QString m_timelineArn;      // the timeline shown: its subscription and message
    QString m_timelineMessage;
};

} // namespace relaydesk
